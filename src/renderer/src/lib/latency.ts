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
  return h.cdf(points).map((p) => ({ x: Math.max(p.valueNs / 1e6, 1e-3), y: p.fraction }))
}
