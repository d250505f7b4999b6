import type { DdSummary } from '../formats/dd'
import { baseLabel, emptyRun, measuredProcess } from './empty-run'
import type { ImportOptions, ImportedRun, Metric } from './types'

/**
 * One run per dd summary, one process `dd`. dd does not say which side of the copy was the
 * device under test, so its bytes count as neither read nor written at the device (totals stay 0)
 * and a note says so. Summaries with different block sizes get their own labels (`… bs=64k`);
 * the same block size again is a repetition.
 */
export function ddRuns(summaries: DdSummary[], file: string, o: ImportOptions): ImportedRun[] {
  const blockOf = (s: DdSummary): number | null => {
    const r = s.recordsIn ?? s.recordsOut
    return r && r.full > 0 && r.partial === 0 ? s.bytes / r.full : null
  }
  const blocks = new Set(summaries.map(blockOf))
  const seen = new Map<string, number>()
  const base = o.label ?? baseLabel(file)
  return summaries.map((s) => {
    const bs = blockOf(s)
    const label = blocks.size > 1 && bs !== null ? `${base} bs=${sizeName(bs)}` : base
    const repetition = seen.get(label) ?? 0
    seen.set(label, repetition + 1)
    const records = s.recordsOut ?? s.recordsIn
    const ops = records ? records.full + records.partial : 0
    const run = emptyRun({
      label,
      tool: s.flavour === 'gnu' ? 'GNU dd' : 'BSD dd',
      file,
      repetition,
      scheduler: o.scheduler,
      device: o.device,
      seconds: s.seconds,
      notes: [
        `line ${s.line}`,
        "dd does not say which side was the device: its bytes are the process's, the device totals are left at 0",
      ],
    })
    const p = measuredProcess({ name: 'dd', pid: 1, readBytes: 0, writeBytes: 0, seconds: s.seconds, ops })
    p.bytes = s.bytes
    p.MBps = s.seconds > 0 ? s.bytes / 1e6 / s.seconds : 0
    run.processes.push(p)
    const metrics: Metric[] = [
      { name: 'bytes', value: s.bytes, unit: 'bytes' },
      { name: 'time', value: s.seconds, unit: 's' },
      { name: 'throughput', value: p.MBps, unit: 'MB/s' },
    ]
    if (s.reported)
      metrics.push({ name: 'throughput as printed', value: s.reported.value, unit: s.reported.unit })
    if (bs !== null) metrics.push({ name: 'block size', value: bs, unit: 'bytes' })
    if (s.recordsIn)
      metrics.push({ name: 'records in', value: s.recordsIn.full + s.recordsIn.partial, unit: 'blocks' })
    if (s.recordsOut)
      metrics.push({ name: 'records out', value: s.recordsOut.full + s.recordsOut.partial, unit: 'blocks' })
    return { run, metrics, line: s.line }
  })
}

export function sizeName(bytes: number): string {
  for (const [u, v] of [
    ['g', 2 ** 30],
    ['m', 2 ** 20],
    ['k', 2 ** 10],
  ] as const)
    if (bytes >= v && bytes % v === 0) return `${bytes / v}${u}`
  return `${bytes}`
}
