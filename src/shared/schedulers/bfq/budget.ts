import { MS, SECOND } from '../../sim/time'
import type { SimTime } from '../../sim/time'
import type { Request } from '../../block/types'
import { BUDGET_EXHAUSTED, BUDGET_TIMEOUT, NO_MORE_REQUESTS, TOO_IDLE } from './data'
import type { BfqData, Reason } from './data'
import { asymmetricScenario } from './idling'
import type { BfqQueue } from './queue'
import { K } from './tunables'

/**
 * Budgets, in sectors: how much a queue may dispatch per service slot, and how the next budget
 * follows from how the last slot ended (__bfq_bfqq_recalc_budget).
 */

/** bfq_max_budget: the default until enough budgets were assigned, then the estimated one. */
export function maxBudget(bfqd: BfqData): number {
  return bfqd.budgetsAssigned < K.statsMinBudgets ? K.defaultMaxBudget : bfqd.maxBudget
}

/** bfq_min_budget: 1/32 of the max budget. */
export function minBudget(bfqd: BfqData): number {
  return Math.floor(maxBudget(bfqd) / 32)
}

/**
 * bfq_serv_to_charge: a request costs its sectors; an async one three times that, unless its
 * queue is raised or the scenario asymmetric.
 */
export function servToCharge(bfqd: BfqData, rq: Request, q: BfqQueue): number {
  if (q.sync || q.wrCoeff > 1 || asymmetricScenario(bfqd, q)) return rq.nsect
  return rq.nsect * K.asyncChargeFactor
}

/**
 * __bfq_bfqq_recalc_budget: the next max budget of a sync non-raised queue by expiry reason —
 * idle with nothing in flight: shrink; timed out: double; exhausted with backlog: quadruple;
 * emptied: what it used. Raised queues get 2 × min budget, async queues the maximum.
 */
export function recalcBudget(bfqd: BfqData, q: BfqQueue, reason: Reason): void {
  const min = minBudget(bfqd)
  let budget = q.wrCoeff === 1 ? q.maxBudget : 2 * min
  if (q.sync && q.wrCoeff === 1) {
    if (reason === TOO_IDLE) {
      if (q.dispatched > 0) budget = Math.min(budget * 2, bfqd.maxBudget)
      else budget = budget > 5 * min ? budget - 4 * min : min
    } else if (reason === BUDGET_TIMEOUT) budget = Math.min(budget * 2, bfqd.maxBudget)
    else if (reason === BUDGET_EXHAUSTED) budget = Math.min(budget * 4, bfqd.maxBudget)
    else if (reason === NO_MORE_REQUESTS) budget = Math.max(q.service, min)
    else return // preempted: keep everything
  } else if (!q.sync) {
    budget = bfqd.maxBudget
  }
  q.maxBudget = budget
  if (bfqd.budgetsAssigned >= K.statsMinBudgets && bfqd.userMaxBudget === 0)
    q.maxBudget = Math.min(q.maxBudget, bfqd.maxBudget)
  const next = q.nextRq
  if (next !== null) q.budget = Math.max(q.maxBudget, servToCharge(bfqd, next, q))
}

/**
 * bfq_bfqq_is_slow: did the queue use its slot slowly? Over slots longer than 20 ms: less than
 * half the max budget served; shorter ones: whether it is seeky. Sets bfqd.slowDeltaMs, the slot
 * length to charge (up to the start of idling when `compensate`).
 */
export function isSlow(bfqd: BfqData, q: BfqQueue, compensate: boolean, now: SimTime): boolean {
  if (!q.sync) return false
  let slow = q.seeky()
  const deltaUs = Math.floor(((compensate ? bfqd.lastIdlingStart : now) - bfqd.lastBudgetStart) / 1000)
  if (deltaUs < 1000) {
    bfqd.slowDeltaMs = bfqd.rotational ? Math.floor(bfqd.sliceIdle / MS) : K.minTt / MS
    return slow
  }
  bfqd.slowDeltaMs = Math.floor(deltaUs / 1000)
  if (deltaUs > 20_000) slow = q.service < bfqd.maxBudget / 2
  return slow
}

/** bfq_calc_max_budget: sectors transferable in one budget timeout at the estimated peak rate. */
export function calcMaxBudget(bfqd: BfqData): number {
  return Math.floor((bfqd.peakRate * bfqd.timeout) / SECOND)
}
