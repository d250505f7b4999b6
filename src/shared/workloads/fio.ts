import type { Program, Sys } from '../host/program'
import type { SimFile } from '../host/files'
import { READ, WRITE } from '../block/types'
import type { Op } from '../block/types'
import { SECOND, US } from '../sim/time'
import type { SimTime } from '../sim/time'
import type { ParamValues } from '../util/params'
import { RandomBlockOrder } from './block-order'
import type { ProcessInstance, WorkloadType } from './workload'

const PATTERNS = ['read', 'write', 'randread', 'randwrite', 'rw', 'readwrite', 'randrw'] as const

interface JobOptions {
  random: boolean
  /** Probability of a read (1 for read-only, 0 for write-only). */
  readShare: number
  bs: number
  depth: number
  async: boolean
  direct: boolean
  blocks: number
  /** Bytes of work before the job ends (0 = only time ends it). */
  bytes: number
  runtime: SimTime
  rate: number
  think: SimTime
  thinkBlocks: number
}

/**
 * A fio job: sequential or random (every block once per pass, like fio's random map), reads,
 * writes or a mix, `bs` per I/O; synchronous (psync) or asynchronous with `iodepth` I/Os in flight
 * (libaio/io_uring, O_DIRECT); a rate limit and think time; size- or time-based.
 */
class FioJob implements Program {
  private issued = 0
  private bytesIssued = 0
  private seq = 0
  private startAt = -1
  private sinceThink = 0
  private readonly order: RandomBlockOrder | null

  constructor(
    private readonly f: SimFile,
    private readonly o: JobOptions,
    sysRngSeed: { order: RandomBlockOrder | null },
  ) {
    this.order = sysRngSeed.order
  }

  private moreWork(now: SimTime): boolean {
    if (this.o.runtime > 0 && now - this.startAt >= this.o.runtime) return false
    return this.o.bytes === 0 || this.bytesIssued < this.o.bytes
  }

  private nextBlock(): number {
    if (this.order !== null) return this.order.next()
    const b = this.seq
    this.seq = (this.seq + 1) % this.o.blocks
    return b
  }

  step(sys: Sys): void {
    const o = this.o
    const now = sys.now
    if (this.startAt < 0) this.startAt = now
    const more = this.moreWork(now)
    if (!more || (o.async && sys.aioInFlight >= o.depth)) {
      if (o.async && sys.aioInFlight > 0) return sys.aioWait(1)
      if (!more) return sys.exit()
    }
    if (o.think > 0 && this.sinceThink >= o.thinkBlocks) {
      this.sinceThink = 0
      return sys.sleep(o.think)
    }
    if (o.rate > 0) {
      const due = this.startAt + Math.round((this.bytesIssued / o.rate) * SECOND)
      if (due > now) return o.async && sys.aioInFlight > 0 ? sys.aioWait(1) : sys.sleep(due - now)
    }
    const op: Op =
      o.readShare >= 1 ? READ : o.readShare <= 0 ? WRITE : sys.rng.next() < o.readShare ? READ : WRITE
    const off = this.nextBlock() * o.bs
    this.issued++
    this.sinceThink++
    this.bytesIssued += o.bs
    if (o.async) return sys.aioSubmit(this.f, off, o.bs, op)
    if (op === READ) sys.read(this.f, off, o.bs, o.direct)
    else sys.write(this.f, off, o.bs, o.direct)
  }

  progress(): number {
    if (this.o.bytes > 0) return Math.min(1, this.bytesIssued / this.o.bytes)
    return NaN
  }
}

const fileOf = (p: ParamValues, name: string, i: number): string => (p.filename as string) || `${name}.${i}.0`

const pattern = (p: ParamValues): { random: boolean; readShare: number } => {
  const rw = p.rw as (typeof PATTERNS)[number]
  const mix = (p.rwmixread as number) / 100
  switch (rw) {
    case 'read':
      return { random: false, readShare: 1 }
    case 'write':
      return { random: false, readShare: 0 }
    case 'randread':
      return { random: true, readShare: 1 }
    case 'randwrite':
      return { random: true, readShare: 0 }
    case 'randrw':
      return { random: true, readShare: mix }
    default:
      return { random: false, readShare: mix }
  }
}

export const fio: WorkloadType = {
  name: 'fio',
  summary: 'a fio job: rw pattern, bs, iodepth, numjobs, size, direct, rate limit, think time, time-based',
  params: [
    {
      name: 'rw',
      kind: 'enum',
      values: PATTERNS,
      default: 'read',
      unit: '',
      meaning: 'I/O pattern (fio rw=)',
    },
    {
      name: 'rwmixread',
      kind: 'number',
      default: 50,
      unit: '%',
      meaning: 'share of reads in a mixed pattern',
      min: 0,
      max: 100,
    },
    {
      name: 'bs',
      kind: 'size',
      default: 4096,
      unit: 'bytes',
      meaning: 'block size of each I/O',
      min: 512,
      max: 1 << 30,
    },
    {
      name: 'iodepth',
      kind: 'int',
      default: 1,
      unit: 'I/Os',
      meaning: 'I/Os kept in flight (asynchronous engines)',
      min: 1,
      max: 65536,
    },
    {
      name: 'numjobs',
      kind: 'int',
      default: 1,
      unit: 'jobs',
      meaning: 'identical jobs (processes) running at once',
      min: 1,
      max: 4096,
    },
    {
      name: 'size',
      kind: 'size',
      default: 1024 ** 3,
      unit: 'bytes',
      meaning: 'file or region size per job, and the I/O done unless time-based',
      min: 4096,
      max: 2 ** 50,
    },
    {
      name: 'filename',
      kind: 'string',
      default: '',
      unit: '',
      meaning: 'file shared by all jobs ("/dev" = the raw device); default: one per job',
    },
    { name: 'direct', kind: 'bool', default: false, unit: '', meaning: 'O_DIRECT (bypass the page cache)' },
    {
      name: 'ioengine',
      kind: 'enum',
      values: ['psync', 'libaio', 'io_uring'],
      default: 'psync',
      unit: '',
      meaning: 'synchronous or asynchronous submission',
    },
    {
      name: 'rate',
      kind: 'size',
      default: 0,
      unit: 'bytes/s',
      meaning: 'bandwidth cap per job (0 = none)',
      min: 0,
      max: 2 ** 50,
    },
    {
      name: 'thinktime',
      kind: 'number',
      default: 0,
      unit: 'µs',
      meaning: 'stall after every thinktime_blocks I/Os',
      min: 0,
      max: 1e10,
    },
    {
      name: 'thinktime_blocks',
      kind: 'int',
      default: 1,
      unit: 'I/Os',
      meaning: 'I/Os between stalls',
      min: 1,
      max: 1e9,
    },
    {
      name: 'time_based',
      kind: 'bool',
      default: false,
      unit: '',
      meaning: 'run for `runtime` whatever the size, looping over the region',
    },
    {
      name: 'runtime',
      kind: 'number',
      default: 0,
      unit: 's',
      meaning: 'stop after this long (0 = no limit)',
      min: 0,
      max: 1e7,
    },
  ],
  files: (p, name) => {
    if (p.filename === '/dev') return []
    if (p.filename) return [{ name: p.filename as string, size: p.size as number }]
    return Array.from({ length: p.numjobs as number }, (_, i) => ({
      name: fileOf(p, name, i),
      size: p.size as number,
    }))
  },
  openEnded: (p) => (p.time_based as boolean) && p.runtime === 0,
  instances: (p) => p.numjobs as number,
  // time-based: as many as fit in its runtime (the estimate goes by time)
  plannedOps: (p) =>
    p.time_based ? Infinity : Math.ceil((p.size as number) / (p.bs as number)) * (p.numjobs as number),
  ioBytes: (p) => p.bs as number,
  check: (p) => {
    const out: [string, string][] = []
    if (p.ioengine === 'psync' && (p.iodepth as number) > 1)
      out.push([
        'iodepth',
        `iodepth ${p.iodepth} needs an asynchronous ioengine (libaio or io_uring), not psync`,
      ])
    if (p.ioengine !== 'psync' && !p.direct && (p.iodepth as number) > 1)
      out.push([
        'direct',
        'asynchronous I/O with iodepth > 1 needs direct=true (buffered libaio is synchronous in Linux)',
      ])
    if (p.time_based && p.runtime === 0) out.push(['runtime', 'time_based needs a runtime > 0'])
    return out
  },
  create: (p, env) => {
    const out: ProcessInstance[] = []
    const n = p.numjobs as number
    const pat = pattern(p)
    const bs = p.bs as number
    for (let i = 0; i < n; i++) {
      const f = env.file(fileOf(p, env.name, i))
      const blocks = Math.max(1, Math.floor(Math.min(p.size as number, f.size) / bs))
      const o: JobOptions = {
        random: pat.random,
        readShare: pat.readShare,
        bs,
        depth: p.iodepth as number,
        async: p.ioengine !== 'psync' && (p.direct as boolean),
        direct: p.direct as boolean,
        blocks,
        bytes: p.time_based ? 0 : blocks * bs,
        runtime: Math.round((p.runtime as number) * SECOND),
        rate: p.rate as number,
        think: Math.round((p.thinktime as number) * US),
        thinkBlocks: p.thinktime_blocks as number,
      }
      const order = pat.random ? new RandomBlockOrder(blocks, env.rng(`fio:${env.name}:${i}`)) : null
      out.push({ suffix: n > 1 ? `/${i}` : '', program: new FioJob(f, o, { order }) })
    }
    return out
  },
}
