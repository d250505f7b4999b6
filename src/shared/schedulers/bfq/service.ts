import type { SimTime } from '../../sim/time'
import { isSlow, recalcBudget, servToCharge } from './budget'
import { BUDGET_EXHAUSTED, BUDGET_TIMEOUT, NO_MORE_REQUESTS, PREEMPTED, TOO_IDLE } from './data'
import type { BfqData, Reason } from './data'
import { betterToIdle, idlingNeededForGuarantees, mustIdle } from './idling'
import { chooseInjection, stopTiming } from './inject'
import type { BfqQueue } from './queue'
import { K } from './tunables'
import { shiftSoftRtPeriod, softrtNextStart } from './weight-raising'
import { chargeTime, delBusy, requeue, takeNextQueue } from './wf2q'

/**
 * The in-service queue: choosing it, keeping it, expiring it (bfq_select_queue,
 * __bfq_set_in_service_queue, bfq_bfqq_expire). One queue at a time owns the device until its
 * budget is used, it times out, it empties (and idling is not worth it), or it is preempted.
 */

/** bfq_bfqq_budget_timeout: the slot has lasted timeout_sync (×30 while raised). */
export const budgetTimedOut = (q: BfqQueue, now: SimTime): boolean => now >= q.budgetTimeout

/**
 * bfq_may_expire_for_budg_timeout: timed out, and not idling for it with much budget left (an
 * expiry then would misalign its timestamps).
 */
export function mayExpireForBudgetTimeout(q: BfqQueue, now: SimTime): boolean {
  return (!q.waitRequest || q.budgetLeft() >= Math.floor(q.budget / 3)) && budgetTimedOut(q, now)
}

/**
 * bfq_select_queue, narrated:
 *  1. The in-service queue timed out and is not worth idling for: expire it.
 *  2. It has a next request within its budget: keep it (stop idling if we were).
 *     Its next request does not fit the budget left: expire it, budget exhausted.
 *  3. It is empty but we are idling for it, or requests are in flight and idling may follow
 *     their completion: keep it, and dispatch from another queue only if injection picks one
 *     (inject.ts) — else nothing.
 *  4. Otherwise it has no more requests: expire it.
 * After an expiry, B-WF2Q+ picks the next queue and the checks start over.
 * Returns the queue to dispatch from — the in-service one, or one injected into its idle time —
 * or null when nothing is to be dispatched now.
 */
export function selectQueue(bfqd: BfqData, now: SimTime): BfqQueue | null {
  let q = bfqd.inService
  if (q !== null && mayExpireForBudgetTimeout(q, now) && !mustIdle(bfqd, q)) {
    expire(bfqd, q, false, BUDGET_TIMEOUT, now)
    q = null
  }
  for (;;) {
    if (q === null) q = setInService(bfqd, now)
    if (q === null) return null
    const next = q.nextRq
    if (next !== null) {
      if (servToCharge(bfqd, next, q) <= q.budgetLeft()) {
        if (q.waitRequest) stopIdling(bfqd, q)
        return q
      }
      expire(bfqd, q, false, BUDGET_EXHAUSTED, now)
    } else if (q.waitRequest || (q.dispatched !== 0 && betterToIdle(bfqd, q))) {
      return chooseInjection(bfqd, q, now)
    } else {
      expire(bfqd, q, false, NO_MORE_REQUESTS, now)
    }
    q = null
  }
}

/** bfq_get_next_queue + __bfq_set_in_service_queue. */
function setInService(bfqd: BfqData, now: SimTime): BfqQueue | null {
  const q = takeNextQueue(bfqd, now)
  if (q === null) return null
  q.fifoExpire = false
  bfqd.budgetsAssigned = Math.floor((bfqd.budgetsAssigned * 7 + 256) / 8)
  shiftSoftRtPeriod(q, now)
  setBudgetTimeout(bfqd, q, now)
  bfqd.inService = q
  return q
}

/** bfq_set_budget_timeout: timeout_sync, times the raising coefficient unless soft real-time. */
function setBudgetTimeout(bfqd: BfqData, q: BfqQueue, now: SimTime): void {
  const coeff = q.wrCurMaxTime === K.wrRtMaxTime ? 1 : Math.floor(q.weight / q.origWeight)
  bfqd.lastBudgetStart = now
  q.budgetTimeout = now + bfqd.timeout * coeff
}

/** bfq_arm_slice_timer: idle the device for the in-service queue. */
export function startIdling(bfqd: BfqData, q: BfqQueue, duration: SimTime, now: SimTime): void {
  q.waitRequest = true
  bfqd.lastIdlingStart = now
  bfqd.idleTimer.set(now + duration)
}

export function stopIdling(bfqd: BfqData, q: BfqQueue): void {
  q.waitRequest = false
  bfqd.idleTimer.clear()
}

/**
 * bfq_bfqq_expire: end the queue's service slot. A slow (seeky) or timed-out queue is charged
 * the time it held the device; the next budget follows the reason; the queue is requeued with
 * its new timestamps or leaves the schedule if empty.
 */
export function expire(bfqd: BfqData, q: BfqQueue, compensate: boolean, reason: Reason, now: SimTime): void {
  const slow = isSlow(bfqd, q, compensate, now)
  const slowTimeout = reason === BUDGET_TIMEOUT && q.budgetLeft() >= Math.floor(q.budget / 3)
  if (q.wrCoeff === 1 && (slow || slowTimeout)) chargeTime(bfqd, q, bfqd.slowDeltaMs)
  if (bfqd.lowLatency && q.wrCoeff === 1) q.lastWrStartFinish = now
  if (bfqd.lowLatency && q.queued === 0) noteIsochrony(bfqd, q, now)
  stopTiming(bfqd)
  recalcBudget(bfqd, q, reason)
  finishSlot(bfqd, q, reason, now)
  // An emptied queue that expired before using its budget may resume it if a request comes soon.
  if (!q.busy && reason !== BUDGET_TIMEOUT && reason !== BUDGET_EXHAUSTED) q.nonBlockingWaitRq = true
  else q.service = 0
}

/** Soft real-time detection: with nothing pending, when may the next batch come? */
function noteIsochrony(bfqd: BfqData, q: BfqQueue, now: SimTime): void {
  if (q.dispatched === 0 && q.wrCoeff !== K.wrCoeff) q.softRtNextStart = softrtNextStart(bfqd, q, now)
  else if (q.dispatched > 0) q.softrtUpdate = true
}

/**
 * __bfq_bfqq_expire: an empty queue leaves the schedule (unless preempted while it needs idling
 * for its guarantees); one with requests is requeued. Then nobody is in service.
 */
export function finishSlot(bfqd: BfqData, q: BfqQueue, reason: Reason, now: SimTime): void {
  if (q.queued === 0 && !(reason === PREEMPTED && idlingNeededForGuarantees(bfqd, q))) {
    if (q.dispatched === 0) q.budgetTimeout = now
    delBusy(bfqd, q)
  } else {
    requeue(bfqd, q)
  }
  stopIdling(bfqd, q)
  bfqd.inService = null
}

/** bfq_idle_slice_timer: the idle time ran out. Expire the queue unless a request came in time. */
export function idleTimerFired(bfqd: BfqData, now: SimTime): void {
  const q = bfqd.inService
  if (q === null) return
  q.waitRequest = false
  let reason: Reason
  if (budgetTimedOut(q, now)) reason = BUDGET_TIMEOUT
  else if (q.queued === 0) reason = TOO_IDLE
  else return
  expire(bfqd, q, true, reason, now)
}
