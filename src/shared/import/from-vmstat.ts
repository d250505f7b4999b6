import type { VmstatLog } from '../formats/vmstat'
import { baseLabel, emptyRun } from './empty-run'
import type { ImportOptions, ImportedRun, Metric } from './types'

const KIB = 1024

/**
 * One run with no processes and a time series: per sample, read MB/s = bi × 1 KiB / 10^6 and
 * write MB/s = bo × 1 KiB / 10^6 (Linux counts 1 KiB blocks). The interval is the timestamps' step
 * (`vmstat -t`), else the one given (default 1 s). vmstat measures neither IOPS nor queue levels:
 * those series are 0. The first sample of a log that starts with vmstat's header — averages since
 * boot — is left out.
 */
export function vmstatRuns(log: VmstatLog, file: string, o: ImportOptions): ImportedRun[] {
  const notes: string[] = []
  let samples = log.samples
  if (log.firstIsSinceBoot && samples.length > 1) {
    samples = samples.slice(1)
    notes.push(`line ${log.samples[0].line}: the first sample (averages since boot) is left out`)
  }
  const stamps = samples.map((s) => s.timeMs)
  let intervalMs = (o.vmstatIntervalSeconds ?? 1) * 1000
  const steps: number[] = []
  for (let k = 1; k < stamps.length; k++) {
    const a = stamps[k - 1]
    const b = stamps[k]
    if (a !== null && b !== null && b > a) steps.push(b - a)
  }
  if (steps.length > 0) {
    steps.sort((x, y) => x - y)
    intervalMs = steps[steps.length >> 1]
    notes.push(`interval ${intervalMs / 1000} s, from the timestamps`)
  } else
    notes.push(`interval ${intervalMs / 1000} s (${o.vmstatIntervalSeconds ? 'given' : 'assumed: vmstat 1'})`)
  notes.push('bi/bo in 1 KiB blocks (Linux); vmstat measures no IOPS or queue levels: those series are 0')
  const t0 = stamps[0]
  const ts = {
    intervalMs,
    tMs: samples.map((s, k) => (t0 !== null && s.timeMs !== null ? s.timeMs - t0 : k * intervalMs)),
    readMBps: samples.map((s) => (s.values.bi * KIB) / 1e6),
    writeMBps: samples.map((s) => (s.values.bo * KIB) / 1e6),
    readIops: samples.map(() => 0),
    writeIops: samples.map(() => 0),
    queued: samples.map(() => 0),
    inFlight: samples.map(() => 0),
  }
  const seconds = (samples.length * intervalMs) / 1000
  const run = emptyRun({
    label: o.label ?? baseLabel(file),
    tool: 'vmstat',
    file,
    scheduler: o.scheduler,
    device: o.device ?? 'all block devices',
    seconds,
    notes,
  })
  run.stoppedBy = 'time-limit'
  run.timeSeries = ts
  const sum = (xs: number[]): number => xs.reduce((a, x) => a + x, 0)
  const readBytes = (sum(samples.map((s) => s.values.bi)) * KIB * intervalMs) / 1000
  const writeBytes = (sum(samples.map((s) => s.values.bo)) * KIB * intervalMs) / 1000
  run.totals.readBytes = readBytes
  run.totals.writeBytes = writeBytes
  run.totals.readMBps = seconds > 0 ? readBytes / 1e6 / seconds : 0
  run.totals.writeMBps = seconds > 0 ? writeBytes / 1e6 / seconds : 0
  const mean = (k: string): number => sum(samples.map((s) => s.values[k] ?? 0)) / samples.length
  const peak = (xs: number[]): number => xs.reduce((a, x) => Math.max(a, x), 0)
  const metrics: Metric[] = [
    { name: 'samples', value: samples.length, unit: '' },
    { name: 'interval', value: intervalMs / 1000, unit: 's' },
    { name: 'bi mean', value: mean('bi'), unit: 'KiB/s' },
    { name: 'bo mean', value: mean('bo'), unit: 'KiB/s' },
    { name: 'read mean', value: run.totals.readMBps, unit: 'MB/s' },
    { name: 'write mean', value: run.totals.writeMBps, unit: 'MB/s' },
    { name: 'read peak', value: peak(ts.readMBps), unit: 'MB/s' },
    { name: 'write peak', value: peak(ts.writeMBps), unit: 'MB/s' },
  ]
  for (const k of ['us', 'sy', 'id', 'wa'])
    if (k in samples[0].values) metrics.push({ name: `CPU ${k} mean`, value: mean(k), unit: '%' })
  return [{ run, metrics, line: samples[0]?.line }]
}
