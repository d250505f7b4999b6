import type { LabelSummary } from '../experiment/compare'
import { runKind } from '../experiment/result'
import type { RunResult } from '../experiment/result'
import { isNoisy } from '../metrics/compare-runs'
import type { Summary } from '../metrics/stats'
import { csvCell } from './escape'

/** One row per run and process (a run without processes — a vmstat log — gets one row). Units in the column names. */
export function runsCsv(runs: readonly RunResult[]): string {
  const header = [
    'label',
    'scheduler',
    'source',
    'repetition',
    'device',
    'tool',
    'run_seconds',
    'process',
    'bytes',
    'read_bytes',
    'write_bytes',
    'seconds',
    'MBps',
    'ops',
    'finished',
    'p50_ms',
    'p90_ms',
    'p99_ms',
    'p999_ms',
    'max_ms',
    'mean_ms',
    'device_read_MBps',
    'device_write_MBps',
    'device_read_iops',
    'device_write_iops',
    'utilisation',
    // added after the others, so the columns before keep their places
    'iops',
    'p95_ms',
    'kind',
  ]
  const lines = [header.join(',')]
  for (const r of runs) {
    const head = [r.label, r.scheduler, r.source, r.repetition, r.device, r.imported?.tool ?? '', r.seconds]
    const t = r.totals
    const tail = [t.readMBps, t.writeMBps, t.readIops, t.writeIops, t.utilisation]
    const procs = r.processes.length > 0 ? r.processes : [null]
    for (const p of procs) {
      const mid = p
        ? [
            p.name,
            p.bytes,
            p.readBytes,
            p.writeBytes,
            p.seconds,
            p.MBps,
            p.ops,
            p.finished,
            p.latencyMs.p50,
            p.latencyMs.p90,
            p.latencyMs.p99,
            p.latencyMs.p999,
            p.latencyMs.max,
            p.latencyMs.mean,
          ]
        : Array<null>(14).fill(null)
      const added = [p && p.seconds > 0 ? p.ops / p.seconds : null, p ? p.latencyMs.p95 : null, runKind(r)]
      lines.push([...head, ...mid, ...tail, ...added].map(csvCell).join(','))
    }
  }
  return lines.join('\n') + '\n'
}

const STATS = ['mean', 'median', 'stddev', 'ci95', 'min', 'max', 'cv'] as const

/**
 * One row per scheduler label and process, each figure's statistics over the repetitions
 * (`MBps_mean`, `MBps_stddev`, `MBps_ci95` …) and the noisy flag (coefficient of variation of the
 * process's time over 5 %).
 */
export function summaryCsv(summary: readonly LabelSummary[], runs: readonly RunResult[] = []): string {
  const figures = ['seconds', 'MBps', 'p50_ms', 'p99_ms', 'max_ms'] as const
  const header = ['label', 'scheduler', 'source', 'repetitions', 'process', 'finished', 'noisy']
  for (const f of figures) for (const s of STATS) header.push(`${f}_${s}`)
  for (const f of ['device_read_MBps', 'device_write_MBps']) for (const s of STATS) header.push(`${f}_${s}`)
  // added after the others, so the columns before keep their places
  const added = ['IOPS', 'p95_ms', 'p999_ms', 'device_read_IOPS', 'device_write_IOPS'] as const
  for (const f of added) for (const s of STATS) header.push(`${f}_${s}`)
  header.push('kind')
  const lines = [header.join(',')]
  const stats = (x: Summary): number[] => STATS.map((k) => x[k])
  for (const s of summary)
    for (const p of s.processes.length > 0 ? s.processes : [null]) {
      const seconds = p ? secondsOf(runs, s.label, p.name) : []
      const row: Array<string | number | boolean | null> = [
        s.label,
        s.scheduler,
        s.source,
        s.repetitions,
        p?.name ?? null,
        p ? p.finished : null,
        p ? isNoisy(seconds.length > 0 ? seconds : []) : null,
      ]
      if (p)
        row.push(...[p.seconds, p.MBps, p.latencyMs.p50, p.latencyMs.p99, p.latencyMs.max].flatMap(stats))
      else row.push(...Array<null>(figures.length * STATS.length).fill(null))
      row.push(...stats(s.device.readMBps), ...stats(s.device.writeMBps))
      if (p) row.push(...[p.IOPS, p.latencyMs.p95, p.latencyMs.p999].flatMap(stats))
      else row.push(...Array<null>(3 * STATS.length).fill(null))
      row.push(...stats(s.device.readIops), ...stats(s.device.writeIops), s.kind)
      lines.push(row.map(csvCell).join(','))
    }
  return lines.join('\n') + '\n'
}

/** A process's time in each repetition of a label (instances folded by name prefix). */
export function secondsOf(runs: readonly RunResult[], label: string, process: string): number[] {
  return runs
    .filter((r) => r.label === label)
    .map((r) => {
      const ps = r.processes.filter((p) => p.name === process || p.name.startsWith(`${process}/`))
      return ps.length > 0 ? Math.max(...ps.map((p) => p.seconds)) : NaN
    })
    .filter((x) => Number.isFinite(x))
}
