import type { LatencyHistogramJSON } from '../../../shared/metrics/histogram'
import { LatencyHistogram } from '../../../shared/metrics/histogram'

/**
 * Free page reporting (host/page-reporting.ts) read off the fingerprint's buffered-write point —
 * 1 MiB write() calls, two passes of `passMiB`, the first into memory not used for a while, the
 * second into the pages the first freed. A write into memory the guest reported to its
 * hypervisor touches 256 such pages and stands apart from the others by their cost; how many of
 * the first pass's writes found warm memory instead is the pool of free memory the guest never
 * reports. Which writes land where is the machine's state of the moment: one fingerprint's whole
 * first pass was fresh (fp33, 2026-12-05), the next one's all but two or three of its writes
 * (fp34: 2.6–2.9 ms beside a median of 0.14 ms) — the first pass's median (p75), which the fit
 * read before, saw 9.5 µs a page in one and 0.05 µs in the other, where the slow writes say
 * 10 µs in both.
 */

/** A write this many times the fastest tenth's latency is one into reported memory. */
export const SLOW = 4
/** Below this share of slow writes there are none to speak of (one in 128 is 0.8 %). */
const NONE = 0.005

/** The writes into reported memory: their share, and how far beyond the others they lie (ns). */
export function freshWrites(
  latency: LatencyHistogramJSON,
  /**
   * What such a write costs beyond the others, where the probe measured it (ns): a write slow by
   * less than half of that was slow for another reason (fp40: its few writes of 0.6 ms beside a
   * median of 0.14 ms, against 2.75 ms for a MiB of reported memory, read as 1.7 µs a page).
   */
  expectedExcessNs = 0,
): {
  share: number
  count: number
  excessNs: number
} {
  const h = LatencyHistogram.fromJSON(latency)
  if (h.count === 0) return { share: 0, count: 0, excessNs: 0 }
  const fast = h.percentile(10)
  const bar = Math.max(SLOW * fast, expectedExcessNs > 0 ? h.percentile(25) + expectedExcessNs / 2 : 0)
  const share = 1 - h.fractionAtMost(bar)
  if (share < NONE) return { share: 0, count: 0, excessNs: 0 }
  // the slow writes' median, beyond the fast writes' (p25: the slow ones are at most a pass)
  const excessNs = Math.max(0, h.percentile(100 * (1 - share / 2)) - h.percentile(25))
  return { share, count: Math.round(share * h.count), excessNs }
}

/**
 * One correction of `freshPageUs` (µs) by the measured and simulated points, `pages` 4 KiB pages a
 * write: unchanged where the measured point has no write into reported memory (its cost was not
 * seen).
 */
export function correctFreshPage(
  freshPageUs: number,
  measured: LatencyHistogramJSON,
  simulated: LatencyHistogramJSON,
  pages: number,
): number {
  const m = freshWrites(measured)
  if (m.count === 0) return freshPageUs
  return freshPageUs + (m.excessNs - freshWrites(simulated).excessNs) / 1000 / pages
}

/**
 * The warm pool (host `warmPoolMiB`): the first pass's writes that found warm memory, MiB —
 * `passMiB` less the writes into reported memory. With none of those, at least the whole pass.
 */
export function warmPoolMiB(
  measured: LatencyHistogramJSON,
  passMiB: number,
  writeMiB = 1,
  expectedExcessNs = 0,
): number {
  return Math.max(0, passMiB - freshWrites(measured, expectedExcessNs).count * writeMiB)
}
