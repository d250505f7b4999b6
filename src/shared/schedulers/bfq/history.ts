import type { SimTime } from '../../sim/time'
import type { BfqData } from './data'
import { resetInjectLimit } from './inject'
import type { BfqQueue } from './queue'
import { K } from './tunables'

/**
 * What BFQ learns from a sync queue's arrivals (block/bfq-iosched.c of Linux 6.x): its think time
 * (how long after going idle it sends its next request), whether that is short, and whether it is
 * I/O-bound (busy most of the time). Idling, injection and budgets are decided from these.
 */

/**
 * bfq_update_io_thinktime: a decaying mean of the time from the queue's last completion to the
 * next arrival, capped at 2 × slice_idle. Sampled only when the queue was really idle: nothing
 * queued and nothing in flight (a queue still busy tells nothing about how long its process thinks).
 */
export function updateThinkTime(bfqd: BfqData, q: BfqQueue, now: SimTime): void {
  if (q.dispatched > 0 || q.busy) return
  let elapsed = now - q.lastEndRequest
  const cap = 2 * bfqd.sliceIdle
  if (elapsed < 0 || elapsed > cap) elapsed = cap
  q.ttimeSamples = Math.floor((7 * q.ttimeSamples + 256) / 8)
  q.ttimeTotal = Math.floor((7 * q.ttimeTotal + 256 * elapsed) / 8)
  q.ttimeMean = Math.floor((q.ttimeTotal + 128) / q.ttimeSamples)
}

/**
 * bfq_update_has_short_ttime: a process whose mean think time exceeds half of slice_idle (once the
 * mean is trusted, over 80 samples), or that has exited, has a long think time. While no baseline
 * service time was sampled, the inject limit follows the think time (0 short, 1 long): it is reset
 * when the state changes — to long at once, to short only 100 ms after the last decrease, so a
 * queue whose short think time comes from injection itself does not flip back and forth.
 */
export function updateHasShortTtime(bfqd: BfqData, q: BfqQueue, now: SimTime): void {
  if (!q.sync || q.isIdleClass() || bfqd.sliceIdle === 0) return
  const long = q.exited || (q.ttimeSamples > K.ttimeValidSamples && q.ttimeMean > bfqd.sliceIdle / 2)
  const changed = q.hasShortTtime === long
  q.hasShortTtime = !long
  if (changed && q.lastServTime === 0 && (now >= q.decreaseTime + K.injectShortResetDelay || long))
    resetInjectLimit(bfqd, q, now)
}

/**
 * bfq_update_io_intensity, on each arrival of a sync queue: the time it spent with nothing queued
 * and nothing in flight is idle time; a queue idle more than a fifth of its recent I/O time is not
 * I/O-bound. The window is kept within about 200 ms by halving both sums.
 */
export function updateIoIntensity(q: BfqQueue, now: SimTime): void {
  const totIoTime = now - q.ioStartTime
  // The kernel starts a new queue's last completion one ns "in the future" (minus infinity in u64
  // arithmetic); an arrival in that same instant counts no idle time here.
  if (q.queued === 0 && q.dispatched === 0) q.totIdleTime += Math.max(0, now - q.lastEndRequest)
  if (q.justCreated) return
  q.ioBound = !(q.totIdleTime * 5 > totIoTime)
  if (totIoTime > K.ioIntensityWindow) {
    q.ioStartTime = now - Math.floor(totIoTime / 2)
    q.totIdleTime = Math.floor(q.totIdleTime / 2)
  }
}
