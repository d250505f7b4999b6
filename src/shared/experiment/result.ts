import type { LatencyHistogramJSON, LatencySummary } from '../metrics/histogram'
import type { TimeSeriesData } from '../metrics/timeseries'
import type { DispatchSampleData } from '../metrics/dispatch-sample'
import type { ParamValues } from '../util/params'
import type { PhaseResult } from '../host/program'
import type { ProcessTime, RunWhy } from '../metrics/why'

/**
 * The result of one run — one scheduler, one repetition — simulated or measured on a real device.
 * Both produce exactly this shape, so they compare side by side and overlay in one chart.
 * Units are in the field names or comments: MB = 10^6 bytes, latencies in ms.
 */
export interface RunResult {
  schema: 'iosched-lab/run@1'
  /** The scheduler entry's label (unique within an experiment). */
  label: string
  /** Canonical scheduler name (`deadline`, `noop` …). */
  scheduler: string
  tunables: ParamValues
  source: 'simulated' | 'real'
  repetition: number
  seed: number
  /** Device preset or real device name. */
  device: string
  /** Length of the run: until the stop condition, in (simulated or wall) seconds. */
  seconds: number
  /** Why it stopped: the named processes finished, or the time limit. */
  stoppedBy: 'processes' | 'time-limit' | 'idle'
  processes: ProcessResult[]
  totals: DeviceTotals
  timeSeries: TimeSeriesData
  /**
   * Each process's share of the device's throughput over time (the requests it caused, by pid, as
   * iotop counts them), in timeSeries' bins. Simulated runs, and real runs that were traced
   * (blktrace or the kernel's block tracepoints: the completions of each process's requests).
   */
  processSeries?: ProcessSeries[]
  dispatches: DispatchSampleData
  /** Per request, from insertion into the scheduler to completion. */
  requestLatency: LatencyHistogramJSON
  /** Per request, the device's service time: dispatch to completion (blktrace D→C). */
  serviceLatency: LatencyHistogramJSON
  /** Measured D→C times of a replayed trace, to compare with `serviceLatency`. */
  measuredServiceLatency?: LatencyHistogramJSON
  /**
   * Why the run went as it did: per process, btt's request stages (Q2G … D2C) and the scheduler's
   * decisions for it (metrics/why.ts). Simulated runs, and real runs traced with blktrace.
   */
  why?: RunWhy
  /** Simulator-only facts: events executed and requests completed. */
  sim?: { events: number; requests: number }
  /**
   * Runs imported from a tool's output (`iosched-lab import`): which tool and version wrote it,
   * the file it came from, and notes on what the tool did not measure or how figures were converted.
   */
  imported?: { tool: string; version?: string; file: string; notes?: string[] }
}

/** Where a run came from: the simulator, a real run of the lab's, or a tool's output imported. */
export type RunKind = 'simulated' | 'real' | 'imported'

/** Imported runs by their file, real runs by the lab, simulated runs by the simulator. */
export const runKind = (r: Pick<RunResult, 'source' | 'imported'>): RunKind =>
  r.imported ? 'imported' : r.source

export interface ProcessResult {
  name: string
  pid: number
  /** Bytes read plus written by its system calls. */
  bytes: number
  readBytes: number
  writeBytes: number
  /** From its start to its exit, or to the end of the run if it did not finish. */
  seconds: number
  MBps: number
  /** Completed operations (system calls, or asynchronous I/Os). */
  ops: number
  finished: boolean
  startSeconds: number
  cpuSeconds: number
  /** Per operation, from the call to its return (fio: submission to completion). */
  latencyMs: LatencySummary
  latency: LatencyHistogramJSON
  /**
   * fio's submission latency (slat) and total latency (lat, submission to completion), real and
   * imported fio runs only: `latencyMs` is then fio's completion latency (clat). Percentiles are
   * NaN unless fio printed them (`slat_percentiles`, `lat_percentiles`). The simulator does not
   * split a call's time so: it leaves them out.
   */
  slatMs?: LatencySummary
  latMs?: LatencySummary
  /** Per phase, for tools that report phases (bonnie++, iozone). */
  phases?: PhaseResult[]
  /**
   * Where the process's time went over its `seconds` (CPU, runnable, blocked on reads, writes,
   * throttling, sync, faults, thinking), seconds; the parts add up to `seconds`. Simulated runs.
   */
  time?: ProcessTime
}

export interface ProcessSeries {
  /** The process's name, or the kernel's for requests of no workload process ("flush": writeback). */
  name: string
  pid: number
  readMBps: number[]
  writeMBps: number[]
}

export interface DeviceTotals {
  readMBps: number
  writeMBps: number
  readIops: number
  writeIops: number
  readBytes: number
  writeBytes: number
  requests: number
  /** Share of the run with at least one request at the device (iostat %util / 100). */
  utilisation: number
  /** Dispatches that did not start where the previous one ended. */
  seeks: number
  meanSeekSectors: number
  /**
   * Simulated disks: cylinders the arm crossed seeking between media accesses — the textbooks'
   * "total head movement"; not counted: the move to the first access from where the arm rested.
   */
  seekCylinders?: number
  meanRequestKiB: number
  /** Merges of bios into queued requests. */
  mergedBios?: number
}
