// Latency CDFs for the charts: the histograms of every repetition merged, then sampled.
import { LatencyHistogram } from '../../../shared/metrics/histogram'
import type { RunResult } from '../../../shared/experiment/result'

export const DEVICE_REQUESTS = '(device requests)'

/** CDF points (x in ms, y a fraction) for one process, or for device requests, over these runs. */
export function latencyCdf(
  runs: readonly RunResult[],
  process: string,
  points = 160,
): { x: number; y: number }[] {
  const h = new LatencyHistogram()
  for (const r of runs) {
    const json =
      process === DEVICE_REQUESTS ? r.requestLatency : r.processes.find((p) => p.name === process)?.latency
    if (json && json.count > 0) h.merge(LatencyHistogram.fromJSON(json))
  }
  return histogramCdf(h, points)
}

/** Latencies below this, ms, sit at it on a log axis (a stage of 0 ns: no wait at all). */
export const FLOOR_MS = 1e-3

/** CDF points (x in ms, at least FLOOR_MS; y a fraction) of a histogram in ns. */
export function histogramCdf(h: LatencyHistogram, points = 160): { x: number; y: number }[] {
  return h.cdf(points).map((p) => ({ x: Math.max(p.valueNs / 1e6, FLOOR_MS), y: p.fraction }))
}
