import type { LatencyHistogramJSON } from './histogram'
import { LatencyHistogram } from './histogram'

/**
 * RMS horizontal distance between two latency CDFs, as DiskSim's validation reports it: at the
 * quantiles 1 % … 99 %, the difference of the latencies where each CDF reaches that quantile, root
 * mean square, in ms; also relative to the measured mean. NaN when either histogram is empty.
 */
export function rmsCdfDistance(
  measured: LatencyHistogramJSON,
  simulated: LatencyHistogramJSON,
): { ms: number; relative: number } {
  const a = LatencyHistogram.fromJSON(measured)
  const b = LatencyHistogram.fromJSON(simulated)
  if (a.count === 0 || b.count === 0) return { ms: NaN, relative: NaN }
  let sum = 0
  for (let q = 1; q <= 99; q++) {
    const d = (a.percentile(q) - b.percentile(q)) / 1e6
    sum += d * d
  }
  const ms = Math.sqrt(sum / 99)
  return { ms, relative: ms / (a.mean / 1e6) }
}
