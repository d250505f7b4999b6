import type { ProcessResult } from '../experiment/result'
import type { FioDirection, FioDocuments, FioJobReport, FioLatency, FioReport } from '../formats/fio-json'
import { fioLatencySummary, fioStageLatency } from '../formats/fio-stages'
import { LatencyHistogram, summarizeLatency } from '../metrics/histogram'
import type { LatencyHistogramJSON } from '../metrics/histogram'
import type { TimeSeriesData } from '../metrics/timeseries'
import { baseLabel, emptyHistogram, emptyRun } from './empty-run'
import type { ImportOptions, ImportedRun, Metric } from './types'

const MAX_NS = Number.MAX_SAFE_INTEGER

/**
 * One run per file; each fio job is a process (a repeated job name gets `/0`, `/1` … as the
 * simulator names a workload's instances; in client/server output the host comes first). Bytes
 * are `io_bytes`, rates `bw_bytes` (B/s — `bw` is KiB/s), time `job_runtime`. json+ latency
 * `bins` (bucket value in ns → count) become the process's latency histogram, with fio's exact
 * min and max; plain JSON gives only fio's percentiles (no histogram). The reports that
 * `--status-interval` printed before the final one become the run's throughput over time.
 */
export function fioRuns(docs: FioDocuments, file: string, o: ImportOptions): ImportedRun[] {
  const final = docs.reports[docs.reports.length - 1]
  const notes: string[] = []
  const metrics: Metric[] = []
  const names = jobNames(final.jobs)
  let plain = false
  const processes: ProcessResult[] = final.jobs.map((job, i) => {
    const p = processOf(job, names[i], i + 1)
    if (p.plain) plain = true
    metrics.push(...jobMetrics(job, names[i]))
    return p.process
  })
  if (plain) notes.push('plain JSON: no latency histogram (run fio with --output-format=json+ for one)')
  const failed = final.jobs.filter((j) => j.error !== 0).map((j) => `${j.jobname} (error ${j.error})`)
  if (failed.length > 0) notes.push(`failed jobs: ${failed.join(', ')}`)
  const seconds = Math.max(0, ...processes.map((p) => p.seconds))
  const disk = diskOf(final.diskUtil[0])
  const run = emptyRun({
    label: o.label ?? baseLabel(file),
    tool: 'fio',
    version: final.fioVersion.replace(/^fio-/, ''),
    file,
    scheduler: o.scheduler,
    device: o.device ?? disk?.name,
    seconds,
    notes,
  })
  run.processes = processes
  const sum = (f: (j: FioJobReport) => number): number => final.jobs.reduce((a, j) => a + f(j), 0)
  run.totals.readBytes = sum((j) => j.read.io_bytes)
  run.totals.writeBytes = sum((j) => j.write.io_bytes + j.trim.io_bytes)
  run.totals.readMBps = sum((j) => j.read.bw_bytes) / 1e6
  run.totals.writeMBps = sum((j) => j.write.bw_bytes + j.trim.bw_bytes) / 1e6
  run.totals.readIops = sum((j) => j.read.iops)
  run.totals.writeIops = sum((j) => j.write.iops + j.trim.iops)
  if (disk) {
    run.totals.requests = disk.ios
    run.totals.utilisation = disk.util / 100
    run.totals.mergedBios = disk.merges
    metrics.push({ name: `disk ${disk.name} utilisation`, value: disk.util, unit: '%' })
    metrics.push({ name: `disk ${disk.name} requests`, value: run.totals.requests, unit: '' })
  }
  if (docs.reports.length > 1) {
    run.timeSeries = seriesOf(docs.reports)
    notes.push(
      `${docs.reports.length} reports (--status-interval): throughput over time from their differences`,
    )
  }
  if (notes.length > 0) run.imported!.notes = notes
  return [{ run, metrics, line: docs.lines[docs.lines.length - 1] }]
}

/** fio's first disk_util entry, checked field by field (the report's checks do not cover it). */
function diskOf(d: unknown): { name: string; ios: number; merges: number; util: number } | null {
  if (typeof d !== 'object' || d === null) return null
  const o = d as Record<string, unknown>
  const n = (k: string): number => (typeof o[k] === 'number' && Number.isFinite(o[k]) ? (o[k] as number) : 0)
  if (typeof o.name !== 'string') return null
  return {
    name: o.name,
    ios: n('read_ios') + n('write_ios'),
    merges: n('read_merges') + n('write_merges'),
    util: n('util'),
  }
}

function jobNames(jobs: FioJobReport[]): string[] {
  const base = jobs.map((j) => (j.hostname ? `${j.hostname}:${j.jobname}` : j.jobname))
  const count = new Map<string, number>()
  for (const b of base) count.set(b, (count.get(b) ?? 0) + 1)
  const next = new Map<string, number>()
  return base.map((b) => {
    if (count.get(b)! === 1) return b
    const k = next.get(b) ?? 0
    next.set(b, k + 1)
    return `${b}/${k}`
  })
}

const DIRS = ['read', 'write', 'trim'] as const

function processOf(job: FioJobReport, name: string, pid: number): { process: ProcessResult; plain: boolean } {
  const dirs = DIRS.map((d) => job[d])
  const seconds = job.job_runtime / 1000
  const readBytes = job.read.io_bytes
  const writeBytes = job.write.io_bytes + job.trim.io_bytes
  const bytes = readBytes + writeBytes
  const lats = dirs.map((d) => d.clat_ns).filter((l) => l.N > 0)
  const hist = histogramFromBins(lats)
  const latency = hist ?? emptyHistogram()
  const latencyMs = hist ? summarizeLatency(LatencyHistogram.fromJSON(hist)) : fioLatencySummary(lats, false) // plain JSON: fio's own percentiles
  const slatMs = fioStageLatency(dirs, 'slat_ns')
  const latMs = fioStageLatency(dirs, 'lat_ns')
  return {
    plain: hist === null && lats.length > 0,
    process: {
      name,
      pid,
      bytes,
      readBytes,
      writeBytes,
      seconds,
      MBps: seconds > 0 ? bytes / 1e6 / seconds : 0,
      ops: dirs.reduce((a, d) => a + d.total_ios, 0),
      finished: job.error === 0,
      startSeconds: 0,
      cpuSeconds: (((job.usr_cpu ?? 0) + (job.sys_cpu ?? 0)) / 100) * seconds,
      latencyMs,
      latency,
      ...(slatMs ? { slatMs } : {}),
      ...(latMs ? { latMs } : {}),
    },
  }
}

/** Bucket index of a value in the lab's histogram (cached: fio's bins repeat across jobs). */
const bucketCache = new Map<number, number>()
const scratch = new LatencyHistogram()
function bucketOf(ns: number): number {
  let b = bucketCache.get(ns)
  if (b === undefined) {
    scratch.reset()
    scratch.record(ns)
    b = scratch.toJSON().counts[0][0]
    bucketCache.set(ns, b)
  }
  return b
}

/**
 * json+ bins of one or more directions → the lab's histogram; min, max and sum are fio's exact
 * ones. Null when a direction with I/Os has no bins (plain JSON); empty when no I/O at all.
 */
export function histogramFromBins(lats: readonly FioLatency[]): LatencyHistogramJSON | null {
  const counts = new Map<number, number>()
  let n = 0
  let min = Infinity
  let max = -Infinity
  let sum = 0
  for (const l of lats) {
    if (!(l.N > 0)) continue
    if (!l.bins) return null
    for (const [k, c] of Object.entries(l.bins)) {
      if (!(c > 0)) continue
      const v = Math.min(MAX_NS, Math.max(0, Math.round(Number(k))))
      const b = bucketOf(v)
      counts.set(b, (counts.get(b) ?? 0) + c)
      n += c
    }
    min = Math.min(min, l.min)
    max = Math.max(max, l.max)
    sum += l.mean * l.N
  }
  if (n === 0) return emptyHistogram()
  return {
    bucketsPerPow2: LatencyHistogram.bucketsPerPow2,
    counts: [...counts.entries()].sort((a, b) => a[0] - b[0]),
    min: Math.max(0, min),
    max: Math.max(0, min, max),
    sum: Math.round(sum),
    count: n,
  }
}

function jobMetrics(job: FioJobReport, name: string): Metric[] {
  const out: Metric[] = [{ name: `${name} runtime`, value: job.job_runtime / 1000, unit: 's' }]
  for (const d of DIRS) {
    const x: FioDirection = job[d]
    if (!(x.io_bytes > 0) && !(x.total_ios > 0)) continue
    out.push({ name: `${name} ${d} bytes`, value: x.io_bytes, unit: 'bytes' })
    out.push({ name: `${name} ${d} bw_bytes`, value: x.bw_bytes / 1e6, unit: 'MB/s' })
    out.push({ name: `${name} ${d} bw (fio)`, value: typeof x.bw === 'number' ? x.bw : null, unit: 'KiB/s' })
    out.push({ name: `${name} ${d} IOPS`, value: x.iops, unit: 'IOPS' })
    const p = x.clat_ns.percentile
    for (const [k, label] of [
      ['50.000000', 'p50'],
      ['99.000000', 'p99'],
    ] as const)
      if (p && typeof p[k] === 'number')
        out.push({ name: `${name} ${d} clat ${label}`, value: p[k] / 1e6, unit: 'ms' })
    out.push({ name: `${name} ${d} clat max`, value: x.clat_ns.max / 1e6, unit: 'ms' })
  }
  return out
}

/** Throughput per interval from the cumulative reports of --status-interval. */
function seriesOf(reports: FioReport[]): TimeSeriesData {
  const runtime = (r: FioReport): number => Math.max(0, ...r.jobs.map((j) => j.job_runtime))
  const stamped = reports.every((r) => r.timestampMs !== null)
  const origin = stamped ? reports[0].timestampMs! - runtime(reports[0]) : 0
  const t = reports.map((r) => (stamped ? r.timestampMs! - origin : runtime(r)))
  const total = (r: FioReport, f: (j: FioJobReport) => number): number => r.jobs.reduce((a, j) => a + f(j), 0)
  const rb = reports.map((r) => total(r, (j) => j.read.io_bytes))
  const wb = reports.map((r) => total(r, (j) => j.write.io_bytes + j.trim.io_bytes))
  const ri = reports.map((r) => total(r, (j) => j.read.total_ios))
  const wi = reports.map((r) => total(r, (j) => j.write.total_ios + j.trim.total_ios))
  const out: TimeSeriesData = {
    intervalMs: 0,
    tMs: [],
    readMBps: [],
    writeMBps: [],
    readIops: [],
    writeIops: [],
    queued: [],
    inFlight: [],
  }
  let prev = { t: 0, rb: 0, wb: 0, ri: 0, wi: 0 }
  const steps: number[] = []
  for (let k = 0; k < reports.length; k++) {
    const dt = t[k] - prev.t
    if (!(dt >= 1)) continue
    const s = dt / 1000
    out.tMs.push(prev.t)
    out.readMBps.push(Math.max(0, rb[k] - prev.rb) / 1e6 / s)
    out.writeMBps.push(Math.max(0, wb[k] - prev.wb) / 1e6 / s)
    out.readIops.push(Math.max(0, ri[k] - prev.ri) / s)
    out.writeIops.push(Math.max(0, wi[k] - prev.wi) / s)
    out.queued.push(0)
    out.inFlight.push(0)
    steps.push(dt)
    prev = { t: t[k], rb: rb[k], wb: wb[k], ri: ri[k], wi: wi[k] }
  }
  steps.sort((a, b) => a - b)
  out.intervalMs = steps.length > 0 ? steps[steps.length >> 1] : 1000
  return out
}
