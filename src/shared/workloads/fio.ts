import type { Program, Sys } from '../host/program'
import type { SimFile } from '../host/files'
import type { AccessAdvice } from '../host/readahead'
import { READ, WRITE } from '../block/types'
import type { Op } from '../block/types'
import { SECOND, US } from '../sim/time'
import type { SimTime } from '../sim/time'
import type { ParamValues } from '../util/params'
import { RandomBlockOrder } from './block-order'
import type { ProcessInstance, WorkloadType } from './workload'
import { FIO_PARAMS } from './fio-params'
import type { PATTERNS } from './fio-params'

interface JobOptions {
  random: boolean
  /** Probability of a read (1 for read-only, 0 for write-only). */
  readShare: number
  bs: number
  depth: number
  /** io_getevents when the queue is full: wait for this many completions, reap at most `reapMax`. */
  reapMin: number
  reapMax: number
  async: boolean
  direct: boolean
  blocks: number
  /** Bytes of work per loop before the job ends (0 = only time ends it). */
  bytes: number
  runtime: SimTime
  rate: number
  think: SimTime
  thinkBlocks: number
  timeBased: boolean
  /** Drop the region's cached pages at open and before each new pass (fio `invalidate`). */
  invalidate: boolean
  /** The file is the block device (/dev): BLKFLSBUF instead of posix_fadvise. */
  blockDevice: boolean
  /** posix_fadvise access advice given at open (fio `fadvise_hint`), or null for none. */
  advice: AccessAdvice | null
  endFsync: boolean
  fsyncOnClose: boolean
  /** fsync after every this many writes (fio `fsync`; 0 = never). */
  fsyncEvery: number
  /** Time run before statistics start (fio `ramp_time`); the runtime counts after it. */
  ramp: SimTime
  /** Times a size-based job repeats its work (fio `loops`). */
  loops: number
}

const OPEN = 0
const RUN = 1

/**
 * A fio job, doing what fio does with the same job file (fio's backend.c, io_u.c, filesetup.c):
 *  - the region is visited sequentially, or randomly with every block once per pass (fio's
 *    random map); reads, writes or a mix; `bs` per I/O; synchronous (psync) or asynchronous with
 *    `iodepth` in flight (libaio/io_uring, O_DIRECT); a rate limit and think time;
 *  - at open, and before each new pass of a time-based job when the I/O is buffered, the region's
 *    cached pages are dropped (`invalidate`, on by default: posix_fadvise DONTNEED on a file,
 *    ioctl BLKFLSBUF on the block device — which also writes back and waits);
 *  - `fsync` every N writes, and at the end of each loop one fsync if the job wrote since its
 *    last (`end_fsync`, `fsync_on_close`); syncs are not counted as I/O operations;
 *  - `ramp_time` runs before the statistics start, and the runtime counts after it;
 *  - size-based jobs repeat `loops` times (closing and reopening the file in between);
 *    time-based ones loop over the region until the runtime ends;
 *  - on the block device, the last job to close it makes the kernel write back and drop the
 *    device's page cache (Sys.closeBlockDevice); fio's runtime ends before that close.
 */
class FioJob implements Program {
  private issued = 0
  private bytesIssued = 0
  private seq = 0
  private startAt = -1
  private sinceThink = 0
  private phase = OPEN
  private loop = 0
  /** I/Os issued in the current pass over the region. */
  private passIssued = 0
  private passEnded = false
  private rampDone: boolean
  /** fio's should_fsync: the job wrote since its last sync. */
  private wroteSinceSync = false
  private writesSinceFsync = 0
  private fsyncDue = false
  /** The block device is open (this job is one of its openers). */
  private opened = false
  /** At the end of a loop: whether another follows (decided once, before the close). */
  private again: boolean | null = null
  private readonly order: RandomBlockOrder | null

  constructor(
    private readonly f: SimFile,
    private readonly o: JobOptions,
    sysRngSeed: { order: RandomBlockOrder | null },
  ) {
    this.order = sysRngSeed.order
    this.rampDone = o.ramp === 0
  }

  private moreWork(now: SimTime): boolean {
    if (this.o.runtime > 0 && now - this.startAt >= this.o.ramp + this.o.runtime) return false
    return this.o.bytes === 0 || this.bytesIssued < this.o.bytes
  }

  private nextBlock(): number {
    if (++this.passIssued === this.o.blocks) {
      this.passIssued = 0
      if (this.o.timeBased) this.passEnded = true
    }
    if (this.order !== null) return this.order.next()
    const b = this.seq
    this.seq = (this.seq + 1) % this.o.blocks
    return b
  }

  /** fio's file_invalidate_cache over the job's region. */
  private invalidate(sys: Sys): void {
    if (this.o.blockDevice) sys.flushBlockDevice()
    else sys.fadviseDontNeed(this.f, 0, this.o.blocks * this.o.bs)
  }

  step(sys: Sys): void {
    const o = this.o
    const now = sys.now
    if (this.startAt < 0) this.startAt = now
    if (this.phase === OPEN) {
      // the device is opened first (the kernel counts its openers: the last close drops its cache)
      if (o.blockDevice && !this.opened) {
        this.opened = true
        return sys.openBlockDevice()
      }
      this.phase = RUN
      // fio's td_io_open_file: the access advice, with the open (no time of its own)
      if (o.advice !== null) sys.adviseAccess(this.f, o.advice)
      if (o.invalidate) return this.invalidate(sys)
    }
    if (!this.rampDone && now - this.startAt >= o.ramp) {
      this.rampDone = true
      sys.resetStats()
    }
    const more = this.moreWork(now)
    if (!more || (o.async && sys.aioInFlight >= o.depth)) {
      // a full queue waits as fio's wait_for_completions does; at the end, what is left is reaped
      if (o.async && sys.aioInFlight > 0) return more ? sys.aioWait(o.reapMin, o.reapMax) : sys.aioWait(1)
      if (!more) return this.endLoop(sys)
    }
    if (this.fsyncDue) {
      this.fsyncDue = false
      this.wroteSinceSync = false
      return sys.fsync(this.f, false, false)
    }
    if (this.passEnded) {
      // a new pass of a time-based job: fio's loop_cache_invalidate, for buffered I/O only
      this.passEnded = false
      if (o.invalidate && !o.direct) return this.invalidate(sys)
    }
    if (o.think > 0 && this.sinceThink >= o.thinkBlocks) {
      this.sinceThink = 0
      return sys.sleep(o.think)
    }
    if (o.rate > 0) {
      const due = this.startAt + Math.round((this.bytesIssued / o.rate) * SECOND)
      if (due > now) return o.async && sys.aioInFlight > 0 ? sys.aioWait(1, o.reapMax) : sys.sleep(due - now)
    }
    const op: Op =
      o.readShare >= 1 ? READ : o.readShare <= 0 ? WRITE : sys.rng.next() < o.readShare ? READ : WRITE
    const off = this.nextBlock() * o.bs
    this.issued++
    this.sinceThink++
    this.bytesIssued += o.bs
    if (op === WRITE) {
      this.wroteSinceSync = true
      if (o.fsyncEvery > 0 && ++this.writesSinceFsync >= o.fsyncEvery) {
        this.writesSinceFsync = 0
        this.fsyncDue = true
      }
    }
    if (o.async) return sys.aioSubmit(this.f, off, o.bs, op)
    if (op === READ) sys.read(this.f, off, o.bs, o.direct)
    else sys.write(this.f, off, o.bs, o.direct)
  }

  /**
   * The end of a loop (fio's do_io returning): one fsync if the job wrote since its last and
   * asks for one at the end or on close; then another loop of a size-based job (the file closed
   * and opened again), or the end.
   */
  private endLoop(sys: Sys): void {
    const o = this.o
    if (this.wroteSinceSync && (o.endFsync || o.fsyncOnClose)) {
      this.wroteSinceSync = false
      return sys.fsync(this.f, false, false)
    }
    if (this.again === null) this.again = !o.timeBased && this.loop + 1 < o.loops && this.moreTime(sys.now)
    if (this.opened) {
      // td_io_close_file at the end of each loop; fio's runtime ends before the last close
      this.opened = false
      if (!this.again) sys.stopClock()
      return sys.closeBlockDevice()
    }
    const again = this.again
    this.again = null
    if (again) {
      this.loop++
      this.bytesIssued = 0
      this.seq = 0
      this.passIssued = 0
      this.fsyncDue = false
      this.phase = OPEN
      return this.step(sys)
    }
    sys.exit()
  }

  private moreTime(now: SimTime): boolean {
    return this.o.runtime === 0 || now - this.startAt < this.o.ramp + this.o.runtime
  }

  progress(): number {
    if (this.o.bytes > 0)
      return Math.min(1, (this.loop * this.o.bytes + this.bytesIssued) / (this.o.loops * this.o.bytes))
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
  summary:
    'a fio job: rw pattern, bs, iodepth, numjobs, size, direct, rate limit, think time, time-based, ramp_time, loops, invalidate, fsync options',
  params: FIO_PARAMS,
  files: (p, name) => {
    if (p.filename === '/dev') return [] // the device itself: raw, or its own page cache if buffered
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
    const max = p.iodepth_batch_complete_max as number
    if (max > 0 && max < (p.iodepth_batch_complete_min as number))
      out.push([
        'iodepth_batch_complete_max',
        `iodepth_batch_complete_max ${max} is below iodepth_batch_complete_min ${p.iodepth_batch_complete_min}`,
      ])
    return out
  },
  create: (p, env) => {
    const out: ProcessInstance[] = []
    const n = p.numjobs as number
    const pat = pattern(p)
    const bs = p.bs as number
    const onDevice = p.filename === '/dev'
    const direct = p.direct as boolean
    const optionsFor = (blocks: number): JobOptions => ({
      random: pat.random,
      readShare: pat.readShare,
      bs,
      depth: p.iodepth as number,
      reapMin: p.iodepth_batch_complete_min as number,
      reapMax: (p.iodepth_batch_complete_max as number) || (p.iodepth_batch_complete_min as number),
      async: p.ioengine !== 'psync' && direct,
      direct,
      blocks,
      bytes: p.time_based ? 0 : blocks * bs,
      runtime: Math.round((p.runtime as number) * SECOND),
      rate: p.rate as number,
      think: Math.round((p.thinktime as number) * US),
      thinkBlocks: p.thinktime_blocks as number,
      timeBased: p.time_based as boolean,
      invalidate: p.invalidate as boolean,
      blockDevice: onDevice,
      advice: adviceOf(p.fadvise_hint as string, pat.random),
      endFsync: p.end_fsync as boolean,
      fsyncOnClose: p.fsync_on_close as boolean,
      fsyncEvery: p.fsync as number,
      ramp: Math.round((p.ramp_time as number) * SECOND),
      loops: p.loops as number,
    })
    const shared = new Map<number, JobOptions>()
    for (let i = 0; i < n; i++) {
      // buffered I/O on /dev goes through the block device's page cache, as on a file
      const f =
        onDevice && !direct
          ? env.bufferedDevice(Math.min(p.size as number, env.deviceBytes))
          : env.file(fileOf(p, env.name, i))
      const blocks = Math.max(1, Math.floor(Math.min(p.size as number, f.size) / bs))
      // One options object for the jobs whose regions are alike (numjobs clones): read at every
      // request, it stays in the CPU's caches however many jobs take turns, where a copy per job
      // cost a cache miss a request at 1 024 jobs. The jobs only read it.
      let o = shared.get(blocks)
      if (o === undefined) shared.set(blocks, (o = optionsFor(blocks)))
      const order = pat.random ? new RandomBlockOrder(blocks, env.rng(`fio:${env.name}:${i}`)) : null
      out.push({ suffix: n > 1 ? `/${i}` : '', program: new FioJob(f, o, { order }) })
    }
    return out
  },
}

/** fio's fadvise_hint as the advice it gives (1: by the job's pattern; 0: none). */
function adviceOf(hint: string, random: boolean): AccessAdvice | null {
  if (hint === '0') return null
  if (hint === 'sequential' || hint === 'random') return hint
  return random ? 'random' : 'sequential'
}
