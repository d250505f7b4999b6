import type { SimTime } from '../sim/time'
import { ms } from '../sim/time'
import { RequestFifo } from '../block/fifo'
import { sbitmapShift, shallowSlots } from '../block/sbitmap'
import { SectorIndex } from '../block/sector-index'
import { READ, WRITE } from '../block/types'
import type { Bio, Op, Request } from '../block/types'
import type { ParamSpec, ParamValues } from '../util/params'
import type { IoScheduler, SchedulerType } from './scheduler'
import { deadlineTunables } from './deadline'
import { SCHEDULER_CPU_COST } from './cpu-cost'

/**
 * mq-deadline as in block/mq-deadline.c of Linux 5.16–6.7: the legacy deadline algorithm kept once
 * per I/O priority level, strict priority between the levels, and aging so that a lower level
 * still gets served. (5.14 added the levels; the aging and "a level with requests in flight
 * blocks the lower ones" came in 5.16 — 5.14/5.15 only had the strict order. 6.8+ replaced
 * `next_rq` by a remembered sector position — the `batch_rule` tunable picks either — and made the
 * at-head list global.)
 */

/** Tunables: deadline's (same defaults), plus the two mq-deadline adds. */
export const mqDeadlineTunables: readonly ParamSpec[] = [
  ...deadlineTunables,
  {
    name: 'prio_aging_expire',
    kind: 'int',
    default: 10_000,
    unit: 'ms',
    meaning: 'a lower-priority request waiting this long is served before higher-priority ones',
    min: 0,
    max: 600_000,
    source: '10 * HZ (5.16+)',
  },
  {
    name: 'async_depth',
    kind: 'int',
    default: 0,
    unit: 'requests',
    meaning:
      'scheduler tags writes may hold, keeping the rest for sync reads (sysfs async_depth); 0 = the default of the kernel async_depth_rule names',
    min: 0,
    max: 1_000_000,
    source:
      'block/mq-deadline.c dd_depth_updated (default) and dd_limit_depth (as a shallow depth of the tags), 5.14+',
  },
  {
    name: 'async_depth_rule',
    kind: 'enum',
    default: '5.14',
    values: ['5.14', '6.8', '6.10', '6.17'],
    unit: '',
    meaning:
      'whose tag reservation: 5.14 (to 6.7, and 6.9) default ⌊3/4·nr_requests⌋ per sbitmap word — bites only below 4 tags; ' +
      '6.8 3/4 of each word — about 3/4 of nr_requests; 6.10 (to 6.16) default nr_requests, a set value scaled to a word; ' +
      '6.17+ default nr_requests, a set value over the whole map',
    source:
      'block/mq-deadline.c: 5.14 commit 07757588e507 (max(1UL, 3 * q->nr_requests / 4), per-word shallow_depth); ' +
      '6.8 d47f9717e5cf (max(1U, 3 * (1U << shift) / 4)), back to 3/4·nr_requests in 6.9; 6.10 39823b47bbd4 ' +
      '(async_depth = nr_requests, dd_to_word_depth); 6.17 lib/sbitmap 42e6c6ce03fd (shallow depth of the whole map)',
  },
  {
    name: 'batch_rule',
    kind: 'enum',
    default: '5.16',
    values: ['5.16', '6.8'],
    unit: '',
    meaning:
      'how a batch finds its next request: 5.16 (to 6.7) the sector successor of the last one dispatched, as it stood when that one left (a request arriving later does not extend the batch); ' +
      '6.8+ the first request at or after where the last one ended, whenever it arrived — so a stream of sequential writes keeps a write batch going until fifo_batch requests have gone',
    source:
      'block/mq-deadline.c: next_rq[] set in deadline_move_request (5.16–6.7); "block/mq-deadline: Track the dispatch position" (6.8) replaced it by latest_pos[], read by deadline_next_request through deadline_from_pos',
  },
]

export type AsyncDepthRule = '5.14' | '6.8' | '6.10' | '6.17'

/**
 * The scheduler tags (of nr_requests) writes can hold at once under `rule`, or undefined when that
 * is all of them. `asyncDepth` is the sysfs value, 0 for the kernel's default.
 */
export function mqDeadlineAsyncSlots(
  rule: AsyncDepthRule,
  asyncDepth: number,
  nr: number,
): number | undefined {
  const shift = sbitmapShift(nr)
  let slots: number
  if (rule === '6.17') slots = shallowSlots(nr, asyncDepth || nr, 'whole')
  else if (rule === '6.10') {
    // dd_to_word_depth: a depth in requests scaled to one word, rounded up
    const d = asyncDepth || nr
    slots = shallowSlots(nr, Math.floor((d * (1 << shift) + nr - 1) / nr), 'per-word')
  } else {
    const base = rule === '6.8' ? 1 << shift : nr
    slots = shallowSlots(nr, asyncDepth || Math.max(1, Math.floor((3 * base) / 4)), 'per-word')
  }
  return slots >= nr ? undefined : slots
}

/** Priority levels (enum dd_prio): served strictly in this order. */
const RT_PRIO = 0
const BE_PRIO = 1
const IDLE_PRIO = 2
/**
 * I/O priority class → level, indexed by IOPRIO_NONE, IOPRIO_RT, IOPRIO_BE, IOPRIO_IDLE (0…3): a
 * task without a class counts as best effort.
 */
const CLASS_TO_PRIO: readonly number[] = [BE_PRIO, RT_PRIO, BE_PRIO, IDLE_PRIO]

/** Flag in `rq.schedInt` (beside the level) for a request on the at-head dispatch list. */
const AT_HEAD = 4

/**
 * One priority level (struct dd_per_prio). Each queued request sits in two indexes on purpose:
 * the sector-sorted list of its direction (for one-way sweeps) and the FIFO of its direction
 * (carrying its expiry time) — except at-head requests, which sit only on `atHead`.
 */
class PrioLevel {
  readonly sorted = [new SectorIndex(), new SectorIndex()]
  readonly fifo = [new RequestFifo(), new RequestFifo()]
  /** Sector successor of this level's last dispatched request, per direction (not cleared across). */
  readonly nextRq: [Request | null, Request | null] = [null, null]
  /** 6.8+: where this level's last dispatched request of each direction ended (latest_pos). */
  readonly latestPos = [0, 0]
  /** Requests inserted at the head (requeues, flushes): served first, newest first. */
  readonly atHead: Request[] = []
  /** Inserted and not yet completed — queued *or in flight* (dd_queued). */
  pending = 0
}

export class MqDeadline implements IoScheduler {
  readonly frontMerges: boolean
  /** dd_finish_request only counts the completion: it schedules no dispatch (block/mq-runs.ts). */
  readonly completionRuns = false
  /** Declining with work queued: a lower level waits for a higher one's requests (dispatchByPriority). */
  readonly holdsByClass = true
  private readonly expire: [SimTime, SimTime]
  private readonly writesStarved: number
  private readonly fifoBatch: number
  private readonly agingExpire: SimTime
  private readonly asyncDepth: number | undefined
  /** 6.8+ batch_rule: the next request is found from the last dispatched position. */
  private readonly fromPos: boolean
  private readonly levels = [new PrioLevel(), new PrioLevel(), new PrioLevel()]
  /** Direction, batch count and starvation count are shared by all levels, as in the kernel. */
  private lastDir: Op = WRITE
  private batching = 0
  private starved = 0
  private queued = 0

  constructor(t: ParamValues, nrRequests: number) {
    this.expire = [ms(t.read_expire as number), ms(t.write_expire as number)]
    this.writesStarved = t.writes_starved as number
    this.fifoBatch = t.fifo_batch as number
    this.frontMerges = t.front_merges as boolean
    this.agingExpire = ms(t.prio_aging_expire as number)
    this.fromPos = t.batch_rule === '6.8'
    this.asyncDepth = mqDeadlineAsyncSlots(
      t.async_depth_rule as AsyncDepthRule,
      t.async_depth as number,
      nrRequests,
    )
  }

  /** dd_insert_request. `atHead` (not yet in the ops contract) puts it on the level's at-head list. */
  insert(rq: Request, now: SimTime, atHead = false): void {
    const p = CLASS_TO_PRIO[rq.ioClass]
    const lvl = this.levels[p]
    lvl.pending++
    this.queued++
    if (atHead) {
      rq.schedInt = p | AT_HEAD
      rq.fifoTime = now // its start, for the aging check [unverified: which kernels set it here]
      lvl.atHead.unshift(rq)
      return
    }
    rq.schedInt = p
    lvl.sorted[rq.op].insert(rq)
    rq.fifoTime = now + this.expire[rq.op]
    lvl.fifo[rq.op].push(rq)
  }

  hasWork(): boolean {
    return this.queued > 0
  }

  /** dd_finish_request: the request no longer counts for its level. */
  completed(rq: Request, _now: SimTime): void {
    this.levels[rq.schedInt & 3].pending--
  }

  /** blk_rq_merge_ok: only requests of the same I/O priority merge; at-head ones never. */
  allowMerge(rq: Request, bio: Bio): boolean {
    return rq.schedInt < AT_HEAD && rq.ioClass === bio.ctx.ioClass && rq.ioLevel === bio.ctx.ioLevel
  }

  /** A front merge moved the request's start: re-sort it (dd_request_merged). */
  merged(rq: Request, front: boolean, _now: SimTime, oldSector: number): void {
    if (!front) return
    const idx = this.levels[rq.schedInt].sorted[rq.op]
    idx.remove(rq, oldSector)
    idx.insert(rq)
  }

  /** `next` was absorbed into `rq` (dd_merged_requests): `rq` takes the earlier FIFO place. */
  mergedRequests(rq: Request, next: Request): void {
    const lvl = this.levels[next.schedInt & 3]
    this.queued--
    lvl.pending-- // the absorbed request is freed: it counts as finished
    if (next.schedInt & AT_HEAD) {
      // the block layer does not ask about `next` itself; the kernel would not merge it
      lvl.atHead.splice(lvl.atHead.indexOf(next), 1)
      return
    }
    const f = lvl.fifo[next.op]
    // the block layer already copied the earlier expiry into rq
    if (next.fifoTime <= rq.fifoTime) f.replace(next, rq)
    else f.remove(next)
    this.removeSorted(lvl, next)
  }

  /**
   * dd_limit_depth: sync reads are never throttled (every read is sync: op_is_sync); writes, sync
   * or not, take tags only up to the async depth, so a flood of writes leaves tags for reads.
   */
  limitDepth(op: Op, _sync: boolean): number | undefined {
    return op === READ ? undefined : this.asyncDepth
  }

  /**
   * dd_dispatch_request:
   * 1. When two or more levels have requests (queued or in flight), serve a BE or IDLE request
   *    that has waited at least prio_aging_expire, lowest-numbered level first.
   * 2. Otherwise strictly by priority: RT, then BE, then IDLE — and stop at the first level that
   *    has requests pending, even if they are all in flight (lower levels wait for them).
   */
  dispatch(now: SimTime): Request | undefined {
    const rq = this.dispatchAged(now) ?? this.dispatchByPriority(now)
    if (rq !== null) this.queued--
    return rq ?? undefined
  }

  private dispatchAged(now: SimTime): Request | null {
    if (this.busyLevels() < 2) return null
    for (let p = BE_PRIO; p <= IDLE_PRIO; p++) {
      const rq = this.dispatchLevel(this.levels[p], now, now - this.agingExpire)
      if (rq !== null) return rq
    }
    return null
  }

  private dispatchByPriority(now: SimTime): Request | null {
    for (let p = RT_PRIO; p <= IDLE_PRIO; p++) {
      const lvl = this.levels[p]
      const rq = this.dispatchLevel(lvl, now, now)
      if (rq !== null || lvl.pending > 0) return rq
    }
    return null
  }

  /** The first level with requests pending has none queued: the levels under it wait (dispatchByPriority). */
  blocked(): boolean {
    for (const lvl of this.levels) {
      if (lvl.pending === 0) continue
      return lvl.atHead.length === 0 && lvl.fifo[0].size === 0 && lvl.fifo[1].size === 0
    }
    return false
  }

  private busyLevels(): number {
    const l = this.levels
    return (l[0].pending > 0 ? 1 : 0) + (l[1].pending > 0 ? 1 : 0) + (l[2].pending > 0 ? 1 : 0)
  }

  /**
   * __dd_dispatch_request: legacy deadline within one level, for a request that started no later
   * than `latestStart`. Like the kernel, a probe that picks a too-young request still leaves its
   * marks (direction chosen, batch restarted, starvation counted) before giving up.
   */
  private dispatchLevel(lvl: PrioLevel, now: SimTime, latestStart: SimTime): Request | null {
    // 1. The at-head list first.
    if (lvl.atHead.length > 0) {
      if (this.startedAfter(lvl.atHead[0], latestStart)) return null
      return lvl.atHead.shift()!
    }
    // 2. Continue the batch in sector order while entitled (the direction is global).
    let rq = this.nextOf(lvl, this.lastDir)
    if (rq === null || this.batching >= this.fifoBatch) {
      // 3. Not batching: choose a direction; reads win unless writes have starved long enough.
      const dir = this.chooseDirection(lvl)
      if (dir === undefined) return null
      // 4. An expired FIFO head, or no sector successor in that direction: start from the oldest.
      const next = this.nextOf(lvl, dir)
      rq = this.fifoExpired(lvl, dir, now) || next === null ? lvl.fifo[dir].head! : next
      this.lastDir = dir
      this.batching = 0
    }
    // 5. Too young for this pass (the aging probe): leave it queued.
    if (this.startedAfter(rq, latestStart)) return null
    this.batching++
    this.move(lvl, rq)
    return rq
  }

  /** deadline_next_request: the batch's next request in sector order, by the kernel's rule. */
  private nextOf(lvl: PrioLevel, dir: Op): Request | null {
    return this.fromPos ? lvl.sorted[dir].fromPos(lvl.latestPos[dir]) : lvl.nextRq[dir]
  }

  private chooseDirection(lvl: PrioLevel): Op | undefined {
    const writes = lvl.fifo[WRITE].size > 0
    if (lvl.fifo[READ].size > 0 && !(writes && this.starved++ >= this.writesStarved)) return READ
    if (!writes) return undefined
    this.starved = 0
    return WRITE
  }

  private fifoExpired(lvl: PrioLevel, dir: Op, now: SimTime): boolean {
    const h = lvl.fifo[dir].head
    return h !== null && now >= h.fifoTime
  }

  /** started_after: the request's start (its expiry minus the expire time) is after `latest`. */
  private startedAfter(rq: Request, latest: SimTime): boolean {
    return rq.fifoTime - this.expire[rq.op] > latest
  }

  /** deadline_move_request: remember the successor in this direction, take rq out of both indexes. */
  private move(lvl: PrioLevel, rq: Request): void {
    if (this.fromPos) lvl.latestPos[rq.op] = rq.end
    else lvl.nextRq[rq.op] = lvl.sorted[rq.op].next(rq)
    lvl.fifo[rq.op].remove(rq)
    this.removeSorted(lvl, rq)
  }

  private removeSorted(lvl: PrioLevel, rq: Request): void {
    const idx = lvl.sorted[rq.op]
    if (lvl.nextRq[rq.op] === rq) lvl.nextRq[rq.op] = idx.next(rq)
    idx.remove(rq)
  }
}

export const mqDeadline: SchedulerType = {
  name: 'mq-deadline',
  aliases: [],
  era: 'Linux 4.11+ (blk-mq); I/O priorities from 5.14',
  layer: 'mq',
  summary: 'deadline for blk-mq, kept per I/O priority level (RT, BE, IDLE) with aging between levels.',
  explanation:
    'mq-deadline is deadline rewritten for multi-queue block devices (on those kernels `deadline` in ' +
    'sysfs names it; here `deadline` is the legacy scheduler): sector-ordered 16-request batches, reads ' +
    'preferred two batches to one, soft 500 ms / 5 s expiry. From 5.14 it keeps all of that per I/O ' +
    'priority class and serves RT before BE before IDLE; from 5.16 a lower class is held back while a ' +
    'higher one has requests even in flight, and a request older than prio_aging_expire (10 s) jumps the ' +
    'order. It wins where cheap, predictable bounded latency matters — fast SSDs and NVMe, databases, ' +
    'and as the default for many SATA disks — and lets ionice really prioritise. It loses to BFQ on a ' +
    'single disk shared by interactive and streaming processes: it never idles for a synchronous ' +
    'reader, so a sequential reader competing with writes pays seeks, and an IDLE-class job can wait ' +
    'the full 10 s under steady higher-priority load.',
  tunables: mqDeadlineTunables,
  cpuCost: SCHEDULER_CPU_COST['mq-deadline'],
  usesIoPriority: true,
  create: (t, ctx) => new MqDeadline(t, ctx.nrRequests),
}
