import type { SimTime } from '../sim/time'
import { ms } from '../sim/time'
import { RequestFifo } from '../block/fifo'
import { SectorIndex } from '../block/sector-index'
import { READ, WRITE } from '../block/types'
import type { Op, Request } from '../block/types'
import type { ParamSpec, ParamValues } from '../util/params'
import type { IoScheduler, SchedulerType } from './scheduler'

/** Tunables of block/deadline-iosched.c (the same defaults in mq-deadline). */
export const deadlineTunables: readonly ParamSpec[] = [
  {
    name: 'read_expire',
    kind: 'int',
    default: 500,
    unit: 'ms',
    meaning: 'max time before a read is submitted',
    min: 1,
    max: 600_000,
    source: 'HZ / 2',
  },
  {
    name: 'write_expire',
    kind: 'int',
    default: 5000,
    unit: 'ms',
    meaning: 'ditto for writes, these limits are soft',
    min: 1,
    max: 600_000,
    source: '5 * HZ',
  },
  {
    name: 'writes_starved',
    kind: 'int',
    default: 2,
    unit: 'batches',
    meaning: 'max times reads can starve a write',
    min: 1,
    max: 1000,
  },
  {
    name: 'fifo_batch',
    kind: 'int',
    default: 16,
    unit: 'requests',
    meaning: 'requests dispatched in sector order before the FIFOs are checked again',
    min: 1,
    max: 10_000,
  },
  {
    name: 'front_merges',
    kind: 'bool',
    default: true,
    unit: '',
    meaning: 'look for a queued request that starts where a new bio ends',
  },
]

/**
 * The legacy deadline scheduler. Each request sits in two indexes on purpose: a sector-sorted
 * list per direction (for one-way sweeps) and a FIFO per direction carrying its expiry time.
 * Reads are preferred; writes get a batch after `writes_starved` read batches. Deadlines are
 * soft: they are looked at only when a batch ends.
 */
export class Deadline implements IoScheduler {
  readonly frontMerges: boolean
  private readonly expire: [SimTime, SimTime]
  private readonly writesStarved: number
  private readonly fifoBatch: number
  private readonly sorted = [new SectorIndex(), new SectorIndex()]
  private readonly fifo = [new RequestFifo(), new RequestFifo()]
  /** Sector successor of the last dispatched request; at most one direction is set. */
  private readonly nextRq: [Request | null, Request | null] = [null, null]
  private batching = 0
  private starved = 0

  constructor(t: ParamValues) {
    this.expire = [ms(t.read_expire as number), ms(t.write_expire as number)]
    this.writesStarved = t.writes_starved as number
    this.fifoBatch = t.fifo_batch as number
    this.frontMerges = t.front_merges as boolean
  }

  insert(rq: Request, now: SimTime): void {
    this.sorted[rq.op].insert(rq)
    rq.fifoTime = now + this.expire[rq.op]
    this.fifo[rq.op].push(rq)
  }

  hasWork(): boolean {
    return this.fifo[READ].size > 0 || this.fifo[WRITE].size > 0
  }

  completed(_rq: Request, _now: SimTime): void {}

  /** A front merge moved the request's start: re-sort it (deadline_merged_request). */
  merged(rq: Request, front: boolean, _now: SimTime, oldSector: number): void {
    if (!front) return
    const idx = this.sorted[rq.op]
    idx.remove(rq, oldSector)
    idx.insert(rq)
  }

  /** `next` was absorbed into `rq`: `rq` takes the earlier place in the FIFO (deadline_merged_requests). */
  mergedRequests(rq: Request, next: Request): void {
    const f = this.fifo[next.op]
    if (next.fifoTime <= rq.fifoTime) {
      // the block layer already copied the earlier time into rq; move rq to next's FIFO position
      f.replace(next, rq)
    } else {
      f.remove(next)
    }
    this.removeSorted(next)
  }

  dispatch(now: SimTime): Request | undefined {
    const reads = this.fifo[READ].size > 0
    const writes = this.fifo[WRITE].size > 0
    // Batches are reads XOR writes: continue the current one in sector order while entitled.
    let rq = this.nextRq[WRITE] ?? this.nextRq[READ]
    if (rq !== null && this.batching < this.fifoBatch) {
      this.batching++
      this.move(rq)
      return rq
    }
    // Not batching: choose a direction. Reads win unless writes have starved long enough.
    let dir: Op
    if (reads) {
      dir = writes && this.starved++ >= this.writesStarved ? WRITE : READ
    } else if (writes) {
      dir = WRITE
    } else {
      return undefined
    }
    if (dir === WRITE) this.starved = 0
    // An expired FIFO head, or no sector successor in this direction: start from the oldest.
    const next = this.nextRq[dir]
    rq = this.fifoExpired(dir, now) || next === null ? this.fifo[dir].head! : next
    this.batching = 1
    this.move(rq)
    return rq
  }

  private fifoExpired(dir: Op, now: SimTime): boolean {
    const h = this.fifo[dir].head
    return h !== null && now >= h.fifoTime
  }

  /** deadline_move_request: remember the successor, take rq out of both indexes. */
  private move(rq: Request): void {
    const dir = rq.op
    this.nextRq[READ] = null
    this.nextRq[WRITE] = null
    this.nextRq[dir] = this.sorted[dir].next(rq)
    this.fifo[dir].remove(rq)
    this.removeSorted(rq)
  }

  private removeSorted(rq: Request): void {
    if (this.nextRq[rq.op] === rq) this.nextRq[rq.op] = this.sorted[rq.op].next(rq)
    this.sorted[rq.op].remove(rq)
  }
}

export const deadline: SchedulerType = {
  name: 'deadline',
  aliases: [],
  era: 'Linux 2.5.39–4.20 (legacy block layer); the default on many distributions for servers',
  layer: 'legacy',
  summary: 'Sector-ordered batches per direction with per-request expiry; reads preferred.',
  explanation:
    'deadline keeps the elevator’s sector order for throughput but bounds how long any request waits ' +
    '(500 ms for reads, 5 s for writes, checked between 16-request batches) and prefers reads two batches ' +
    'to one. It wins for databases and mixed random loads, where no request may starve and seeks are ' +
    'unavoidable anyway. It loses to anticipatory and CFQ when a process reads sequentially but ' +
    'synchronously while another streams writes: the reader leaves the queue empty between requests, ' +
    'deadline moves the head to the writes, and every read pays a seek (deceptive idleness).',
  tunables: deadlineTunables,
  usesIoPriority: false,
  create: (t) => new Deadline(t),
}
