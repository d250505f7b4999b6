import type { Bio, Op, Request } from '../../block/types'
import { IOPRIO_NONE, READ } from '../../block/types'
import type { Handler } from '../../sim/engine'
import type { SimTime } from '../../sim/time'
import type { ParamValues } from '../../util/params'
import { PidTable } from '../../util/pid-table'
import type { Idle, IoScheduler, SchedulerContext } from '../scheduler'
import { maxBudget, servToCharge } from './budget'
import { handleBurst, leaveBurst } from './burst'
import { BfqData, BUDGET_EXHAUSTED, BUDGET_TIMEOUT, NO_MORE_REQUESTS } from './data'
import { idleTimeFor, mustIdle, updateHwTag } from './idling'
import { completionRateCheck, updatePeakRate } from './peak-rate'
import { BfqQueue, CLASS_BE, CLASS_IDLE } from './queue'
import type { Bic } from './queue'
import { chooseRequest, insertRequest, removeRequest, updatedNextRequest } from './requests'
import {
  expire,
  finishSlot,
  idleTimerFired,
  mayExpireForBudgetTimeout,
  selectQueue,
  startIdling,
} from './service'
import { K } from './tunables'
import { softrtNextStart, updateWrData } from './weight-raising'
import { delBusy, served, weightsRemove } from './wf2q'
import { noteDispatch, updateInjectLimit } from './inject'
import { forgetWakers } from './waker'
import { debugState } from './debug'
import type { BfqDebugState } from './debug'

/**
 * The BFQ ops table (iosched_bfq_mq.ops): insert, dispatch, completion, merges, tag depth
 * limits, process exit. The state is a BfqData; the decisions live in the files named for them.
 */
export class Bfq implements IoScheduler, Handler {
  readonly frontMerges = true
  private readonly d: BfqData
  private readonly bics = new PidTable<Bic>()
  /** Async queues per (class, level): RT 0–7, BE 8–15, IDLE 16 (bfqg->async_bfqq). */
  private readonly asyncQueues: (BfqQueue | null)[] = new Array<BfqQueue | null>(17).fill(null)

  constructor(t: ParamValues, ctx: SchedulerContext) {
    this.d = new BfqData(t, ctx, this)
  }

  insert(rq: Request, now: SimTime): void {
    const d = this.d
    const bic = this.bicOf(rq.ctx.pid)
    const q = this.queueFor(bic, rq, now)
    rq.sched = q
    bic.requests++
    if (q.justCreated && (d.burstSize > 0 || d.busyQueues === 0)) handleBurst(d, q, now)
    insertRequest(d, q, rq, bic.requests, now)
  }

  /**
   * bfq_dispatch_request: nothing if no queue is busy (or, under strict guarantees, while a
   * request is in the device); else the in-service queue's next request, B-WF2Q+ choosing a new
   * in-service queue when needed; or an Idle while the device is kept idle for the queue.
   */
  dispatch(now: SimTime): Request | Idle | undefined {
    const d = this.d
    if (d.busyQueues === 0) return undefined
    if (d.strictGuarantees && d.rqInDriver > 0) return undefined
    const q = selectQueue(d, now)
    if (q === null) return this.idleOrNothing()
    return this.dispatchFrom(q, now)
  }

  hasWork(): boolean {
    return this.d.queued > 0
  }

  /**
   * bfq_finish_requeue_request + bfq_completed_request: the inject limit if this was the timed
   * request, statistics, then idle for the in-service queue or expire it.
   */
  completed(rq: Request, now: SimTime): void {
    const d = this.d
    const q = rq.sched as BfqQueue
    if (rq === d.waitedRq) updateInjectLimit(d, q, now)
    updateHwTag(d)
    d.rqInDriver--
    q.dispatched--
    if (q.dispatched === 0 && !q.busy) {
      q.budgetTimeout = now
      weightsRemove(d, q)
    }
    q.lastEndRequest = now
    completionRateCheck(d, now)
    d.lastCompletedQueue = q
    this.releaseRequest(rq)
    if (q.softrtUpdate && q.dispatched === 0 && q.queued === 0 && q.wrCoeff !== K.wrCoeff)
      q.softRtNextStart = softrtNextStart(d, q, now)
    if (q === d.inService) this.completedInService(q, now)
  }

  /** A front merge moved the request's start: re-sort it, maybe it is the queue's next now. */
  merged(rq: Request, front: boolean, _now: SimTime, oldSector: number): void {
    if (!front) return
    const d = this.d
    const q = rq.sched as BfqQueue
    // its neighbour below before the move (the kernel's rb_prev, taken before repositioning)
    const i = q.sorted.lowerBound(oldSector, rq.id)
    const before = i > 0 && q.sorted.at(i) === rq ? q.sorted.at(i - 1) : null
    q.sorted.remove(rq, oldSector)
    q.sorted.insert(rq)
    if (before === null || rq.sector >= before.sector) return
    const prev = q.nextRq
    q.nextRq = chooseRequest(d, q.nextRq, rq, d.lastPosition)
    if (prev !== q.nextRq) updatedNextRequest(d, q)
  }

  /** bfq_requests_merged: `rq` takes `next`'s FIFO place if `next` was older; `next` leaves. */
  mergedRequests(rq: Request, next: Request, now: SimTime): void {
    const q = next.sched as BfqQueue
    if (next.fifoTime <= rq.fifoTime) q.fifo.replace(next, rq)
    else q.fifo.remove(next)
    if (q.nextRq === next) q.nextRq = rq
    removeRequest(this.d, q, next, now, false)
    this.releaseRequest(next)
  }

  /** bfq_allow_bio_merge: only into a request of the queue the bio would join; no sync into async. */
  allowMerge(rq: Request, bio: Bio): boolean {
    if (bio.sync && !rq.sync) return false
    const cls = classOf(bio.ctx.ioClass)
    const q = bio.sync
      ? (this.bics.get(bio.ctx.pid)?.sync ?? null)
      : this.asyncQueues[asyncIndex(cls, bio.ctx.ioClass, bio.ctx.ioLevel)]
    return q !== null && q === rq.sched
  }

  /**
   * bfq_limit_depth: sync reads may take every tag; async I/O at most 50 % and sync writes 75 %
   * of nr_requests — 3/16 and 6/16 while some queue is weight-raised.
   */
  limitDepth(op: Op, sync: boolean): number | undefined {
    if (op === READ) return undefined
    const nr = this.d.ctx.nrRequests
    const raised = this.d.wrBusyQueues > 0
    const sixteenths = sync ? (raised ? 6 : 12) : raised ? 3 : 8
    return Math.max(1, Math.floor((nr * sixteenths) / 16))
  }

  /** bfq_exit_icq: the process's queues lose their process; an in-service one is expired. */
  contextExited(pid: number, now: SimTime): void {
    const bic = this.bics.get(pid)
    if (bic === undefined) return
    this.bics.delete(pid)
    if (bic.sync !== null) {
      forgetWakers(bic.sync)
      if (this.d.lastCompletedQueue === bic.sync) this.d.lastCompletedQueue = null
      this.exitQueue(bic.sync, true, now)
    }
    if (bic.async !== null) this.exitQueue(bic.async, false, now)
  }

  /** The idle-slice timer. */
  onEvent(): void {
    const d = this.d
    d.idleTimer.fired()
    // A timer handler is not given the time; the engine's clock is the event's time.
    idleTimerFired(d, d.ctx.engine.now)
    d.ctx.kick()
  }

  /** A snapshot of queues, budgets and weights, for tests and the UI (allocates; not for the hot path). */
  debugState(): BfqDebugState {
    const all = new Set<BfqQueue>()
    for (const b of this.bics.values()) {
      if (b.sync) all.add(b.sync)
      if (b.async) all.add(b.async)
    }
    for (const q of this.asyncQueues) if (q) all.add(q)
    return debugState(this.d, [...all])
  }

  private completedInService(q: BfqQueue, now: SimTime): void {
    const d = this.d
    if (mustIdle(d, q)) {
      // keep the queue even if it timed out: idling starts when its last request completes
      if (q.dispatched === 0) startIdling(d, q, idleTimeFor(d, q), now)
      return
    }
    if (mayExpireForBudgetTimeout(q, now)) expire(d, q, false, BUDGET_TIMEOUT, now)
    // empty and not worth idling for (mustIdle was false), whether or not requests are in flight
    else if (q.queued === 0) expire(d, q, false, NO_MORE_REQUESTS, now)
  }

  /**
   * bfq_dispatch_rq_from_bfqq: charge, account, take the request out. For the in-service queue
   * (not one injected into its idle time) also weight raising and the idle class's yield.
   */
  private dispatchFrom(q: BfqQueue, now: SimTime): Request {
    const d = this.d
    const rq = q.nextRq!
    served(d, q, servToCharge(d, rq, q))
    noteDispatch(d, q, rq)
    q.dispatched++
    updatePeakRate(d, rq, now)
    removeRequest(d, q, rq, now, true)
    if (q === d.inService) {
      updateWrData(d, q, now)
      if (d.busyQueues > 1 && q.isIdleClass()) expire(d, q, false, BUDGET_EXHAUSTED, now)
    }
    d.rqInDriver++
    return rq
  }

  /** The request is freed (completed, or merged away): its process holds one request less. */
  private releaseRequest(rq: Request): void {
    const bic = this.bics.get(rq.ctx.pid)
    if (bic !== undefined) bic.requests--
  }

  private bicOf(pid: number): Bic {
    let bic = this.bics.get(pid)
    if (bic === undefined) {
      bic = { sync: null, async: null, requests: 0 }
      this.bics.set(pid, bic)
    }
    return bic
  }

  private idleOrNothing(): Idle | undefined {
    const d = this.d
    const q = d.inService
    if (q === null || !q.waitRequest || !d.idleTimer.pending) return undefined
    d.idle.until = d.idleTimer.when
    return d.idle
  }

  private exitQueue(q: BfqQueue, owned: boolean, now: SimTime): void {
    const d = this.d
    if (q === d.inService) {
      finishSlot(d, q, BUDGET_TIMEOUT, now)
      d.ctx.kick()
    }
    if (!owned) return
    q.exited = true
    leaveBurst(d, q, true)
    if (q.busy && q.queued === 0 && q !== d.inService) delBusy(d, q)
  }

  /** bfq_get_queue: the process's sync queue, or the async queue of its (class, level). */
  private queueFor(bic: Bic, rq: Request, now: SimTime): BfqQueue {
    const pid = rq.ctx.pid
    const cls = classOf(rq.ioClass)
    if (rq.sync) {
      const level = cls === CLASS_IDLE ? 7 : rq.ioLevel
      let q = bic.sync
      if (q === null) {
        q = bic.sync = this.newQueue(pid, true, cls, level, now)
        q.bic = bic
      }
      q.newClass = cls
      q.newLevel = level
      return q
    }
    const i = asyncIndex(cls, rq.ioClass, rq.ioLevel)
    const q =
      this.asyncQueues[i] ??
      (this.asyncQueues[i] = this.newQueue(pid, false, cls, cls === CLASS_IDLE ? 7 : i & 7, now))
    bic.async = q
    return q
  }

  private newQueue(pid: number, sync: boolean, cls: number, level: number, now: SimTime): BfqQueue {
    return new BfqQueue(pid, sync, cls, level, Math.floor((2 * maxBudget(this.d)) / 3), now)
  }
}

/** IOPRIO_CLASS_NONE is best effort. */
const classOf = (ioClass: number): number => (ioClass === IOPRIO_NONE ? CLASS_BE : ioClass)

/** bfq_async_queue_prio: RT/level, BE/level (NONE → BE/4, IOPRIO_NORM), one IDLE queue. */
function asyncIndex(cls: number, ioClass: number, level: number): number {
  if (cls === CLASS_IDLE) return 16
  return (cls - 1) * 8 + (ioClass === IOPRIO_NONE ? 4 : level)
}
