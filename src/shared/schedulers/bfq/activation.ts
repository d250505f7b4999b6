import type { SimTime } from '../../sim/time'
import { servToCharge } from './budget'
import { leaveBurst } from './burst'
import { PREEMPTED } from './data'
import type { BfqData } from './data'
import type { BfqQueue } from './queue'
import { expire } from './service'
import { K } from './tunables'
import { updateWrOnArrival } from './weight-raising'
import { addBusy } from './wf2q'

/**
 * A queue switching from idle to busy (bfq_bfqq_handle_idle_busy_switch): decide whether it is
 * interactive or soft real-time (and raise it), give it a budget, put it on the schedule, and let
 * it preempt the in-service queue if it must.
 */
export function handleIdleBusySwitch(bfqd: BfqData, q: BfqQueue, oldWrCoeff: number, now: SimTime): boolean {
  const idleForLong = q.dispatched === 0 && now > q.budgetTimeout + K.wrMinIdleTime
  const arrivedInTime = now <= q.lastEndRequest + bfqd.sliceIdle * 3
  const inBurst = q.inLargeBurst
  const softRt =
    !q.totallySeeky() && !inBurst && now > q.softRtNextStart && q.dispatched === 0 && K.wrMaxSoftrtRate > 0
  const interactive = !inBurst && idleForLong
  const wrOrDeservesWr =
    bfqd.lowLatency && (q.wrCoeff > 1 || (q.sync && !q.exited && (interactive || softRt)))
  const wantsToPreempt = updateBudgetForActivation(bfqd, q, arrivedInTime)
  if (!q.justCreated && idleForLong && now > q.budgetTimeout + K.burstForget) {
    leaveBurst(bfqd, q, false)
    q.inLargeBurst = false
  }
  q.justCreated = false
  noteArrivalInTime(q, arrivedInTime)
  if (bfqd.lowLatency)
    updateWrOnArrival(bfqd, q, oldWrCoeff, wrOrDeservesWr, interactive, inBurst, softRt, now)
  q.lastIdleBklogged = now
  q.serviceFromBacklogged = 0
  q.softrtUpdate = false
  addBusy(bfqd, q)
  maybePreempt(bfqd, q, wantsToPreempt, now)
  return interactive
}

/**
 * bfq_bfqq_update_budg_for_activation: a queue that expired only because it briefly ran dry and
 * whose request arrived in time resumes the budget it had left (and may preempt, to recover the
 * hole); any other starts a fresh budget.
 */
function updateBudgetForActivation(bfqd: BfqData, q: BfqQueue, arrivedInTime: boolean): boolean {
  if (q.nonBlockingWaitRq && arrivedInTime && q.budgetLeft() > 0) {
    q.budget = Math.min(q.budgetLeft(), q.maxBudget)
    q.service = 0
    return true
  }
  q.service = 0
  q.budget = Math.max(q.maxBudget, servToCharge(bfqd, q.nextRq!, q))
  q.nonBlockingWaitRq = false
  return false
}

/** A queue not I/O-bound becomes so again after 120 requests that each arrived in time. */
function noteArrivalInTime(q: BfqQueue, arrivedInTime: boolean): void {
  if (q.ioBound) return
  if (!arrivedInTime) q.requestsWithinTimer = 0
  else if (++q.requestsWithinTimer >= K.requestsWithinTimer) q.ioBound = true
}

/**
 * Expire the in-service queue if the new one must recover a service hole (and is at least as
 * raised), or is in a higher class or has a higher weight. (next_queue_may_preempt always holds
 * without cgroups: the in-service queue is never its own successor.)
 */
function maybePreempt(bfqd: BfqData, q: BfqQueue, wantsToPreempt: boolean, now: SimTime): void {
  const cur = bfqd.inService
  if (cur === null || cur === q) return
  if ((wantsToPreempt && q.wrCoeff >= cur.wrCoeff) || higherClassOrWeight(q, cur))
    expire(bfqd, cur, false, PREEMPTED, now)
}

function higherClassOrWeight(q: BfqQueue, cur: BfqQueue): boolean {
  if (q.ioClass < cur.ioClass) return true
  return q.weight > cur.weight
}
