import type { LmddSummary } from '../formats/lmdd'
import { baseLabel, emptyRun, measuredProcess } from './empty-run'
import type { ImportOptions, ImportedRun, Metric } from './types'

/**
 * One run per lmdd summary, one process named after lmdd's `label=` (else `lmdd`). Like dd, lmdd
 * does not say which side was the device: the device totals stay 0. With `rusage=1`, the CPU
 * time is the user + system time it printed.
 */
export function lmddRuns(summaries: LmddSummary[], file: string, o: ImportOptions): ImportedRun[] {
  const seen = new Map<string, number>()
  return summaries.map((s) => {
    const name = s.label.replace(/[:\s]+$/, '') || 'lmdd'
    const label = o.label ?? baseLabel(file)
    const key = `${label}|${name}`
    const repetition = seen.get(key) ?? 0
    seen.set(key, repetition + 1)
    const run = emptyRun({
      label,
      tool: 'lmdd',
      file,
      repetition,
      scheduler: o.scheduler,
      device: o.device,
      seconds: s.seconds,
      notes: [
        `line ${s.line}`,
        'lmdd does not say which side was the device: the device totals are left at 0; MB = 10^6 bytes',
      ],
    })
    const p = measuredProcess({
      name,
      pid: 1,
      readBytes: 0,
      writeBytes: 0,
      seconds: s.seconds,
      cpuSeconds: s.rusage ? s.rusage.sys + s.rusage.user : 0,
    })
    p.bytes = s.bytes
    p.MBps = s.seconds > 0 ? s.bytes / 1e6 / s.seconds : 0
    run.processes.push(p)
    const metrics: Metric[] = [
      { name: 'bytes', value: s.bytes, unit: 'bytes' },
      { name: 'time', value: s.seconds, unit: 's' },
      { name: 'throughput', value: p.MBps, unit: 'MB/s' },
      { name: 'throughput as printed', value: s.reportedMBps, unit: 'MB/s' },
    ]
    if (s.rusage) {
      metrics.push({ name: 'user CPU', value: s.rusage.user, unit: 's' })
      metrics.push({ name: 'system CPU', value: s.rusage.sys, unit: 's' })
    }
    return { run, metrics, line: s.line }
  })
}
