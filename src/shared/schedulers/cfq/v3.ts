import type { SimTime } from '../../sim/time'
import { IOPRIO_IDLE } from '../../block/types'
import type { Bio, IoContext, Request } from '../../block/types'
import { Idle } from '../scheduler'
import type { IoScheduler, SchedulerContext } from '../scheduler'
import type { CfqConfig } from './tunables'
import { HW_TAG_DEPTH, IDLE_GRACE, MIN_TT, SLICE_SCALE } from './tunables'
import { CfqIoContext, contextStats } from './io-context'
import { CfqQueue, asyncSlot, effectiveClass, effectiveLevel } from './queue'
import { HeadChooser } from './sorted-queue'
import { ServiceTree } from './service-tree'
import { PidTable } from '../../util/pid-table'

/**
 * CFQ v3, time-sliced (block/cfq-iosched.c as of ≈2.6.23). Each process has a sync queue; async
 * requests share one queue per (class, level). Busy queues wait on a service tree (RT → BE → IDLE,
 * then by key). The active queue owns the disk for a slice whose length follows its priority; the
 * slice clock starts at its first completion. When a sync queue runs dry inside its slice the disk
 * idles `slice_idle` for the process's next request — unless its think time or seeks say it will
 * not come soon. New requests may preempt the active queue.
 *
 * The idle timer is kept lazily: `idleUntil` is its expiry, and whatever runs first at or after
 * that time (dispatch, insert, completion) plays the timer's part first. While idling, dispatch
 * answers Idle, so the block layer comes back at `idleUntil` by itself.
 */
export class CfqV3 implements IoScheduler {
  readonly frontMerges = true
  private readonly chooser: HeadChooser
  private readonly tree = new ServiceTree()
  private readonly contexts = new PidTable<CfqIoContext>()
  private readonly stats = contextStats()
  private readonly asyncQueues: (CfqQueue | null)[] = new Array<CfqQueue | null>(17).fill(null)
  private readonly idle = new Idle()
  private active: CfqQueue | null = null
  /** The process whose request the active queue dispatched first in this slice. */
  private activeCic: CfqIoContext | null = null
  /** Queues on the service tree (busy_queues). */
  private busy = 0
  private queuedTotal = 0
  /** Sync requests at the device (sync_flight). */
  private syncFlight = 0
  /** End sector of the last dispatched request: where the head will be. */
  private lastPosition = 0
  /** Last completion of a request not of the idle class. */
  private lastEndRequest: SimTime = 0
  /** The device was seen holding more than 4 commands: it queues itself (hw_tag). */
  private hwTag = false
  /** idle_slice_timer: expiry, or -1 when not armed. */
  private idleUntil: SimTime = -1
  /** idle_class_timer: when the idle class may have the disk, or -1. */
  private graceUntil: SimTime = -1

  constructor(
    private readonly cfg: CfqConfig,
    private readonly ctx: SchedulerContext,
  ) {
    this.chooser = new HeadChooser(cfg.backMaxSectors, cfg.backPenalty, true)
  }

  hasWork(): boolean {
    return this.queuedTotal > 0
  }

  // --- insert (cfq_insert_request + cfq_rq_enqueued) ---

  insert(rq: Request, now: SimTime): void {
    this.idleTimerDue(now)
    const cic = this.contextOf(rq.ctx, now)
    const q = this.queueFor(cic, rq)
    rq.sched = q
    rq.fifoTime = now + this.cfg.fifoExpire[rq.sync ? 1 : 0]
    q.addSorted(rq, this.chooser, this.lastPosition)
    this.queuedTotal++
    if (!q.onRr) this.addToTree(q, now)
    q.fifoPush(rq)
    this.enqueued(q, rq, cic, now)
  }

  private contextOf(c: IoContext, now: SimTime): CfqIoContext {
    let cic = this.contexts.get(c.pid)
    if (cic === undefined) {
      cic = new CfqIoContext(c, now, this.stats)
      this.contexts.set(c.pid, cic)
    }
    return cic
  }

  /** cfq_get_queue: the process's own sync queue, or the shared async queue of its class and level. */
  private queueFor(cic: CfqIoContext, rq: Request): CfqQueue {
    const cls = effectiveClass(rq.ctx)
    const lvl = effectiveLevel(rq.ctx)
    if (!rq.sync) {
      const slot = asyncSlot(rq.ctx)
      return (this.asyncQueues[slot] ??= new CfqQueue(false, cls, lvl, null))
    }
    const q = cic.syncQueue ?? cic.openSyncQueue(cls, lvl)
    // a changed priority takes effect when the queue is neither queued nor being served
    if (!q.onRr && q !== this.active && (q.ioClass !== cls || q.prio !== lvl)) {
      q.ioClass = cls
      q.prio = lvl
    }
    return q
  }

  /** Update the process's statistics; let the request end an idle wait or preempt the active queue. */
  private enqueued(q: CfqQueue, rq: Request, cic: CfqIoContext, now: SimTime): void {
    cic.updateThinkTime(now, this.cfg.sliceIdle)
    cic.updateSeek(rq)
    if (q.sync) this.updateIdleWindow(q, cic)
    cic.lastRequestPos = rq.end
    if (q === this.active) {
      if (q.waitRequest) this.idleUntil = -1 // the awaited request came: stop idling
    } else if (this.shouldPreempt(q, rq, now)) {
      this.preempt(q, now)
    }
  }

  /** cfq_update_idle_window: idle only for a live process that thinks less than slice_idle. */
  private updateIdleWindow(q: CfqQueue, cic: CfqIoContext): void {
    if (cic.ctx.exited || this.cfg.sliceIdle === 0 || (this.hwTag && cic.seeky)) q.idleWindow = false
    else if (cic.thinkTimeValid) q.idleWindow = cic.ttimeMean <= this.cfg.sliceIdle
  }

  /** cfq_should_preempt: may the queue that just got `rq` take the disk from the active queue? */
  private shouldPreempt(q: CfqQueue, rq: Request, now: SimTime): boolean {
    const a = this.active
    if (a === null) return false
    if (this.sliceUsed(a, now)) return true
    if (q.ioClass === IOPRIO_IDLE) return false
    if (a.ioClass === IOPRIO_IDLE) return true
    if (rq.sync && !a.sync) return true
    if (this.activeCic === null || !a.waitRequest) return false
    return this.closeToHead(rq, this.activeCic) // as good as what we are idling for
  }

  /** cfq_rq_close: within the active process's mean seek distance of the head. */
  private closeToHead(rq: Request, cic: CfqIoContext): boolean {
    return cic.seekValid && Math.abs(rq.sector - this.lastPosition) <= cic.seekMean
  }

  /** cfq_preempt_queue: end the active slice (keeping what was left) and put `q` first. */
  private preempt(q: CfqQueue, now: SimTime): void {
    if (this.active !== null) this.sliceExpired(this.active, true, now)
    this.treeAdd(q, true, now)
    q.sliceEnd = 0
    q.sliceNew = true
  }

  // --- dispatch (cfq_dispatch_requests, one request per call) ---

  dispatch(now: SimTime): Request | Idle | undefined {
    if (this.queuedTotal === 0) return undefined
    this.idleTimerDue(now)
    this.graceUntil = -1 // recomputed below if the idle class is still kept waiting
    // 1. Keep the active queue while its slice lasts and it has requests; if it ran dry, wait
    //    (idling, or its requests still at the device); otherwise expire it and take the next.
    const q = this.selectQueue(now)
    if (q === null) return this.waiting(now)
    // 2. At most `quantum` of its requests at the device (one for the idle class); a queue
    //    alone may go to four times that.
    const max = q.ioClass === IOPRIO_IDLE ? 1 : this.cfg.quantum
    if (q.dispatched >= max && (this.busy > 1 || q.dispatched >= 4 * max)) return undefined
    // 3. Never async while sync requests are at the device.
    if (this.syncFlight > 0 && !q.sync) return undefined
    // 4. Dispatching ends any idle wait.
    q.waitRequest = false
    this.idleUntil = -1
    // 5. The FIFO head if it expired (looked at once per slice), else next_rq in sector order.
    const rq = this.expiredFifoHead(q, now) ?? q.nextRq!
    this.dispatchInsert(q, rq)
    // 6. With others waiting, an async queue ends its slice after its request budget, and an
    //    idle-class queue after every request.
    if (this.busy > 1 && ((!q.sync && q.sliceDispatch >= this.asyncBudget(q)) || q.ioClass === IOPRIO_IDLE))
      this.sliceExpired(q, false, now)
    return rq
  }

  /** cfq_select_queue: the queue to dispatch from, or null to dispatch nothing now. */
  private selectQueue(now: SimTime): CfqQueue | null {
    const q = this.active
    if (q !== null) {
      if (!this.sliceUsed(q, now)) {
        if (q.queued > 0) return q
        if (this.idleUntil > now || (q.dispatched > 0 && q.idleWindow)) return null
      }
      this.sliceExpired(q, false, now)
    }
    return this.setActive(this.nextQueue(now))
  }

  /** cfq_get_next_queue: the leftmost queue; the idle class only after the grace period. */
  private nextQueue(now: SimTime): CfqQueue | null {
    const q = this.tree.first
    if (q !== null && q.ioClass === IOPRIO_IDLE && now < this.lastEndRequest + IDLE_GRACE) {
      this.graceUntil = this.lastEndRequest + IDLE_GRACE
      return null
    }
    return q
  }

  private setActive(q: CfqQueue | null): CfqQueue | null {
    if (q !== null) {
      q.sliceEnd = 0
      q.sliceNew = true
      q.sliceDispatch = 0
      q.fifoChecked = false
    }
    this.active = q
    return q
  }

  /** Nothing to dispatch: idle deliberately until a timer, or wait for a completion. */
  private waiting(now: SimTime): Idle | undefined {
    if (this.idleUntil > now) this.idle.until = this.idleUntil
    else if (this.graceUntil > now) this.idle.until = this.graceUntil
    else return undefined
    return this.idle
  }

  /** cfq_check_fifo: once per slice, the oldest request if it waited past its expiry. */
  private expiredFifoHead(q: CfqQueue, now: SimTime): Request | null {
    if (q.fifoChecked) return null
    q.fifoChecked = true
    const h = q.fifoHead
    return h !== null && now >= h.fifoTime ? h : null
  }

  /** cfq_dispatch_insert + cfq_activate_request: the request leaves the queue for the device. */
  private dispatchInsert(q: CfqQueue, rq: Request): void {
    q.fifoRemove(rq)
    this.unlinkSorted(q, rq)
    q.dispatched++
    q.sliceDispatch++
    if (q.sync) this.syncFlight++
    if (this.activeCic === null) this.activeCic = q.cic ?? this.contexts.get(rq.ctx.pid) ?? null
    this.lastPosition = rq.end
    if (this.ctx.inFlight() + 1 > HW_TAG_DEPTH) this.hwTag = true
  }

  // --- completion, idling, slices ---

  completed(rq: Request, now: SimTime): void {
    this.idleTimerDue(now)
    const q = rq.sched as CfqQueue
    q.dispatched--
    if (q.sync) this.syncFlight--
    if (q.ioClass !== IOPRIO_IDLE) this.lastEndRequest = now
    if (rq.sync && q.cic !== null) q.cic.lastEndRequest = now
    if (q !== this.active) return
    if (q.sliceNew) {
      q.sliceEnd = now + this.sliceLength(q.sync, q.prio) // the slice starts at its first completion
      q.sliceNew = false
    }
    if (this.sliceUsed(q, now)) this.sliceExpired(q, true, now)
    else if (rq.sync && q.queued === 0) this.armIdle(q, now)
  }

  /** cfq_arm_slice_timer: wait slice_idle for the process's next request (2 ms if it seeks). */
  private armIdle(q: CfqQueue, now: SimTime): void {
    if (this.cfg.sliceIdle === 0 || !q.idleWindow) return
    const cic = this.activeCic
    if (cic === null || cic.ctx.exited) return
    q.waitRequest = true
    const seeky = cic.seekValid && cic.seeky
    this.idleUntil = now + (seeky ? Math.min(this.cfg.sliceIdle, MIN_TT) : this.cfg.sliceIdle)
  }

  /** cfq_idle_slice_timer, run at its expiry `t`: give up on the active queue if others wait. */
  private idleTimerDue(now: SimTime): void {
    if (this.idleUntil < 0 || now < this.idleUntil) return
    const t = this.idleUntil
    this.idleUntil = -1
    const q = this.active
    if (q === null) return
    if (!this.sliceUsed(q, t) && (this.busy === 0 || q.queued > 0)) return
    this.sliceExpired(q, false, t)
  }

  /** __cfq_slice_expired: the queue stops being served and goes back on the tree if busy. */
  private sliceExpired(q: CfqQueue, timedOut: boolean, now: SimTime): void {
    if (q.waitRequest) this.idleUntil = -1
    q.waitRequest = false
    if (timedOut && !q.sliceNew) q.sliceResid = q.sliceEnd - now
    if (q.onRr) this.treeAdd(q, false, now)
    if (this.active === q) this.active = null
    this.activeCic = null
  }

  private sliceUsed(q: CfqQueue, now: SimTime): boolean {
    return !q.sliceNew && now >= q.sliceEnd
  }

  /** cfq_prio_slice: base + base/5 per level above 4 (sync BE/4: 100 ms, BE/0: 180 ms, BE/7: 40 ms). */
  private sliceLength(sync: boolean, prio: number): SimTime {
    const base = this.cfg.slice[sync ? 1 : 0]
    return base + Math.floor(base / SLICE_SCALE) * (4 - prio)
  }

  /** cfq_prio_to_maxrq: async requests per slice, 2·slice_async_rq·(8 − prio). */
  private asyncBudget(q: CfqQueue): number {
    return 2 * this.cfg.sliceAsyncRq * (8 - q.prio)
  }

  // --- the service tree ---

  private addToTree(q: CfqQueue, now: SimTime): void {
    this.busy++
    this.treeAdd(q, false, now)
  }

  /**
   * cfq_service_tree_add: key = now + (busy − 1)·(slice(sync, 0) − slice(q)) + what was left of its
   * last slice, so a queue with a shorter slice comes round later; a preempting queue goes first.
   */
  private treeAdd(q: CfqQueue, front: boolean, now: SimTime): void {
    let key = -Infinity // the kernel's 0, below every jiffies-based key
    if (!front) {
      key = now + (this.busy - 1) * (this.sliceLength(true, 0) - this.sliceLength(q.sync, q.prio))
      key += q.sliceResid
      q.sliceResid = 0
    }
    if (q.onRr) {
      if (key === q.rbKey) return
      this.tree.remove(q)
    }
    this.tree.insert(q, key)
    q.onRr = true
  }

  /** cfq_del_rq_rb: the request leaves the sorted index; an emptied queue leaves the tree. */
  private unlinkSorted(q: CfqQueue, rq: Request): void {
    q.removeSorted(rq, this.chooser, this.lastPosition)
    this.queuedTotal--
    if (q.queued === 0 && q.onRr) {
      q.onRr = false
      this.busy--
      this.tree.remove(q)
    }
  }

  // --- merging ---

  /** cfq_allow_merge: only into a request of the queue the bio would join, never sync into async. */
  allowMerge(rq: Request, bio: Bio): boolean {
    if (bio.sync && !rq.sync) return false
    const q = bio.sync ? this.contexts.get(bio.ctx.pid)?.syncQueue : this.asyncQueues[asyncSlot(bio.ctx)]
    return q === rq.sched
  }

  merged(rq: Request, front: boolean, _now: SimTime, oldSector: number): void {
    if (front) (rq.sched as CfqQueue).reposition(rq, oldSector, this.chooser, this.lastPosition)
  }

  /** `next` was absorbed into `rq` (same queue): `rq` takes the older FIFO place. */
  mergedRequests(rq: Request, next: Request): void {
    const q = next.sched as CfqQueue
    if (rq.sched === q && next.fifoTime <= rq.fifoTime) q.fifoReplace(next, rq)
    else q.fifoRemove(next)
    this.unlinkSorted(q, next)
  }

  /** cfq_exit_single_io_context: forget the process; stop serving (and idling for) its queue. */
  contextExited(pid: number, now: SimTime): void {
    this.idleTimerDue(now)
    const cic = this.contexts.get(pid)
    if (cic === undefined) return
    this.contexts.delete(pid)
    if (cic.syncQueue !== null && cic.syncQueue === this.active) {
      this.sliceExpired(cic.syncQueue, false, now)
      if (this.queuedTotal > 0) this.ctx.kick()
    }
  }
}
