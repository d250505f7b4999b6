import type { PhaseResult, Program, Sys } from '../host/program'
import type { ProcessMemory } from '../experiment/resolved'
import type { Rng } from '../sim/rng'
import { US } from '../sim/time'
import type { ParamValues } from '../util/params'

/** Pages allocated per touch call when the process starts. */
const ALLOC_CHUNK = 64

/**
 * A process's own anonymous memory (a spec's `memory`): it allocates and writes all of it when it
 * starts (as a program that mallocs and fills its buffers), then, between each of the workload's
 * system calls, touches `pagesPerCall` pages of it — the next ones in order (sequential) or pages
 * drawn at random (random) — or none (hold). Touching writes the page. Each page written costs
 * what copying 4 KiB does on the host. The memory is freed when the process exits.
 */
class MemoryUser implements Program {
  private allocated = 0
  private cursor = 0
  private turn = false
  readonly phases?: () => PhaseResult[]

  constructor(
    private readonly inner: Program,
    private readonly m: ProcessMemory,
    private readonly cpuPerPage: number,
    private readonly rng: Rng,
  ) {
    if (inner.phases) this.phases = () => inner.phases!()
  }

  step(sys: Sys): void {
    const m = this.m
    if (this.allocated < m.pages) {
      const n = Math.min(ALLOC_CHUNK, m.pages - this.allocated)
      const first = this.allocated
      this.allocated += n
      return sys.touch(first, n, true, this.cpuPerPage)
    }
    if (this.turn && m.pattern !== 'hold') {
      this.turn = false
      const n = Math.min(m.pagesPerCall, m.pages)
      let first: number
      if (m.pattern === 'random') first = this.rng.int(m.pages - n + 1)
      else {
        if (this.cursor + n > m.pages) this.cursor = 0
        first = this.cursor
        this.cursor += n
      }
      return sys.touch(first, n, true, this.cpuPerPage)
    }
    this.turn = true
    this.inner.step(sys)
  }

  progress(): number {
    return this.inner.progress()
  }
}

/** The workload's program, with the spec's process memory around it (or as it is, without). */
export function withProcessMemory(
  inner: Program,
  m: ProcessMemory | undefined,
  host: ParamValues,
  rng: Rng,
): Program {
  if (!m) return inner
  const cpuPerPage = Math.round((host.copyUsPerKiB as number) * 4 * US)
  return new MemoryUser(inner, m, cpuPerPage, rng)
}
