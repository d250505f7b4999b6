import type { PhaseResult } from '../host/program'
import { BONNIE_TESTS } from '../formats/bonnie-csv'
import type { BonnieRecord, BonnieTest } from '../formats/bonnie-csv'
import { baseLabel, emptyRun, measuredProcess, totalsFromBytes } from './empty-run'
import type { ImportOptions, ImportedRun, Metric } from './types'

const BLOCK_TESTS: readonly BonnieTest[] = ['putc', 'put_block', 'rewrite', 'getc', 'get_block']
/** bonnie++ 1.03's defaults, when the line does not say. */
const DEFAULT_CHUNK = 8192
const DEFAULT_SEEKS = 8000

/**
 * One run per CSV line (`-x N` lines are repetitions), one process `bonnie++` whose phases are
 * the tests bonnie++ timed, named as the simulated bonnie++ names them. A `+++++` test has no
 * phase (its time is unknown) and is listed in the notes; its metrics are null.
 */
export function bonnieRuns(records: BonnieRecord[], file: string, o: ImportOptions): ImportedRun[] {
  const seen = new Map<string, number>()
  return records.map((r) => {
    const key = `${r.machine}|${r.size}`
    const repetition = seen.get(key) ?? 0
    seen.set(key, repetition + 1)
    const chunk = r.chunkBytes ?? DEFAULT_CHUNK
    const seeks = r.seeks ?? DEFAULT_SEEKS
    const notes: string[] = [`line ${r.line}: bonnie++ CSV format ${r.format}, machine "${r.machine}"`]
    const phases: PhaseResult[] = []
    const metrics: Metric[] = [
      { name: 'file size', value: r.sizeBytes, unit: 'bytes' },
      { name: 'chunk size', value: chunk, unit: 'bytes' },
    ]
    let readBytes = 0
    let writeBytes = 0
    for (const t of BONNIE_TESTS) {
      const m = r.tests[t]
      const isBlock = BLOCK_TESTS.includes(t)
      metrics.push({ name: t, value: m.rate, unit: isBlock ? 'K/s' : '/s' })
      metrics.push({ name: `${t} CPU`, value: m.cpuPercent, unit: '%' })
      if (m.latencyMs !== null) metrics.push({ name: `${t} latency`, value: m.latencyMs, unit: 'ms' })
      if (m.rate === null) {
        if (m.tooFast) notes.push(`${t}: +++++ (too fast to measure): no phase`)
        continue
      }
      if (!(m.rate > 0)) {
        notes.push(`${t}: rate 0: no phase`)
        continue
      }
      let bytes = 0
      let ops: number
      let seconds: number
      if (isBlock) {
        bytes = r.sizeBytes
        seconds = bytes / 1024 / m.rate
        ops = t === 'putc' || t === 'getc' ? bytes : Math.ceil(bytes / chunk)
        if (t === 'putc' || t === 'put_block') writeBytes += bytes
        else if (t === 'rewrite') {
          readBytes += bytes
          writeBytes += bytes
        } else readBytes += bytes
      } else if (t === 'seeks') {
        ops = seeks
        seconds = ops / m.rate
        bytes = ops * chunk
        readBytes += bytes
      } else {
        if (r.files === null || r.files === 0) continue
        ops = r.files * 1024
        seconds = ops / m.rate
      }
      const cpuSeconds = m.cpuPercent === null ? 0 : (m.cpuPercent / 100) * seconds
      phases.push({ name: t, bytes, ops, seconds, cpuSeconds })
    }
    if (!r.seeks)
      notes.push(`seeks: ${DEFAULT_SEEKS} assumed (bonnie++'s default; format ${r.format} does not say)`)
    const seconds = phases.reduce((a, p) => a + p.seconds, 0)
    const run = emptyRun({
      label: o.label ?? baseLabel(file),
      tool: 'bonnie++',
      version: r.version ?? '1.03',
      file,
      repetition,
      scheduler: o.scheduler,
      device: o.device,
      seconds,
      notes: [...notes, 'phase times are size / rate: bonnie++ reports rates, not times'],
    })
    run.processes.push(
      measuredProcess({
        name: 'bonnie++',
        pid: 1,
        readBytes,
        writeBytes,
        seconds,
        ops: phases.reduce((a, p) => a + p.ops, 0),
        cpuSeconds: phases.reduce((a, p) => a + p.cpuSeconds, 0),
        phases,
      }),
    )
    totalsFromBytes(run, { readBytes, writeBytes })
    return { run, metrics, line: r.line }
  })
}
