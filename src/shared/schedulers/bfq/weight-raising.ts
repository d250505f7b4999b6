import type { SimTime } from '../../sim/time'
import { SECOND, jiffiesToNs } from '../../sim/time'
import { minBudget } from './budget'
import type { BfqData } from './data'
import type { BfqQueue } from './queue'
import { K } from './tunables'
import { applyWeight } from './wf2q'

/**
 * Weight raising (low_latency): a queue that becomes busy after a long idle period is deemed
 * interactive and its weight is multiplied by 30 for a while (shorter on faster devices, ended
 * early after 120 000 sectors of service); a queue whose I/O arrives isochronously at a low rate
 * is deemed soft real-time and raised ×3000 for 300 ms at a time.
 */

/** bfq_wr_duration: rate_dur_prod / peak_rate, clamped to 3–25 s. */
export function wrDuration(bfqd: BfqData): SimTime {
  const dur = Math.floor(bfqd.rateDurProd / bfqd.peakRate)
  return Math.min(K.wrDurationMax, Math.max(K.wrDurationMin, dur))
}

function setCoeff(bfqd: BfqData, q: BfqQueue, coeff: number): void {
  q.wrCoeff = coeff
  applyWeight(bfqd, q)
}

function startInteractive(bfqd: BfqData, q: BfqQueue): void {
  setCoeff(bfqd, q, K.wrCoeff)
  q.wrCurMaxTime = wrDuration(bfqd)
}

function startSoftRt(bfqd: BfqData, q: BfqQueue): void {
  setCoeff(bfqd, q, K.wrCoeff * K.softrtWeightFactor)
  q.wrCurMaxTime = K.wrRtMaxTime
}

/** bfq_bfqq_end_wr. */
export function endWr(bfqd: BfqData, q: BfqQueue, now: SimTime): void {
  if (q.busy && q.wrCoeff > 1) bfqd.wrBusyQueues--
  q.wrCurMaxTime = 0
  q.lastWrStartFinish = now
  setCoeff(bfqd, q, 1)
}

/**
 * bfq_update_bfqq_wr_on_rq_arrival: start raising a queue that deserves it (with a budget close
 * to its backlog: at most 2 × min budget), or refresh/stop the raising of a raised one.
 */
export function updateWrOnArrival(
  bfqd: BfqData,
  q: BfqQueue,
  oldWrCoeff: number,
  wrOrDeservesWr: boolean,
  interactive: boolean,
  inBurst: boolean,
  softRt: boolean,
  now: SimTime,
): void {
  if (oldWrCoeff === 1 && wrOrDeservesWr) {
    q.serviceFromWr = 0
    if (interactive) {
      startInteractive(bfqd, q)
    } else {
      q.wrStartAtSwitchToSrt = -Infinity
      startSoftRt(bfqd, q)
    }
    q.budget = Math.min(q.budget, 2 * minBudget(bfqd))
  } else if (oldWrCoeff > 1) {
    if (interactive) startInteractive(bfqd, q)
    else if (inBurst) setCoeff(bfqd, q, 1)
    else if (softRt) {
      if (q.wrCurMaxTime !== K.wrRtMaxTime) {
        q.wrStartAtSwitchToSrt = q.lastWrStartFinish
        startSoftRt(bfqd, q)
      }
      q.lastWrStartFinish = now
    }
  }
}

/**
 * bfq_update_wr_data, on each dispatch from the in-service queue: end raising that has lasted
 * its time (a soft real-time period falls back to a still-running interactive one), or an
 * interactive raising that already gave 120 000 sectors.
 */
export function updateWrData(bfqd: BfqData, q: BfqQueue, now: SimTime): void {
  if (q.wrCoeff === 1) return
  if (q.inLargeBurst) {
    endWr(bfqd, q, now)
  } else if (now > q.lastWrStartFinish + q.wrCurMaxTime) {
    const softRt = q.wrCurMaxTime === K.wrRtMaxTime
    if (!softRt || now > q.wrStartAtSwitchToSrt + wrDuration(bfqd)) endWr(bfqd, q, now)
    else switchBackToInteractive(bfqd, q)
  }
  if (q.wrCoeff > 1 && q.wrCurMaxTime !== K.wrRtMaxTime && q.serviceFromWr > K.maxServiceFromWr)
    endWr(bfqd, q, now)
}

/** switch_back_to_interactive_wr: the interactive raising resumes where the soft real-time one took over. */
export function switchBackToInteractive(bfqd: BfqData, q: BfqQueue): void {
  startInteractive(bfqd, q)
  q.lastWrStartFinish = q.wrStartAtSwitchToSrt
}

/**
 * bfq_add_request, busy queue: an async request arriving after a pause of 500 ms raises an
 * async queue as interactive.
 */
export function maybeRaiseAsync(bfqd: BfqData, q: BfqQueue, now: SimTime): void {
  if (q.wrCoeff !== 1 || now <= q.lastWrStartFinish + K.wrMinInterArrAsync) return
  startInteractive(bfqd, q)
  bfqd.wrBusyQueues++
}

/**
 * bfq_bfqq_softrt_next_start: the earliest time the next batch may arrive for the queue to
 * still look soft real-time (≤ 7000 sectors/s since it became busy, and not sooner than
 * slice_idle + 4 jiffies from now).
 */
export function softrtNextStart(bfqd: BfqData, q: BfqQueue, now: SimTime): SimTime {
  const byRate = q.lastIdleBklogged + Math.floor((q.serviceFromBacklogged * SECOND) / K.wrMaxSoftrtRate)
  const byIdle = now + bfqd.sliceIdle + jiffiesToNs(4, bfqd.ctx.hz)
  return Math.max(q.softRtNextStart, byRate, byIdle)
}

/**
 * __bfq_set_in_service_queue: a soft real-time queue's period is moved forward by the time it
 * waited for service, so a service delay does not end it.
 */
export function shiftSoftRtPeriod(q: BfqQueue, now: SimTime): void {
  if (
    q.lastWrStartFinish < now &&
    q.wrCoeff > 1 &&
    q.wrCurMaxTime === K.wrRtMaxTime &&
    q.budgetTimeout < now
  ) {
    if (q.budgetTimeout > q.lastWrStartFinish) q.lastWrStartFinish += now - q.budgetTimeout
    else q.lastWrStartFinish = now
  }
}
