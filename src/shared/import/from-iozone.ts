import type { PhaseResult } from '../host/program'
import type { IozoneReport } from '../formats/iozone'
import { baseLabel, emptyRun, measuredProcess, totalsFromBytes } from './empty-run'
import { sizeName } from './from-dd'
import type { ImportOptions, ImportedRun, Metric } from './types'

const WRITES = new Set(['write', 'rewrite', 'random write', 'record rewrite', 'fwrite', 'frewrite'])

/**
 * One run per row of iozone's table (a file size and a record size; the same pair again is a
 * repetition), one process `iozone` whose phases are the tests of the row, named as iozone's header
 * names them (`write`, `rewrite`, `read`, `reread`, `random read` …). Each phase moved the whole
 * file in records; its time is size / rate.
 */
export function iozoneRuns(reports: IozoneReport[], file: string, o: ImportOptions): ImportedRun[] {
  const rows = reports.flatMap((r) => r.rows.map((row) => ({ report: r, row })))
  const pairs = new Set(rows.map(({ row }) => `${row.fileKB}/${row.recordKB}`))
  const seen = new Map<string, number>()
  const base = o.label ?? baseLabel(file)
  return rows.map(({ report, row }) => {
    const label =
      pairs.size > 1 ? `${base} s=${sizeName(row.fileKB * 1024)} r=${sizeName(row.recordKB * 1024)}` : base
    const repetition = seen.get(label) ?? 0
    seen.set(label, repetition + 1)
    const bytes = row.fileKB * 1024
    const ops = Math.ceil(row.fileKB / row.recordKB)
    const phases: PhaseResult[] = []
    const notes = [`line ${row.line}`, 'phase times are size / rate: iozone reports rates, not times']
    const metrics: Metric[] = [
      { name: 'file size', value: row.fileKB, unit: 'kB' },
      { name: 'record size', value: row.recordKB, unit: 'kB' },
    ]
    let readBytes = 0
    let writeBytes = 0
    for (const test of report.tests) {
      const v = row.values[test]
      if (v === undefined) continue
      metrics.push({ name: test, value: v, unit: report.unit })
      if (!(v > 0)) {
        notes.push(`${test}: ${v} ${report.unit}: no phase`)
        continue
      }
      const seconds =
        report.unit === 'kB/s' ? row.fileKB / v : report.unit === 'ops/s' ? ops / v : (ops * v) / 1e6
      phases.push({ name: test, bytes, ops, seconds, cpuSeconds: 0 })
      if (WRITES.has(test)) writeBytes += bytes
      else readBytes += bytes
    }
    const seconds = phases.reduce((a, p) => a + p.seconds, 0)
    const run = emptyRun({
      label,
      tool: 'iozone',
      version: report.version,
      file,
      repetition,
      scheduler: o.scheduler,
      device: o.device,
      seconds,
      notes: report.command ? [...notes, `command: ${report.command}`] : notes,
    })
    run.processes.push(
      measuredProcess({
        name: 'iozone',
        pid: 1,
        readBytes,
        writeBytes,
        seconds,
        ops: ops * phases.length,
        phases,
      }),
    )
    totalsFromBytes(run, { readBytes, writeBytes })
    return { run, metrics, line: row.line }
  })
}
