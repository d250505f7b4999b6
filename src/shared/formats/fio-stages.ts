import type { LatencySummary } from '../metrics/histogram'
import type { FioDirection, FioLatency } from './fio-json'

/**
 * fio's submission latency (`slat_ns`) or total latency (`lat_ns`, submission to completion) of
 * a job, over its directions — beside its completion latency (`clat_ns`), which is the process's
 * histogram. fio always prints their min, max and mean; their percentiles only when asked
 * (`slat_percentiles=1`, `lat_percentiles=1`), else they are NaN: not measured, not made up.
 * Undefined when the report has no such block (an older fio, or the stage was not timed:
 * `disable_slat=1`).
 */
export function fioStageLatency(
  dirs: readonly FioDirection[],
  stage: 'slat_ns' | 'lat_ns',
): LatencySummary | undefined {
  const lats = dirs.map((d) => d[stage]).filter(isLatency)
  const timed = lats.filter((l) => l.N > 0)
  if (lats.length === 0) return undefined
  return fioLatencySummary(timed, true)
}

/**
 * Mean and max over fio's latency blocks of a job's directions; the percentiles are fio's own, of
 * the direction with the most I/Os — NaN where there are none, and with `aloneOnly` also where
 * other directions were timed (fio's percentiles are then exact for one direction only).
 */
export function fioLatencySummary(lats: readonly FioLatency[], aloneOnly: boolean): LatencySummary {
  if (lats.length === 0) return { p50: NaN, p90: NaN, p95: NaN, p99: NaN, p999: NaN, max: NaN, mean: NaN }
  const main = lats.reduce((a, l) => (l.N > a.N ? l : a))
  const pct = (k: string): number => {
    const v = main.percentile?.[k]
    return typeof v === 'number' && (!aloneOnly || lats.length === 1) ? v / 1e6 : NaN
  }
  const n = lats.reduce((a, l) => a + l.N, 0)
  return {
    p50: pct('50.000000'),
    p90: pct('90.000000'),
    p95: pct('95.000000'),
    p99: pct('99.000000'),
    p999: pct('99.900000'),
    max: Math.max(...lats.map((l) => l.max)) / 1e6,
    mean: lats.reduce((a, l) => a + l.mean * l.N, 0) / n / 1e6,
  }
}

function isLatency(l: unknown): l is FioLatency {
  if (typeof l !== 'object' || l === null) return false
  const o = l as Record<string, unknown>
  return ['min', 'max', 'mean', 'N'].every((k) => typeof o[k] === 'number' && Number.isFinite(o[k]))
}
