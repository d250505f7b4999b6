import type { ProcessResult } from '../experiment/result'
import { deviceServiceTimes, isWrite } from '../formats/blkparse'
import type { TraceEvent } from '../formats/blkparse'
import type { BlkparseEvent } from '../formats/blkparse-line'
import { TraceStages } from '../experiment/trace-stages'
import { LatencyHistogram, summarizeLatency } from '../metrics/histogram'
import { DispatchSample } from '../metrics/dispatch-sample'
import { TimeSeries } from '../metrics/timeseries'
import { READ, WRITE } from '../block/types'
import { ImportError } from '../formats/import-error'
import { baseLabel, emptyRun } from './empty-run'
import type { ImportOptions, ImportedRun, Metric, WorkloadSuggestion } from './types'

const NS = 1e9

/**
 * A blkparse trace as a measured run: one process per traced pid (its queued I/O, latency from Q
 * to C), the device's service times (D→C) as `serviceLatency` and `measuredServiceLatency` (what a
 * simulated replay is compared with), the time series from completions with the queue levels
 * (Q…D queued, D…C at the device), the dispatches for the sector-over-time plot, and device totals.
 * The same text replays as a workload: `trace-replay` with the trace as its parameter. With `all`
 * the trace's every event (G, I, merges, splits …), the run's `why` has btt's stages per process
 * (trace-stages.ts; processes named by their command), as a traced real run's.
 */
export function blkparseRuns(
  events: TraceEvent[],
  file: string,
  o: ImportOptions,
  all?: readonly BlkparseEvent[],
): ImportedRun[] {
  const ev = [...events].sort((a, b) => a.time - b.time)
  const t0 = ev.length > 0 ? ev[0].time : 0
  const far = ev.find((e) => e.time - t0 > MAX_TRACE_SECONDS)
  if (far)
    throw new ImportError(
      `time ${far.time} s is more than ${MAX_TRACE_SECONDS} s after the trace's first event (${t0} s)`,
      far.line,
      'time',
    )
  const end = ev.length > 0 ? ev[ev.length - 1].time - t0 : 0
  const ns = (t: number): number => Math.max(0, Math.round((t - t0) * NS))
  const series = new TimeSeries()
  const sample = new DispatchSample()
  const service = new LatencyHistogram()
  for (const s of deviceServiceTimes(ev)) service.record(Math.max(0, Math.round(s * NS)))
  const request = new LatencyHistogram()
  interface Proc {
    pid: number
    name: string
    first: number
    last: number
    readBytes: number
    writeBytes: number
    ops: number
    latency: LatencyHistogram
  }
  const procs = new Map<number, Proc>()
  const queuedAt = new Map<string, { t: number; proc: Proc }[]>()
  let queued = 0
  let inFlight = 0
  let busySince = -1
  let busy = 0
  let lastEnd = -1
  let seeks = 0
  let seekDistance = 0
  let dispatches = 0
  let readBytes = 0
  let writeBytes = 0
  let reads = 0
  let writes = 0
  for (const e of ev) {
    const t = ns(e.time)
    const key = `${e.sector}+${e.nsect}`
    const bytes = e.nsect * 512
    const op = isWrite(e.rwbs) ? WRITE : READ
    if (e.action === 'Q') {
      let p = procs.get(e.pid)
      if (!p) {
        p = {
          pid: e.pid,
          name: e.process || `pid ${e.pid}`,
          first: t,
          last: t,
          readBytes: 0,
          writeBytes: 0,
          ops: 0,
          latency: new LatencyHistogram(),
        }
        procs.set(e.pid, p)
      }
      p.ops++
      p.last = Math.max(p.last, t)
      if (op === WRITE) p.writeBytes += bytes
      else p.readBytes += bytes
      const q = queuedAt.get(key)
      if (q) q.push({ t, proc: p })
      else queuedAt.set(key, [{ t, proc: p }])
      queued++
    } else if (e.action === 'D') {
      if (queued > 0) queued--
      if (inFlight === 0) busySince = t
      inFlight++
      dispatches++
      if (lastEnd >= 0 && e.sector !== lastEnd) {
        seeks++
        seekDistance += Math.abs(e.sector - lastEnd)
      }
      lastEnd = e.sector + e.nsect
      sample.add(t, e.sector, e.nsect, op, e.pid)
    } else {
      if (inFlight > 0) {
        inFlight--
        if (inFlight === 0 && busySince >= 0) busy += t - busySince
      }
      series.addTransfer(t, op, bytes)
      if (op === WRITE) {
        writeBytes += bytes
        writes++
      } else {
        readBytes += bytes
        reads++
      }
      const q = queuedAt.get(key)?.shift()
      if (q) {
        const lat = Math.max(0, t - q.t)
        q.proc.latency.record(lat)
        request.record(lat)
        q.proc.last = Math.max(q.proc.last, t)
      }
    }
    series.setLevels(t, queued, inFlight)
  }
  const endNs = Math.max(1, Math.round(end * NS))
  if (inFlight > 0 && busySince >= 0) busy += endNs - busySince
  const seconds = endNs / NS
  const run = emptyRun({
    label: o.label ?? baseLabel(file),
    tool: 'blkparse',
    file,
    scheduler: o.scheduler,
    device: o.device,
    seconds,
    notes: [
      'request latency: Q (queued) to C (completed); service latency: D (dispatched) to C',
      `${ev.filter((e) => e.action === 'Q').length} Q, ${dispatches} D, ${reads + writes} C events`,
    ],
  })
  run.processes = [...procs.values()].map((p): ProcessResult => ({
    name: p.name,
    pid: p.pid,
    bytes: p.readBytes + p.writeBytes,
    readBytes: p.readBytes,
    writeBytes: p.writeBytes,
    seconds: (p.last - p.first) / NS,
    MBps: p.last > p.first ? (p.readBytes + p.writeBytes) / 1e6 / ((p.last - p.first) / NS) : 0,
    ops: p.ops,
    finished: true,
    startSeconds: p.first / NS,
    cpuSeconds: 0,
    latencyMs: summarizeLatency(p.latency),
    latency: p.latency.toJSON(),
  }))
  run.timeSeries = series.finish(endNs)
  run.dispatches = sample.toJSON()
  if (all) {
    const stages = new TraceStages()
    for (const e of [...all].sort((a, b) => a.ns - b.ns)) stages.add(e)
    run.why = stages.finish().why
  }
  run.requestLatency = request.toJSON()
  run.serviceLatency = service.toJSON()
  run.measuredServiceLatency = service.toJSON()
  const per = (x: number): number => x / seconds
  run.totals = {
    readMBps: per(readBytes) / 1e6,
    writeMBps: per(writeBytes) / 1e6,
    readIops: per(reads),
    writeIops: per(writes),
    readBytes,
    writeBytes,
    requests: reads + writes,
    utilisation: Math.min(1, busy / endNs),
    seeks,
    meanSeekSectors: seeks > 0 ? seekDistance / seeks : 0,
    meanRequestKiB: reads + writes > 0 ? (readBytes + writeBytes) / 1024 / (reads + writes) : 0,
  }
  const svc = summarizeLatency(service)
  const req = summarizeLatency(request)
  const metrics: Metric[] = [
    { name: 'duration', value: seconds, unit: 's' },
    { name: 'processes', value: procs.size, unit: '' },
    { name: 'read', value: run.totals.readMBps, unit: 'MB/s' },
    { name: 'write', value: run.totals.writeMBps, unit: 'MB/s' },
    { name: 'requests completed', value: reads + writes, unit: '' },
    { name: 'utilisation', value: run.totals.utilisation * 100, unit: '%' },
    { name: 'service D→C p50', value: finite(svc.p50), unit: 'ms' },
    { name: 'service D→C p99', value: finite(svc.p99), unit: 'ms' },
    { name: 'request Q→C p50', value: finite(req.p50), unit: 'ms' },
    { name: 'request Q→C p99', value: finite(req.p99), unit: 'ms' },
    { name: 'mean seek', value: run.totals.meanSeekSectors, unit: 'sectors' },
  ]
  return [{ run, metrics, line: events[0]?.line }]
}

const finite = (x: number): number | null => (Number.isFinite(x) ? x : null)

/** The trace replays as the `trace-replay` workload (when it has queued I/O to replay). */
export function blkparseWorkload(events: TraceEvent[], text: string): WorkloadSuggestion | undefined {
  if (!events.some((e) => e.action === 'Q')) return undefined
  return { name: 'trace', type: 'trace-replay', params: { trace: text } }
}

/** Longest trace accepted: the lab's times are integer ns below 2^53 (104 days). */
export const MAX_TRACE_SECONDS = 1e6
