import type { ProcessResult, RunResult } from '../experiment/result'
import { LatencyHistogram, summarizeLatency } from '../metrics/histogram'
import type { LatencyHistogramJSON } from '../metrics/histogram'
import type { TimeSeriesData } from '../metrics/timeseries'
import type { DispatchSampleData } from '../metrics/dispatch-sample'
import type { PhaseResult } from '../host/program'

/** An empty latency histogram (count 0): what a tool that reports no latencies leaves. */
export const emptyHistogram = (): LatencyHistogramJSON => new LatencyHistogram().toJSON()

export const emptyTimeSeries = (intervalMs = 1000): TimeSeriesData => ({
  intervalMs,
  tMs: [],
  readMBps: [],
  writeMBps: [],
  readIops: [],
  writeIops: [],
  queued: [],
  inFlight: [],
})

export const emptyDispatches = (): DispatchSampleData => ({
  stride: 1,
  tMs: [],
  sector: [],
  nsect: [],
  op: [],
  pid: [],
})

export interface RunHead {
  label: string
  tool: string
  version?: string | null
  file: string
  repetition?: number
  scheduler?: string
  device?: string
  seconds?: number
  notes?: string[]
}

/**
 * A measured run with nothing in it yet: no processes, zero totals, empty time series, dispatch
 * sample and histograms — each importer fills what its tool reports and leaves the rest so.
 */
export function emptyRun(head: RunHead): RunResult {
  const imported: NonNullable<RunResult['imported']> = { tool: head.tool, file: head.file }
  if (head.version) imported.version = head.version
  if (head.notes && head.notes.length > 0) imported.notes = [...head.notes]
  return {
    schema: 'iosched-lab/run@1',
    label: head.label,
    scheduler: head.scheduler ?? 'unknown',
    tunables: {},
    source: 'real',
    repetition: head.repetition ?? 0,
    seed: 0,
    device: head.device ?? 'unknown',
    seconds: head.seconds ?? 0,
    stoppedBy: 'processes',
    processes: [],
    totals: {
      readMBps: 0,
      writeMBps: 0,
      readIops: 0,
      writeIops: 0,
      readBytes: 0,
      writeBytes: 0,
      requests: 0,
      utilisation: 0,
      seeks: 0,
      meanSeekSectors: 0,
      meanRequestKiB: 0,
    },
    timeSeries: emptyTimeSeries(),
    dispatches: emptyDispatches(),
    requestLatency: emptyHistogram(),
    serviceLatency: emptyHistogram(),
    imported,
  }
}

/** A process that read `readBytes` and wrote `writeBytes` in `seconds`, with no latency figures. */
export function measuredProcess(p: {
  name: string
  pid: number
  readBytes: number
  writeBytes: number
  seconds: number
  ops?: number
  cpuSeconds?: number
  startSeconds?: number
  phases?: PhaseResult[]
  latency?: LatencyHistogramJSON
}): ProcessResult {
  const bytes = p.readBytes + p.writeBytes
  const latency = p.latency ?? emptyHistogram()
  const out: ProcessResult = {
    name: p.name,
    pid: p.pid,
    bytes,
    readBytes: p.readBytes,
    writeBytes: p.writeBytes,
    seconds: p.seconds,
    MBps: p.seconds > 0 ? bytes / 1e6 / p.seconds : 0,
    ops: p.ops ?? 0,
    finished: true,
    startSeconds: p.startSeconds ?? 0,
    cpuSeconds: p.cpuSeconds ?? 0,
    latencyMs: summarizeLatency(LatencyHistogram.fromJSON(latency)),
    latency,
  }
  if (p.phases) out.phases = p.phases
  return out
}

/**
 * Totals of a run from the bytes the tool moved and the run's length (rates are means over the
 * run). These are the tool's own figures, not device counters: requests, seeks and utilisation stay 0.
 */
export function totalsFromBytes(
  run: RunResult,
  t: { readBytes: number; writeBytes: number; readOps?: number; writeOps?: number },
): void {
  const s = run.seconds
  const per = (x: number): number => (s > 0 ? x / s : 0)
  run.totals.readBytes = t.readBytes
  run.totals.writeBytes = t.writeBytes
  run.totals.readMBps = per(t.readBytes) / 1e6
  run.totals.writeMBps = per(t.writeBytes) / 1e6
  run.totals.readIops = per(t.readOps ?? 0)
  run.totals.writeIops = per(t.writeOps ?? 0)
}

/** The base name of a path without its extension: the default label of imported runs. */
export function baseLabel(file: string): string {
  const base = file.split(/[\\/]/).pop() ?? file
  const dot = base.lastIndexOf('.')
  return dot > 0 ? base.slice(0, dot) : base || 'imported'
}
