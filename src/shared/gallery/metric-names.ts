// A gallery metric as people name it: the figures table shows "throughput" and "head movement",
// not the keys of the entry's JSON ("MBps", "seekCylinders"); the unit has a column of its own.
import type { Metric } from './types'

const NAMES: Record<Metric, string> = {
  seconds: 'time',
  MBps: 'throughput',
  opsPerSecond: 'operations per second',
  bytes: 'bytes moved',
  bytesPerSecond: 'throughput',
  readMBps: 'read throughput',
  writeMBps: 'write throughput',
  p50Ms: 'p50 latency',
  p99Ms: 'p99 latency',
  maxMs: 'max latency',
  seekCylinders: 'head movement',
}

/** The metric's name in words (the key itself for one this table does not know). */
export const metricName = (m: string): string => NAMES[m as Metric] ?? m

/**
 * A published figure in words, as the app's figures table and `iosched-lab reproduce` show it:
 * its process, its phase where the tool times phases, and the metric's name — `reader ·
 * throughput`, `dd · throughput`, `head movement` — not the entry's keys (`reader MBps`).
 */
export function figureWords(ref: { process?: string; phase?: string; metric: string }): string {
  return [
    ref.process,
    ref.phase !== undefined && ref.phase !== ref.process ? ref.phase : null,
    metricName(ref.metric),
  ]
    .filter(Boolean)
    .join(' · ')
}
