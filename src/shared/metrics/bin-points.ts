import type { TimeSeriesData } from './timeseries'

/**
 * A time series' bins as (seconds, value) points to draw as a line: each bin's value at its start,
 * and the last value again where the last bin ends — the run's end, when it ends inside the bin.
 * Without that end point a run shorter than one bin (0.016 s on nullblk, 100-ms bins) would be a
 * single point: no line at all, and an axis around zero.
 */
export function binPoints(
  ts: TimeSeriesData,
  values: readonly number[],
  runSeconds: number,
): Array<[number, number]> {
  const n = ts.tMs.length
  const out: Array<[number, number]> = ts.tMs.map((t, k) => [t / 1000, values[k]])
  if (n === 0) return out
  const lastStart = ts.tMs[n - 1] / 1000
  const binEnd = lastStart + ts.intervalMs / 1000
  const end = Number.isFinite(runSeconds) && runSeconds > lastStart ? Math.min(binEnd, runSeconds) : binEnd
  if (end > lastStart) out.push([end, values[n - 1]])
  return out
}
