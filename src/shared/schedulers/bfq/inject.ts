import type { Request } from '../../block/types'
import type { SimTime } from '../../sim/time'
import { jiffiesToNs } from '../../sim/time'
import { servToCharge } from './budget'
import type { BfqData } from './data'
import { idlingBoostsThroughput } from './idling'
import type { BfqQueue } from './queue'
import { K } from './tunables'

/**
 * I/O injection (block/bfq-iosched.c, Linux 5.2+; as in 6.x): while the device is kept idle for
 * the in-service sync queue, requests of other queues may be dispatched into the "service hole",
 * up to the queue's inject limit of requests in flight. The limit is learned from the total
 * service time (arrival to completion) of the queue's "first requests" — those arriving while it
 * is in service and empty: with nothing in flight it gives a baseline; with injected requests in
 * flight, a time within 1.5 × the baseline raises the limit, a longer one lowers it.
 */

/** bfq_reset_inject_limit: forget the baseline; start at 0 for a quick thinker, 1 for a slow one. */
export function resetInjectLimit(bfqd: BfqData, q: BfqQueue, now: SimTime): void {
  q.lastServTime = 0
  bfqd.waitedRq = null
  q.injectLimit = q.hasShortTtime ? 0 : 1
  q.decreaseTime = now
}

/**
 * bfq_add_request, a sync request that is its process's only one: reset the limit once a second
 * (so it can drop when the workload changes), and, for the in-service queue, start timing this
 * request if the moment is right — nothing in flight (a baseline), or injected requests in flight
 * with a baseline known (an evaluation of the limit) — and the last decrease is 10 ms old.
 */
export function noteFirstRequest(bfqd: BfqData, q: BfqQueue, now: SimTime): void {
  if (now >= q.decreaseTime + K.injectResetInterval) resetInjectLimit(bfqd, q, now)
  if (q !== bfqd.inService || now < q.decreaseTime + K.injectSampleDelay) return
  const inDriver = bfqd.rqInDriver
  if (inDriver !== 0 && !(q.lastServTime > 0 && bfqd.rqsInjected)) return
  bfqd.lastEmptyOccupied = now
  bfqd.waitDispatch = true
  if (inDriver === 0) bfqd.rqsInjected = false
}

/** bfq_dispatch_rq_from_bfqq: the timed request is the next one the in-service queue dispatches. */
export function noteDispatch(bfqd: BfqData, q: BfqQueue, rq: Request): void {
  if (q !== bfqd.inService || !bfqd.waitDispatch) return
  bfqd.waitDispatch = false
  bfqd.waitedRq = rq
}

/** bfq_bfqq_expire: the queue leaves service; nothing is being timed any longer. */
export function stopTiming(bfqd: BfqData): void {
  bfqd.rqsInjected = false
  bfqd.waitDispatch = false
  bfqd.waitedRq = null
}

/**
 * bfq_update_inject_limit, when the timed request completes (before it leaves the driver count):
 * with injection during its service, ≥ 1.5 × baseline lowers the limit, less raises it (up to the
 * most requests the device was seen holding); with nothing else in flight, the time becomes (or
 * lowers) the baseline — and a first baseline starts injection with a limit of at least 1.
 */
export function updateInjectLimit(bfqd: BfqData, q: BfqQueue, now: SimTime): void {
  const tot = now - bfqd.lastEmptyOccupied
  const old = q.injectLimit
  if (q.lastServTime > 0 && bfqd.rqsInjected) {
    const threshold = Math.floor((q.lastServTime * 3) / 2)
    if (tot >= threshold && old > 0) {
      q.injectLimit--
      q.decreaseTime = now
    } else if (tot < threshold && old <= bfqd.maxRqInDriver) q.injectLimit++
  }
  // rqInDriver === 1: the timed request is the only one in flight (it is counted until after this)
  if ((q.lastServTime === 0 && bfqd.rqInDriver === 1) || tot < q.lastServTime) {
    if (q.lastServTime === 0) q.injectLimit = Math.max(1, old)
    q.lastServTime = tot
  } else if (!bfqd.rqsInjected && bfqd.rqInDriver === 1) {
    q.lastServTime = tot
  }
  bfqd.waitedRq = null
  bfqd.rqsInjected = false
}

/**
 * bfq_select_queue, the in-service queue `q` is empty but kept (idling, or idling may follow its
 * in-flight requests): whose request to inject, in this order —
 *  1. the process's own async I/O (it cannot hurt the process);
 *  2. its waker queue's (the I/O it is waiting for: serving it brings q's next request forward);
 *  3. a queue it wakes (that one soon runs dry while q is not served);
 *  4. unless idling is for throughput, or q is a raised quick thinker alone in being raised:
 *     any queue the inject limit allows (bfq_choose_bfqq_for_injection).
 * Each candidate must have a next request that fits its budget. Returns null for none.
 */
export function chooseInjection(bfqd: BfqData, q: BfqQueue, now: SimTime): BfqQueue | null {
  const async = q.bic?.async ?? null
  if (
    async !== null &&
    async.busy &&
    async.nextRq !== null &&
    async.nextRq.ctx.pid === q.pid &&
    fits(bfqd, async)
  )
    return async
  const waker = q.wakerQueue
  if (waker !== null && waker.busy && waker.nextRq !== null && fits(bfqd, waker)) return waker
  const blocked = q.woken.length > 0 ? q.woken[0] : null
  if (blocked !== null && blocked.busy && blocked.nextRq !== null && fits(bfqd, blocked)) return blocked
  if (!idlingBoostsThroughput(bfqd, q) && (q.wrCoeff === 1 || bfqd.wrBusyQueues > 1 || !q.hasShortTtime))
    return chooseForInjection(bfqd, q, now)
  return null
}

const fits = (bfqd: BfqData, q: BfqQueue): boolean => servToCharge(bfqd, q.nextRq!, q) <= q.budgetLeft()

/**
 * bfq_choose_bfqq_for_injection: if fewer requests are in flight than the inject limit, the first
 * queue of the active list (most recently activated first) with a request that fits its budget —
 * any queue when the in-service one is not raised or thinks long, else only raised ones. On flash,
 * a large request (≥ 64 sectors) is injected only into an empty device: large requests keep the
 * drive long and it prefers them.
 */
function chooseForInjection(bfqd: BfqData, inServ: BfqQueue, now: SimTime): BfqQueue | null {
  let limit = inServ.injectLimit
  const alwaysInject = inServ.wrCoeff === 1 || !inServ.hasShortTtime
  // No baseline yet and plugging for long: inject one request anyway. The kernel adds slice_idle
  // in ns to a time in jiffies here, so "long" is slice_idle-in-ns jiffies (hours): kept as is.
  if (
    limit === 0 &&
    inServ.lastServTime === 0 &&
    inServ.waitRequest &&
    now >= bfqd.lastIdlingStart + jiffiesToNs(bfqd.sliceIdle, bfqd.ctx.hz)
  )
    limit = 1
  if (bfqd.rqInDriver >= limit) return null
  for (let c = bfqd.activeHead; c !== null; c = c.actNext) {
    const next = c.nextRq
    if (next === null || !(alwaysInject || c.wrCoeff > 1) || !fits(bfqd, c)) continue
    if (!bfqd.rotational && next.nsect >= K.sectThrNonrot && bfqd.rqInDriver >= 1) continue
    bfqd.rqsInjected = true
    return c
  }
  return null
}
