import { Timer } from '../sim/engine'
import type { Engine, Handler } from '../sim/engine'
import { MS, SECOND } from '../sim/time'
import type { SimTime } from '../sim/time'
import { READ } from './types'
import type { Bio, IoContext, Request } from './types'
import type { SlotWaiter } from './queue-params'
import { WaitList } from './wait-list'

/**
 * Buffered-writeback throttling (block/blk-wbt.c and block/blk-rq-qos.c, Linux 4.10+; this follows
 * 6.x), on blk-mq queues unless the elevator turns it off (BFQ does: ELEVATOR_FLAG_DISABLE_WBT).
 *
 * The writes it counts are the page cache's (not O_DIRECT's REQ_SYNC | REQ_IDLE): a bio that did
 * not merge takes one of them before it gets a request (`rq_qos_throttle` in blk_mq_submit_bio),
 * and gives it back when the request completes or is merged away (`wbt_done`). How many may be
 * in flight depends on the write (`get_limit`): writeback that must finish (REQ_SYNC: fsync, sync,
 * BLKFLSBUF), kswapd's, or any while a writer was throttled in balance_dirty_pages during the
 * last second, up to `max_depth`; the flusher's background writeback, or any while a read was
 * issued or completed in the last 100 ms, up to a quarter of it (`wb_background`); the rest up to
 * half (`wb_normal`). A waiter is woken only when the count has fallen well below the limit — on
 * a device with a write cache, not before it is zero (`wbt_rqw_done`) — so writeback goes out in
 * bursts, with the device's queue free for reads between them.
 *
 * `max_depth` follows the reads' latency (`wb_timer_fn`), like CoDel: every window (100 ms) the
 * least D2C time of the reads completed in it is compared with the target (`wbt_lat_usec`, 2 ms
 * by default, 75 ms on a rotational device): above it, or a read outstanding for a whole window,
 * the depth halves and the window shrinks; below, or writes without reads, the depth doubles from
 * 16 up to ¾ of the queue's (`rq_depth_calc_max_depth`).
 *
 * Measured on this machine (Linux 6.18, loop device with 128 tags, wbt_lat_usec 2000, ftrace of
 * a QD1 reader beside a buffered 1 MiB writer whose passes end with BLKFLSBUF): the writeback had
 * at most 96 requests in flight — ¾ of 128 — and went out in bursts of 96 with a pause between;
 * the reads never waited for a tag.
 */
export class WritebackThrottle implements Handler {
  /** Tracked writes in flight (taken, not yet done). */
  inflight = 0
  private step = 0
  private scaledMax = false
  maxDepth = 0
  wbNormal = 0
  wbBackground = 0
  private readonly waiters = new WaitList()
  private readonly timer: Timer
  private curWin: SimTime
  private unknownCount = 0
  // the window's statistics (blk_stat of the queue: reads' and writes' D2C times)
  private readMin = Infinity
  private readSamples = 0
  private writeSamples = 0
  /** The oldest read issued and not yet completed (sync_issue, sync_cookie). */
  private syncIssue: SimTime = 0
  private syncRq: Request | null = null
  private lastIssue: SimTime = -SECOND
  private lastComp: SimTime = -SECOND
  /** When a writer last slept in balance_dirty_pages (wb->dirty_sleep). */
  private dirtySleep: SimTime = -SECOND
  /** Who the flusher and kswapd are (their writeback is REQ_BACKGROUND, or kswapd's). */
  background: (ctx: IoContext) => boolean = () => false
  kswapd: (ctx: IoContext) => boolean = () => false

  constructor(
    private readonly engine: Engine,
    /** wbt_lat_usec, ns (> 0). */
    private readonly minLat: SimTime,
    /** blk_queue_depth: the queue's nr_requests. */
    private readonly queueDepth: number,
    /** QUEUE_FLAG_WC: the device has a volatile write cache. */
    private readonly writeCache: boolean,
    /** Let a woken bio go on to get its request. */
    private readonly resume: (bio: Bio, waiter: SlotWaiter) => void,
  ) {
    this.timer = new Timer(engine, this, 0)
    this.curWin = WINDOW
    this.calcMaxDepth()
    this.calcLimits()
  }

  /** Whether the block layer counts this bio: a write of the page cache's (not O_DIRECT). */
  static tracks(bio: Bio): boolean {
    return bio.op !== READ && bio.pages
  }

  /** A read is submitted (last_issue). */
  readSubmitted(now: SimTime): void {
    this.lastIssue = now
  }

  /** A writer slept in balance_dirty_pages. */
  dirtySlept(now: SimTime): void {
    this.dirtySleep = now
  }

  /**
   * A tracked write wants to go on (rq_qos_wait): true if it may now, else it waits behind those
   * already waiting and `resume` is called when it may.
   */
  throttle(bio: Bio, waiter: SlotWaiter, now: SimTime): boolean {
    const go = this.waiters.size === 0 && this.inflight < this.limit(bio, now)
    if (go) this.inflight++
    else this.waiters.push(bio, waiter)
    if (!this.timer.pending) this.arm(now)
    return go
  }

  /** A tracked request completed or was merged away (wbt_done, wbt_rqw_done). */
  done(now: SimTime): void {
    this.inflight--
    const limit = this.writeCache && !this.recentWait(now) ? 0 : this.wbNormal
    if (this.inflight > 0 && this.inflight >= limit) return
    if (this.waiters.size === 0) return
    if (this.inflight === 0 || limit - this.inflight >= this.wbBackground / 2) this.wakeAll(now)
  }

  /** A request goes to the device (wbt_issue): the first read outstanding is watched. */
  issued(rq: Request, now: SimTime): void {
    if (rq.op === READ && this.syncIssue === 0) {
      this.syncIssue = now
      this.syncRq = rq
    }
  }

  /** A request completed at the device: the window's statistics (blk_stat_add: its D2C). */
  completed(rq: Request, now: SimTime): void {
    if (rq.op === READ) {
      this.lastComp = now
      if (rq === this.syncRq) {
        this.syncIssue = 0
        this.syncRq = null
      }
    }
    if (!this.timer.pending) return
    if (rq.op === READ) {
      this.readSamples++
      this.readMin = Math.min(this.readMin, now - rq.dispatchedAt)
    } else this.writeSamples++
  }

  /** The window has ended (wb_timer_fn). */
  onEvent(): void {
    this.timer.fired()
    const now = this.engine.now
    const status = this.latencyStatus(now)
    if (status === EXCEEDED) this.scaleDown(true)
    else if (status === OK || status === UNKNOWN_WRITES) this.scaleUp(now)
    else if (++this.unknownCount >= UNKNOWN_BUMP) {
      if (this.step > 0) this.scaleUp(now)
      else if (this.step < 0) this.scaleDown(false)
    }
    if (this.step !== 0 || this.inflight > 0) this.arm(now)
  }

  /** get_limit: how many tracked writes this one may find in flight. */
  private limit(bio: Bio, now: SimTime): number {
    if (bio.sync || this.recentWait(now) || this.kswapd(bio.ctx)) return this.maxDepth
    if (this.background(bio.ctx) || now < this.lastIssue + CLOSE || now < this.lastComp + CLOSE)
      return this.wbBackground
    return this.wbNormal
  }

  private recentWait(now: SimTime): boolean {
    return now < this.dirtySleep + SECOND
  }

  /** Wake the waiters in order while each may go (an exclusive wait stops at the first refused). */
  private wakeAll(now: SimTime): void {
    const w = this.waiters
    while (w.size > 0) {
      const bio = w.bioAt(0)
      if (this.inflight >= this.limit(bio, now)) return
      const waiter = w.waiterAt(0)
      w.removeAt(0)
      this.inflight++
      this.resume(bio, waiter)
    }
  }

  /** latency_exceeded. */
  private latencyStatus(now: SimTime): number {
    const outstanding = this.syncIssue > 0 ? now - this.syncIssue : 0
    if (outstanding > this.curWin || (outstanding > this.minLat && this.readSamples === 0)) return EXCEEDED
    if (this.readSamples < 1 || this.writeSamples < MIN_WRITE_SAMPLES) {
      if (this.writeSamples > 0 || this.recentWait(now) || this.inflight > 0) return UNKNOWN_WRITES
      return UNKNOWN
    }
    return this.readMin > this.minLat ? EXCEEDED : OK
  }

  /** Start a window (rwb_arm_timer): shorter while the depth is scaled down. */
  private arm(now: SimTime): void {
    this.curWin =
      this.step > 0 ? Math.floor((WINDOW * 16) / Math.floor(Math.sqrt((this.step + 1) * 256))) : WINDOW
    this.readMin = Infinity
    this.readSamples = 0
    this.writeSamples = 0
    this.timer.set(now + this.curWin)
  }

  /** rq_depth_scale_up. */
  private scaleUp(now: SimTime): void {
    if (this.scaledMax) return
    this.step--
    this.scaledMax = this.calcMaxDepth()
    this.calcLimits()
    this.unknownCount = 0
    this.wakeAll(now)
  }

  /** rq_depth_scale_down. */
  private scaleDown(hard: boolean): void {
    if (this.maxDepth === 1) return
    if (this.step < 0 && hard) this.step = 0
    else this.step++
    this.scaledMax = false
    this.calcMaxDepth()
    this.calcLimits()
    this.unknownCount = 0
  }

  /** rq_depth_calc_max_depth: true when scaling up can go no further. */
  private calcMaxDepth(): boolean {
    const qd = this.queueDepth
    if (qd === 1) {
      this.maxDepth = this.step > 0 ? 1 : 2
      return this.step <= 0
    }
    let depth = Math.min(DEFAULT_DEPTH, qd)
    let capped = false
    if (this.step > 0) depth = 1 + Math.floor((depth - 1) / 2 ** Math.min(31, this.step))
    else if (this.step < 0) {
      const maxd = Math.floor((3 * qd) / 4)
      depth = 1 + (depth - 1) * 2 ** Math.min(31, -this.step)
      if (depth > maxd) {
        depth = maxd
        capped = true
      }
    }
    this.maxDepth = depth
    return capped
  }

  /** calc_wb_limits. */
  private calcLimits(): void {
    if (this.maxDepth <= 2) {
      this.wbNormal = this.maxDepth
      this.wbBackground = 1
    } else {
      this.wbNormal = Math.floor((this.maxDepth + 1) / 2)
      this.wbBackground = Math.floor((this.maxDepth + 3) / 4)
    }
  }
}

/** RWB_DEF_DEPTH, RWB_WINDOW_NSEC, RWB_MIN_WRITE_SAMPLES, RWB_UNKNOWN_BUMP (blk-wbt.c). */
const DEFAULT_DEPTH = 16
const WINDOW = 100 * MS
const MIN_WRITE_SAMPLES = 3
const UNKNOWN_BUMP = 5
/** close_io: a read issued or completed within HZ / 10. */
const CLOSE = 100 * MS

const OK = 1
const UNKNOWN = 2
const UNKNOWN_WRITES = 3
const EXCEEDED = 4

/** wbt_default_latency_nsec: 2 ms for non-rotational storage, 75 ms for rotational. */
export function defaultWbtLatencyNs(rotational: boolean): SimTime {
  return rotational ? 75 * MS : 2 * MS
}
