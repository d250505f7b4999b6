import type { SimTime } from '../../sim/time'
import type { BfqData } from './data'
import type { BfqQueue } from './queue'
import { K } from './tunables'

/**
 * Waker detection (bfq_check_waker, Linux 5.3+; as in 6.x): a sync queue with a long think time
 * whose I/O repeatedly arrives right after a request of one other queue completes is waiting for
 * that queue — an fsync waiting for the journal thread's commit is the typical case. After the
 * same other queue was seen completing within 4 ms before three such arrivals (within
 * 128 × slice_idle of the first), it is the queue's waker: while BFQ idles for the queue, the
 * waker's requests are injected first, so the wait ends early instead of at the idle timeout.
 */
export function checkWaker(bfqd: BfqData, q: BfqQueue, now: SimTime): void {
  const last = bfqd.lastCompletedQueue
  if (last === null || last === q || q.hasShortTtime || now - bfqd.lastCompletion >= K.wakerMaxDelay) return
  if (last !== q.tentativeWaker || now > q.wakerDetectionStarted + K.wakerDetectionSlices * bfqd.sliceIdle) {
    // a first sighting, or of another candidate, or the last one is too old: start over
    q.tentativeWaker = last
    q.wakerDetections = 1
    q.wakerDetectionStarted = now
  } else {
    q.wakerDetections++
  }
  if (q.wakerDetections !== K.wakerDetections) return
  if (q.wakerQueue !== null) unlinkWoken(q.wakerQueue, q)
  q.wakerQueue = last
  q.tentativeWaker = null
  last.woken.unshift(q)
}

/** bfq_put_queue: a queue that goes away wakes nobody and is woken by nobody. */
export function forgetWakers(q: BfqQueue): void {
  if (q.wakerQueue !== null) unlinkWoken(q.wakerQueue, q)
  q.wakerQueue = null
  for (const w of q.woken) w.wakerQueue = null
  q.woken.length = 0
}

function unlinkWoken(waker: BfqQueue, q: BfqQueue): void {
  const i = waker.woken.indexOf(q)
  if (i >= 0) waker.woken.splice(i, 1)
}
