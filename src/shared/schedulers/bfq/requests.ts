import type { Request } from '../../block/types'
import type { SimTime } from '../../sim/time'
import { handleIdleBusySwitch } from './activation'
import { servToCharge } from './budget'
import { BUDGET_TIMEOUT } from './data'
import type { BfqData } from './data'
import { updateHasShortTtime, updateIoIntensity, updateThinkTime } from './history'
import { idlingBoostsThroughput } from './idling'
import { noteFirstRequest } from './inject'
import { rqSeeky } from './peak-rate'
import { IN_ACTIVE } from './queue'
import type { BfqQueue } from './queue'
import { budgetTimedOut, expire, stopIdling } from './service'
import { K } from './tunables'
import { checkWaker } from './waker'
import { endWr, maybeRaiseAsync, switchBackToInteractive, wrDuration } from './weight-raising'
import { delBusy, requeue } from './wf2q'

/**
 * Requests inside a queue: arrival (bfq_insert_request → bfq_add_request), the choice of the
 * queue's next request (bfq_choose_req, lifted from AS/CFQ: nearest ahead of the head, short
 * backward seeks at a penalty), and removal (bfq_remove_request).
 */

/**
 * __bfq_insert_request: per-queue statistics first (think time, seekiness), then the request
 * joins the queue (which may become busy), its FIFO deadline is set, and an idling in-service
 * queue is told.
 */
export function insertRequest(
  bfqd: BfqData,
  q: BfqQueue,
  rq: Request,
  processRequests: number,
  now: SimTime,
): void {
  updateThinkTime(bfqd, q, now)
  updateHasShortTtime(bfqd, q, now)
  q.seekHistory = (q.seekHistory << 1) | (rqSeeky(bfqd, q.lastRequestPos, rq) ? 1 : 0)
  if (q.wrCoeff > 1 && q.wrCurMaxTime === K.wrRtMaxTime && q.totallySeeky()) endSoftRtOfSeeky(bfqd, q, now)
  addRequest(bfqd, q, rq, processRequests, now)
  rq.fifoTime = now + bfqd.fifoExpire[q.sync ? 1 : 0]
  q.fifo.push(rq)
  requestEnqueued(bfqd, q, rq, now)
}

/**
 * bfq_update_io_seektime: a totally seeky queue is no soft real-time application, so its soft
 * real-time raising stops — back to the interactive raising it had, if that period is still
 * running (commit "block, bfq: fix switch back from soft-rt weight-raising", 2019; so in the 6.x
 * block/bfq-iosched.c read, blob 0f9362b2), ended otherwise. (Before that commit it ended outright: a seeky interactive reader then lost its
 * raising after 32 requests.)
 */
function endSoftRtOfSeeky(bfqd: BfqData, q: BfqQueue, now: SimTime): void {
  if (now > q.wrStartAtSwitchToSrt + wrDuration(bfqd)) endWr(bfqd, q, now)
  else switchBackToInteractive(bfqd, q)
}

/**
 * bfq_add_request: for a sync request that is its process's only one, look for a waker and time
 * it for the inject limit; update the queue's I/O intensity; then index the request, update the
 * queue's next request, maybe make it busy.
 */
function addRequest(bfqd: BfqData, q: BfqQueue, rq: Request, processRequests: number, now: SimTime): void {
  const oldWrCoeff = q.wrCoeff
  if (q.sync && processRequests <= 1) {
    checkWaker(bfqd, q, now)
    noteFirstRequest(bfqd, q, now)
  }
  if (q.sync) updateIoIntensity(q, now)
  bfqd.queued++
  q.sorted.insert(rq)
  const prev = q.nextRq
  q.nextRq = chooseRequest(bfqd, q.nextRq, rq, bfqd.lastPosition)
  let interactive = false
  if (!q.busy) {
    interactive = handleIdleBusySwitch(bfqd, q, oldWrCoeff, now)
  } else {
    if (bfqd.lowLatency && !rq.sync) maybeRaiseAsync(bfqd, q, now)
    if (prev !== q.nextRq) updatedNextRequest(bfqd, q)
  }
  if (bfqd.lowLatency && (oldWrCoeff === 1 || q.wrCoeff === 1 || interactive)) q.lastWrStartFinish = now
}

/**
 * bfq_rq_enqueued: a request for the queue we idle for. A lone small one while idling pays for
 * throughput: keep waiting (dispatch will still take it); otherwise stop idling, and expire the
 * queue now if its slot timed out.
 */
function requestEnqueued(bfqd: BfqData, q: BfqQueue, rq: Request, now: SimTime): void {
  q.lastRequestPos = rq.sector + rq.nsect
  if (q !== bfqd.inService || !q.waitRequest) return
  const smallReq = q.queued === 1 && rq.nsect < 32
  const timedOut = budgetTimedOut(q, now)
  if (smallReq && idlingBoostsThroughput(bfqd, q) && !timedOut) return
  stopIdling(bfqd, q)
  if (timedOut) expire(bfqd, q, false, BUDGET_TIMEOUT, now)
}

/**
 * bfq_updated_next_req: a waiting queue's first request changed; make sure its budget covers it
 * (and reposition it in its tree). The in-service queue's budget never changes mid-slot.
 */
export function updatedNextRequest(bfqd: BfqData, q: BfqQueue): void {
  const next = q.nextRq
  if (next === null || q === bfqd.inService) return
  const budget = Math.max(q.maxBudget, servToCharge(bfqd, next, q), q.service)
  if (q.budget === budget) return
  q.budget = budget
  if (q.tree === IN_ACTIVE) requeue(bfqd, q)
}

/**
 * bfq_remove_request: the request leaves the queue (dispatched, or merged into another — then
 * its FIFO place was already handed over). A queue left empty while not in service leaves the
 * schedule.
 */
export function removeRequest(bfqd: BfqData, q: BfqQueue, rq: Request, now: SimTime, inFifo: boolean): void {
  // its place in the sorted index: one search for both the next request and the removal
  const place = q.sorted.indexOf(rq)
  if (q.nextRq === rq) {
    q.nextRq = findNextRequest(bfqd, q, rq, place, now)
    updatedNextRequest(bfqd, q)
  }
  if (inFifo) q.fifo.remove(rq)
  if (place >= 0) q.sorted.removeAt(place)
  else q.sorted.remove(rq)
  bfqd.queued--
  if (q.sorted.size > 0) return
  q.nextRq = null
  if (q.busy && q !== bfqd.inService) {
    delBusy(bfqd, q)
    q.budget = q.service = 0
  }
}

/**
 * bfq_find_next_rq: after `last` leaves — the FIFO head if it expired (looked at once per service
 * slot), else the better of the sector neighbours of `last` at place `idx` (wrapping to the lowest
 * sector).
 */
function findNextRequest(
  bfqd: BfqData,
  q: BfqQueue,
  last: Request,
  idx: number,
  now: SimTime,
): Request | null {
  const expired = checkFifo(q, last, now)
  if (expired !== null) return expired
  const prev = idx > 0 ? q.sorted.at(idx - 1) : null
  let next: Request | null = idx + 1 < q.sorted.size ? q.sorted.at(idx + 1) : null
  if (next === null && q.sorted.size > 0 && q.sorted.at(0) !== last) next = q.sorted.at(0)
  return chooseRequest(bfqd, next, prev, last.sector)
}

/** bfq_check_fifo: once per slot, the FIFO head if its deadline passed. */
function checkFifo(q: BfqQueue, last: Request, now: SimTime): Request | null {
  if (q.fifoExpire) return null
  q.fifoExpire = true
  const head = q.fifo.head
  if (head === null || head === last || now < head.fifoTime) return null
  return head
}

/**
 * bfq_choose_req: of two requests, the one closer ahead of the head position `last`; a request
 * behind it within back_seek_max counts back_seek_penalty times its distance; farther behind
 * "wraps" and loses to any request that does not. Sync beats async.
 */
export function chooseRequest(
  bfqd: BfqData,
  r1: Request | null,
  r2: Request | null,
  last: number,
): Request | null {
  if (r1 === null || r1 === r2) return r2
  if (r2 === null) return r1
  if (r1.sync !== r2.sync) return r1.sync ? r1 : r2
  const s1 = r1.sector
  const s2 = r2.sector
  const d1 = distance(bfqd, s1, last)
  const d2 = distance(bfqd, s2, last)
  if (d1 >= 0 && d2 >= 0) {
    if (d1 !== d2) return d1 < d2 ? r1 : r2
    return s1 >= s2 ? r1 : r2
  }
  if (d1 >= 0) return r1
  if (d2 >= 0) return r2
  return s1 <= s2 ? r1 : r2 // both wrap: the one further behind, one backward seek
}

/** Distance from the head, backward seeks weighted; −1 when too far behind (wraps). */
function distance(bfqd: BfqData, s: number, last: number): number {
  if (s >= last) return s - last
  if (s + bfqd.backMax >= last) return (last - s) * bfqd.backPenalty
  return -1
}
