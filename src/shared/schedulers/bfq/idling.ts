import type { BfqData } from './data'
import type { BfqQueue } from './queue'
import { K } from './tunables'

/**
 * Device idling (I/O-dispatch plugging): whether to keep the device idle for an emptied sync
 * queue, and for how long (bfq_better_to_idle, bfq_arm_slice_timer).
 */

/**
 * bfq_asymmetric_scenario: queues must receive different shares — busy non-raised queues with
 * different weights (unless this one has the smallest), or busy queues in more than one class.
 */
export function asymmetricScenario(bfqd: BfqData, q: BfqQueue): boolean {
  const b = bfqd.busyPerClass
  if ((b[0] > 0 ? 1 : 0) + (b[1] > 0 ? 1 : 0) + (b[2] > 0 ? 1 : 0) > 1) return true
  if (bfqd.distinctWeights < 2) return false
  return !(q.weightCounted && q.countedWeight === smallestCountedWeight(bfqd))
}

function smallestCountedWeight(bfqd: BfqData): number {
  const c = bfqd.weightCounts
  for (let i = 1; i < c.length; i++) if (c[i] > 0) return i * 10
  return 0
}

/**
 * idling_needed_for_service_guarantees: without plugging, other queues' I/O would take this
 * queue's share — it is raised while others are not (or others have much in flight), or the
 * scenario is asymmetric, or (6.x) it is the only busy queue: then plugging costs nobody anything
 * and keeps a queue that turns up next from filling the device ahead of this one's next request.
 */
export function idlingNeededForGuarantees(bfqd: BfqData, q: BfqQueue): boolean {
  if (q.exited) return false
  const raised = q.wrCoeff > 1 && (bfqd.wrBusyQueues < bfqd.busyQueues || bfqd.rqInDriver >= q.dispatched + 4)
  return raised || asymmetricScenario(bfqd, q) || bfqd.busyQueues === 1
}

/**
 * idling_boosts_thr_without_issues: waiting for the next request pays — a rotational device
 * without command queueing, or a sequential, I/O-bound, quick-thinking queue on a rotational or
 * non-queueing device. Never while some queue is weight-raised. (On flash with command queueing
 * it never pays: the device's own parallelism does the job.)
 */
export function idlingBoostsThroughput(bfqd: BfqData, q: BfqQueue): boolean {
  if (q.exited || bfqd.wrBusyQueues > 0) return false
  const noQueueing = bfqd.hwTag === 0
  if (bfqd.rotational && noQueueing) return true
  return (bfqd.rotational || noQueueing) && q.ioBound && q.hasShortTtime && !q.seeky()
}

/** bfq_better_to_idle: for throughput, or for service guarantees. Never async or idle class. */
export function betterToIdle(bfqd: BfqData, q: BfqQueue): boolean {
  if (q.exited) return false
  if (bfqd.strictGuarantees) return true
  if (bfqd.sliceIdle === 0 || !q.sync || q.isIdleClass()) return false
  return idlingBoostsThroughput(bfqd, q) || idlingNeededForGuarantees(bfqd, q)
}

/** bfq_bfqq_must_idle: the queue is empty and idling for it is worth it. */
export function mustIdle(bfqd: BfqData, q: BfqQueue): boolean {
  return q.queued === 0 && betterToIdle(bfqd, q)
}

/**
 * bfq_arm_slice_timer's duration: slice_idle; a seeky non-raised queue in a symmetric scenario
 * only BFQ_MIN_TT (2 ms); a raised queue at least 20 ms.
 */
export function idleTimeFor(bfqd: BfqData, q: BfqQueue): number {
  const sl = bfqd.sliceIdle
  if (q.seeky() && q.wrCoeff === 1 && !asymmetricScenario(bfqd, q)) return Math.min(sl, K.minTt)
  if (q.wrCoeff > 1) return Math.max(sl, K.wrMinIdle)
  return sl
}

/**
 * bfq_update_hw_tag (on each completion): over 32 samples with enough requests around, did the
 * device ever hold more than 3 at once? Until known, the device is assumed to queue commands.
 */
export function updateHwTag(bfqd: BfqData): void {
  if (bfqd.rqInDriver > bfqd.maxRqInDriver) bfqd.maxRqInDriver = bfqd.rqInDriver
  if (bfqd.hwTag === 1) return
  if (bfqd.rqInDriver + bfqd.queued <= K.hwQueueThreshold) return
  const q = bfqd.inService
  if (
    q !== null &&
    q.hasShortTtime &&
    q.dispatched + q.queued < K.hwQueueThreshold &&
    bfqd.rqInDriver < K.hwQueueThreshold
  )
    return
  if (bfqd.hwTagSamples++ < K.hwQueueSamples) return
  bfqd.hwTag = bfqd.maxRqInDriver > K.hwQueueThreshold ? 1 : 0
  bfqd.maxRqInDriver = 0
  bfqd.hwTagSamples = 0
}
