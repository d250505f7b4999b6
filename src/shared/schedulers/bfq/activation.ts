import type { SimTime } from '../../sim/time'
import { servToCharge } from './budget'
import { leaveBurst } from './burst'
import { PREEMPTED } from './data'
import { betterToIdle } from './idling'
import type { BfqData } from './data'
import type { BfqQueue } from './queue'
import { expire } from './service'
import { K, ioprioToWeight } from './tunables'
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
  // only a queue at the default weight (BE/4, 40) is raised: another weight was the user's choice
  const defaultWeight = ioprioToWeight(q.newLevel) === K.defaultWeight
  const softRt =
    !q.totallySeeky() &&
    !inBurst &&
    now > q.softRtNextStart &&
    q.dispatched === 0 &&
    K.wrMaxSoftrtRate > 0 &&
    defaultWeight
  const interactive = !inBurst && idleForLong && defaultWeight
  const wrOrDeservesWr =
    bfqd.lowLatency && (q.wrCoeff > 1 || (q.sync && !q.exited && (interactive || softRt)))
  const wantsToPreempt = updateBudgetForActivation(bfqd, q, arrivedInTime)
  if (!q.justCreated && idleForLong && now > q.budgetTimeout + K.burstForget) {
    leaveBurst(bfqd, q, false)
    q.inLargeBurst = false
  }
  q.justCreated = false
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

/**
 * Expire the in-service queue if the new one must recover a service hole (and is at least as
 * raised), or is in a higher class or has a higher weight, or (6.x) if plugging for the in-service
 * queue is no longer worth it now that this queue is busy too. (next_queue_may_preempt always
 * holds without cgroups: the in-service queue is never its own successor.)
 */
function maybePreempt(bfqd: BfqData, q: BfqQueue, wantsToPreempt: boolean, now: SimTime): void {
  const cur = bfqd.inService
  if (cur === null || cur === q) return
  if ((wantsToPreempt && q.wrCoeff >= cur.wrCoeff) || higherClassOrWeight(q, cur) || !betterToIdle(bfqd, cur))
    expire(bfqd, cur, false, PREEMPTED, now)
}

function higherClassOrWeight(q: BfqQueue, cur: BfqQueue): boolean {
  if (q.ioClass < cur.ioClass) return true
  return q.weight > cur.weight
}
