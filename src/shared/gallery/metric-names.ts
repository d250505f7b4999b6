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
