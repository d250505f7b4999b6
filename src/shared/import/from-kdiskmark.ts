import type { PhaseResult } from '../host/program'
import type { KDiskMarkReport } from '../formats/kdiskmark'
import { baseLabel, emptyRun, measuredProcess, totalsFromBytes } from './empty-run'
import type { ImportOptions, ImportedRun, Metric } from './types'

/**
 * One run, one process `kdiskmark`, one phase per test (`read SEQ1M Q8T1` …). KDiskMark reports
 * rates only: a phase lasts the measuring time it printed (`Measure: 5 sec`), else the time to
 * move the test file once, and its bytes are rate × time — with the corrected rate (KDiskMark's
 * "MB/s" is fio's KiB/s / 1000, 2.3 % low). The metrics keep both rates, the IOPS and the mean latency.
 */
export function kdiskmarkRuns(r: KDiskMarkReport, file: string, o: ImportOptions): ImportedRun[] {
  const phases: PhaseResult[] = []
  const metrics: Metric[] = []
  let readBytes = 0
  let writeBytes = 0
  let readOps = 0
  let writeOps = 0
  for (const t of r.tests) {
    const name = `${t.section} ${t.name}`
    metrics.push({ name: `${name} as printed`, value: t.reportedMBps, unit: 'MB/s (KiB/s ÷ 1000)' })
    metrics.push({ name: `${name}`, value: t.MBps, unit: 'MB/s' })
    metrics.push({ name: `${name} IOPS`, value: t.iops, unit: 'IOPS' })
    if (t.latencyUs !== null) metrics.push({ name: `${name} mean latency`, value: t.latencyUs, unit: 'µs' })
    const rate = t.MBps * 1e6
    if (!(rate > 0)) continue
    const seconds = r.measureSeconds ?? (r.testBytes !== null ? r.testBytes / rate : 1)
    const bytes = Math.round(rate * seconds)
    const ops = Math.round(t.iops * seconds)
    phases.push({ name, bytes, ops, seconds, cpuSeconds: 0 })
    // a mixed test reads and writes: KDiskMark prints one figure, counted here as read
    if (t.section === 'write') {
      writeBytes += bytes
      writeOps += ops
    } else {
      readBytes += bytes
      readOps += ops
    }
  }
  const seconds = phases.reduce((a, p) => a + p.seconds, 0)
  const notes = [
    'MB/s corrected: KDiskMark prints fio’s bw (KiB/s) / 1000; the phases use × 1.024 (bytes / 10^6)',
    r.measureSeconds !== null
      ? `phase times: the ${r.measureSeconds} s measuring time; bytes = rate × time`
      : 'phase times: the test file size / rate (no measuring time printed)',
  ]
  if (r.profile) notes.push(`profile: ${r.profile}`)
  if (r.runs !== null) notes.push(`KDiskMark ran each test ${r.runs} times and reports one figure`)
  if (r.date) notes.push(`date: ${r.date}`)
  if (r.os) notes.push(`OS: ${r.os}`)
  if (r.fioVersion) notes.push(`fio ${r.fioVersion}`)
  const run = emptyRun({
    label: o.label ?? baseLabel(file),
    tool: 'KDiskMark',
    version: r.version,
    file,
    scheduler: o.scheduler,
    device: o.device,
    seconds,
    notes,
  })
  run.processes.push(
    measuredProcess({
      name: 'kdiskmark',
      pid: 1,
      readBytes,
      writeBytes,
      seconds,
      ops: readOps + writeOps,
      phases,
    }),
  )
  totalsFromBytes(run, { readBytes, writeBytes, readOps, writeOps })
  return [{ run, metrics, line: r.tests[0]?.line }]
}
