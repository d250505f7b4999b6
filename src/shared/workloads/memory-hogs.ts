import type { Program, Sys } from '../host/program'
import type { Rng } from '../sim/rng'
import { US } from '../sim/time'
import type { ParamValues } from '../util/params'
import type { WorkloadType } from './workload'

/**
 * qsbench: quicksort an array of random integers larger than memory. Each partition step reads
 * and writes its sub-array page by page; the recursion then works on ever smaller pieces, which
 * fit in memory only near the leaves. With `passes` > 1 the array is refilled and sorted again.
 */
class Qsbench implements Program {
  private readonly stack: number[] = []
  private pass = 0
  private lo = -1
  private hi = -1
  private cursor = 0
  private donePages = 0
  private readonly totalPages: number

  constructor(
    private readonly pages: number,
    private readonly passes: number,
    private readonly cpuPerPage: number,
    private readonly rng: Rng,
  ) {
    this.totalPages = pages * passes * Math.max(1, Math.ceil(Math.log2(pages)))
  }

  step(sys: Sys): void {
    // the current partition: touch its pages in chunks, then split it at a random pivot
    if (this.lo >= 0 && this.cursor < this.hi) {
      const n = Math.min(64, this.hi - this.cursor)
      const first = this.cursor
      this.cursor += n
      this.donePages += n
      return sys.touch(first, n, true, this.cpuPerPage)
    }
    if (this.lo >= 0) {
      const size = this.hi - this.lo
      if (size > 1) {
        // a random pivot: the split lands uniformly in the middle half, as random data gives
        const mid = this.lo + Math.max(1, Math.floor(size * (0.25 + 0.5 * this.rng.next())))
        this.stack.push(mid, this.hi, this.lo, mid)
      }
      this.lo = -1
    }
    if (this.stack.length === 0) {
      if (this.pass >= this.passes) return sys.exit()
      this.pass++
      this.stack.push(0, this.pages)
    }
    this.hi = this.stack.pop()!
    this.lo = this.stack.pop()!
    this.cursor = this.lo
    this.step(sys)
  }

  progress(): number {
    return Math.min(1, this.donePages / this.totalPages)
  }
}

/**
 * efax-like: a mostly sequential job — passes over a large image buffer, page after page — under
 * the same memory pressure: when the buffer does not fit, every pass pages it all back in.
 */
class SequentialMemoryJob implements Program {
  private page = 0
  private pass = 0

  constructor(
    private readonly pages: number,
    private readonly passes: number,
    private readonly cpuPerPage: number,
  ) {}

  step(sys: Sys): void {
    if (this.page >= this.pages) {
      this.pass++
      this.page = 0
      if (this.pass >= this.passes) return sys.exit()
    }
    const n = Math.min(64, this.pages - this.page)
    const first = this.page
    this.page += n
    sys.touch(first, n, this.pass === 0 || this.pass % 2 === 1, this.cpuPerPage)
  }

  progress(): number {
    return (this.pass + this.page / this.pages) / this.passes
  }
}

const memParams = (what: string, defMiB: number, passes: number, cpuUs: number) =>
  [
    {
      name: 'sizeMiB',
      kind: 'number',
      default: defMiB,
      unit: 'MiB',
      meaning: `the ${what}`,
      min: 0.1,
      max: 1 << 22,
    },
    {
      name: 'passes',
      kind: 'int',
      default: passes,
      unit: 'passes',
      meaning: 'times the job goes over it',
      min: 1,
      max: 1e6,
    },
    {
      name: 'cpuUsPerPage',
      kind: 'number',
      default: cpuUs,
      unit: 'µs',
      meaning: 'computation per 4 KiB page touched',
      min: 0,
      max: 1e6,
    },
  ] as const

const pagesOf = (p: ParamValues): number => Math.max(1, Math.round(((p.sizeMiB as number) * 2 ** 20) / 4096))

export const qsbench: WorkloadType = {
  name: 'qsbench',
  summary:
    'qsbench-like: quicksort of an array bigger than memory — the host pages (random page-ins and page-outs)',
  params: memParams('array to sort (make it larger than the host’s memory to page)', 512, 1, 20),
  files: () => [],
  openEnded: () => false,
  create: (p, env) => [
    {
      suffix: '',
      program: new Qsbench(
        pagesOf(p),
        p.passes as number,
        Math.round((p.cpuUsPerPage as number) * US),
        env.rng('qsbench'),
      ),
    },
  ],
}

export const efax: WorkloadType = {
  name: 'efax',
  summary: 'efax-like: passes over a large buffer, mostly sequential, under memory pressure',
  params: memParams('buffer', 256, 4, 30),
  files: () => [],
  openEnded: () => false,
  create: (p) => [
    {
      suffix: '',
      program: new SequentialMemoryJob(
        pagesOf(p),
        p.passes as number,
        Math.round((p.cpuUsPerPage as number) * US),
      ),
    },
  ],
}
