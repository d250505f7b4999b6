import type { Program, Sys } from '../host/program'
import type { SimFile } from '../host/files'
import { US } from '../sim/time'
import type { ProcessInstance, WorkloadType } from './workload'

/**
 * N processes each seeking to a random block and reading it (bonnie++'s seek phase, a database's
 * index lookups); a share of the blocks read is dirtied (written back later by writeback).
 */
class RandomReader implements Program {
  private done = 0
  private dirtyNext = -1

  constructor(
    private readonly f: SimFile,
    private readonly blocks: number,
    private readonly bs: number,
    private readonly count: number,
    private readonly direct: boolean,
    private readonly dirtyShare: number,
    private readonly think: number,
    private thinkNext = false,
  ) {}

  step(sys: Sys): void {
    if (this.dirtyNext >= 0) {
      const b = this.dirtyNext
      this.dirtyNext = -1
      return sys.write(this.f, b * this.bs, this.bs, this.direct)
    }
    if (this.thinkNext && this.think > 0) {
      this.thinkNext = false
      return sys.sleep(this.think)
    }
    if (this.count > 0 && this.done >= this.count) return sys.exit()
    const b = sys.rng.int(this.blocks)
    this.done++
    this.thinkNext = true
    if (this.dirtyShare > 0 && sys.rng.next() < this.dirtyShare) this.dirtyNext = b
    sys.read(this.f, b * this.bs, this.bs, this.direct)
  }

  progress(): number {
    return this.count > 0 ? this.done / this.count : NaN
  }
}

const fileOf = (p: Record<string, unknown>, name: string): string => (p.file as string) || `${name}.rr`

export const randomRead: WorkloadType = {
  name: 'random-read',
  summary: 'N processes reading random blocks of a file (seek + read), optionally dirtying a share of them',
  params: [
    {
      name: 'processes',
      kind: 'int',
      default: 1,
      unit: 'processes',
      meaning: 'readers running at once',
      min: 1,
      max: 4096,
    },
    {
      name: 'file',
      kind: 'string',
      default: '',
      unit: '',
      meaning: 'file they share ("/dev" = the raw device); default: one of its own',
    },
    {
      name: 'size',
      kind: 'size',
      default: 1024 ** 3,
      unit: 'bytes',
      meaning: 'region the blocks are drawn from',
      min: 4096,
      max: 2 ** 50,
    },
    { name: 'bs', kind: 'size', default: 4096, unit: 'bytes', meaning: 'block size', min: 512, max: 1 << 30 },
    {
      name: 'count',
      kind: 'int',
      default: 1000,
      unit: 'reads',
      meaning: 'reads per process (0 = until the experiment stops)',
      min: 0,
      max: 1e12,
    },
    { name: 'direct', kind: 'bool', default: false, unit: '', meaning: 'O_DIRECT reads (no page cache)' },
    {
      name: 'dirtyShare',
      kind: 'number',
      default: 0,
      unit: 'fraction',
      meaning: 'share of the blocks read that are then rewritten (bonnie++: 0.1)',
      min: 0,
      max: 1,
    },
    {
      name: 'thinkUs',
      kind: 'number',
      default: 0,
      unit: 'µs',
      meaning: 'pause after each read',
      min: 0,
      max: 1e9,
    },
  ],
  files: (p, name) => {
    const f = fileOf(p, name)
    return f === '/dev' ? [] : [{ name: f, size: p.size as number }]
  },
  openEnded: (p) => p.count === 0,
  instances: (p) => p.processes as number,
  plannedOps: (p) =>
    p.count === 0 ? Infinity : (p.count as number) * (p.processes as number) * (1 + (p.dirtyShare as number)),
  ioBytes: (p) => p.bs as number,
  create: (p, env) => {
    const f = env.file(fileOf(p, env.name))
    const bs = p.bs as number
    const blocks = Math.max(1, Math.floor(Math.min(p.size as number, f.size) / bs))
    const n = p.processes as number
    const out: ProcessInstance[] = []
    for (let i = 0; i < n; i++) {
      out.push({
        suffix: n > 1 ? `/${i}` : '',
        program: new RandomReader(
          f,
          blocks,
          bs,
          p.count as number,
          p.direct as boolean,
          p.dirtyShare as number,
          Math.round((p.thinkUs as number) * US),
        ),
      })
    }
    return out
  },
}
