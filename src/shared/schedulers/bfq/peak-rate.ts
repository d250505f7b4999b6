import type { Request } from '../../block/types'
import { SECOND } from '../../sim/time'
import type { SimTime } from '../../sim/time'
import { calcMaxBudget } from './budget'
import type { BfqData } from './data'
import { K } from './tunables'

/**
 * Peak-rate estimation (bfq_update_peak_rate): the device's rate is read from the dispatch rate
 * over an observation interval (≥ 32 dispatches over ≥ 300 ms, closed after 1 s or a long pause),
 * stretched to the last completion — in the long run requests dispatched and completed must
 * converge. The estimate is low-pass filtered, trusting mostly-sequential, long intervals more,
 * and drives the automatic max budget and the duration of interactive weight raising.
 */

/** BFQ_RQ_SEEKY: far from `lastPos` (and, on flash, small). */
export function rqSeeky(bfqd: BfqData, lastPos: number, rq: Request): boolean {
  const dist = lastPos !== 0 ? Math.abs(rq.sector - lastPos) : 0
  return dist > K.seekThr && (bfqd.rotational || rq.nsect < K.sectThrNonrot)
}

/** Called on every dispatch, before the request counts as in the driver. */
export function updatePeakRate(bfqd: BfqData, rq: Request, now: SimTime): void {
  if (bfqd.peakRateSamples === 0) {
    resetRateComputation(bfqd, rq, now)
  } else if (now - bfqd.lastDispatch > K.rateIdleReset && bfqd.rqInDriver === 0) {
    // the device was idle for long: close the interval at the previous event
    updateRateReset(bfqd, rq, now)
  } else {
    sample(bfqd, rq, now)
    if (bfqd.deltaFromFirst >= K.rateRefInterval) updateRateReset(bfqd, rq, now)
  }
  bfqd.lastPosition = rq.sector + rq.nsect
  bfqd.lastDispatch = now
}

function sample(bfqd: BfqData, rq: Request, now: SimTime): void {
  bfqd.peakRateSamples++
  const busy = bfqd.rqInDriver > 0 || now - bfqd.lastCompletion < K.minTt
  if (busy && !rqSeeky(bfqd, bfqd.lastPosition, rq)) bfqd.sequentialSamples++
  bfqd.totSectorsDispatched += rq.nsect
  if (bfqd.peakRateSamples % 32 !== 0) bfqd.lastRqMaxSize = Math.max(rq.nsect, bfqd.lastRqMaxSize)
  else bfqd.lastRqMaxSize = rq.nsect
  bfqd.deltaFromFirst = now - bfqd.firstDispatch
}

/**
 * On a completion: a request that took long for its size (under ~1000 sectors/s) means the
 * interval is not a valid sample of the peak rate — close it.
 */
export function completionRateCheck(bfqd: BfqData, now: SimTime): void {
  const deltaUs = Math.floor((now - bfqd.lastCompletion) / 1000)
  if (deltaUs > K.minTt / 1000 && bfqd.lastRqMaxSize / deltaUs < 1 / 1024) updateRateReset(bfqd, null, now)
  bfqd.lastCompletion = now
}

/** bfq_update_rate_reset: fold the interval's rate into the estimate if it is valid; restart. */
function updateRateReset(bfqd: BfqData, rq: Request | null, now: SimTime): void {
  if (bfqd.peakRateSamples >= K.rateMinSamples && bfqd.deltaFromFirst >= K.rateMinInterval) {
    bfqd.deltaFromFirst = Math.max(bfqd.deltaFromFirst, bfqd.lastCompletion - bfqd.firstDispatch)
    const rate = (bfqd.totSectorsDispatched * SECOND) / bfqd.deltaFromFirst
    const mostlyRandom = bfqd.sequentialSamples < (3 * bfqd.peakRateSamples) / 4
    if (!(mostlyRandom && rate <= bfqd.peakRate) && rate <= K.rateMax) foldRate(bfqd, rate)
  }
  resetRateComputation(bfqd, rq, now)
}

/** Low-pass filter: weight 0–8 from how sequential and how long the interval was. */
function foldRate(bfqd: BfqData, rate: number): void {
  let weight = Math.floor((9 * bfqd.sequentialSamples) / bfqd.peakRateSamples)
  weight = Math.min(8, Math.floor((weight * bfqd.deltaFromFirst) / K.rateRefInterval))
  const divisor = 10 - weight
  bfqd.peakRate = Math.max(1, (bfqd.peakRate * (divisor - 1)) / divisor + rate / divisor)
  // update_thr_responsiveness_params
  if (bfqd.userMaxBudget === 0) bfqd.maxBudget = calcMaxBudget(bfqd)
}

function resetRateComputation(bfqd: BfqData, rq: Request | null, now: SimTime): void {
  if (rq === null) {
    bfqd.peakRateSamples = 0
    return
  }
  bfqd.lastDispatch = bfqd.firstDispatch = now
  bfqd.peakRateSamples = 1
  bfqd.sequentialSamples = 0
  bfqd.totSectorsDispatched = bfqd.lastRqMaxSize = rq.nsect
  bfqd.deltaFromFirst = 0
}
