import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { ExperimentResult } from '../../shared/experiment/compare'
import {
  DEFAULT_QUICK_SETS,
  QUICK_DEFAULTS,
  QUICK_TEST_SETS,
  QuickTestError,
  findQuickSets,
  quickSizeBytes,
  quickTestSpec,
} from '../../shared/experiment/quick-tests'
import type { QuickTestOptions, QuickTestSet } from '../../shared/experiment/quick-tests'
import { quickSummary } from '../../shared/experiment/quick-summary'
import type { QuickSummary } from '../../shared/experiment/quick-summary'
import { validateSpec } from '../../shared/experiment/validate'
import type { ResolvedSpec } from '../../shared/experiment/resolved'
import { ExperimentRunner } from '../../main/services/experiments'
import { resolveRealSpec } from '../../main/services/real/real-spec'
import { ProgressBar } from '../progress'
import { runName } from '../until-stable'
import type { CliCommand, CliIo } from '../command'
import { InputError } from '../spec-file'
import { num, renderTable } from '../table'
import { checkWork } from '../work-check'
import { realArgOptions, realExperimentOptions, runRealSpec } from './run-real'

/**
 * `iosched-lab quick [SET…]`: the standard quick tests (KDiskMark's and CrystalDiskMark's sets, and
 * profiles of several fio jobs; shared/experiment/quick-tests.ts), each an ordinary experiment,
 * simulated on a device preset or run for real by `run --real`'s own runner; a disk-mark-like
 * summary (rows: tests; per scheduler: read MB/s, write MB/s, IOPS), or run's table per set.
 */
export const quickCommand: CliCommand = {
  name: 'quick',
  usage: [
    'quick [SET…] [--json] [--tables]   the standard quick tests (KDiskMark’s SEQ1M Q8T1 … and fio profiles) in one experiment',
    `      [--preset DEVICE_PRESET]      simulated on this device preset (default ${QUICK_DEFAULTS.preset}); --list: the sets`,
    '      [--schedulers a,b,…]          to compare (default: none, mq-deadline, kyber, bfq)',
    '      [--measure S] [--interval S] [--repetitions N]   per test (default 5 s, 5 s, 1)',
    '      [--size SIZE]                 the test files together, shared by the sets (default 1G, KDiskMark’s)',
    '      [--real [run --real’s options]]   for real with fio (a scratch loop device, --dir DIR: a test file there,',
    '                                    or --device DEV --confirm DEV)',
  ],
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        ...realArgOptions,
        list: { type: 'boolean' },
        tables: { type: 'boolean' },
        preset: { type: 'string' },
        schedulers: { type: 'string' },
        measure: { type: 'string' },
        interval: { type: 'string' },
        size: { type: 'string' },
        repetitions: { type: 'string' },
        'no-why': { type: 'boolean' },
      },
      allowPositionals: true,
    })
    if (values.list) {
      io.out(listText())
      return 0
    }
    if (values.csv)
      throw new InputError(['quick: --csv is not offered; use --json, or run a set’s spec with run --csv'])
    const sets = chooseSets(positionals)
    const o = quickOptions(values)
    const doc = quickTestSpec(sets, o)
    const where = 'quick'
    const bad = (issues: { path: string; message: string }[]): InputError =>
      new InputError(issues.map((i) => `${where}: ${i.path ? `${i.path}: ` : ''}${i.message}`))
    let result: ExperimentResult
    let notes: string[] = []
    let failed: boolean
    if (values.real) {
      const v = resolveRealSpec(doc)
      if (!v.ok) throw bad(v.issues)
      // run --real's own runner: the same target, preview, safety and restoring of the device
      const done = await runRealSpec(
        v.spec,
        v.kernelOnly,
        realExperimentOptions(values),
        values,
        io,
        where,
        doc,
      )
      if (typeof done === 'number') return done
      ;({ both: result, failed } = done)
      notes = done.real.real.notes
    } else {
      const v = validateSpec(doc)
      if (!v.ok) throw bad(v.issues)
      checkWork(where, v.spec, values['allow-large'])
      ;({ result, failed } = await simulate(v.spec, values, io))
    }
    const { jsonDocument, table } = await import('./run')
    const summary = quickSummary(sets, result)
    if (values.json)
      io.out(
        JSON.stringify(
          {
            schema: 'iosched-lab/quick-output@1',
            sets: sets.map((s) => ({ id: s.id, title: s.title, kind: s.kind })),
            summary,
            spec: doc,
            result: jsonDocument(result),
            notes,
          },
          null,
          2,
        ),
      )
    else {
      if (values.tables) io.out(`${table(result)}\n`)
      io.out(summaryText(summary, title(result.spec, o, Boolean(values.real), values.dir)))
      for (const n of notes) io.out(`note: ${n}`)
    }
    return failed ? 1 : 0
  },
}

function chooseSets(ids: string[]): QuickTestSet[] {
  try {
    return findQuickSets(ids.length > 0 ? ids : DEFAULT_QUICK_SETS)
  } catch (e) {
    if (e instanceof QuickTestError) throw new InputError([`quick: ${e.message}`])
    throw e
  }
}

function quickOptions(v: {
  preset?: string
  schedulers?: string
  measure?: string
  interval?: string
  size?: string
  repetitions?: string
}): QuickTestOptions {
  const seconds = (s: string | undefined, flag: string, min: number): number | undefined => {
    if (s === undefined) return undefined
    const n = Number(s)
    if (s.trim() === '' || !Number.isFinite(n) || n < min)
      throw new InputError([`quick: ${flag} expects seconds ≥ ${min}, got "${s}"`])
    return n
  }
  const o: QuickTestOptions = {}
  if (v.preset !== undefined) o.preset = v.preset
  if (v.schedulers !== undefined) {
    const list = v.schedulers.split(',').map((s) => s.trim())
    if (list.some((s) => s === ''))
      throw new InputError([`quick: --schedulers expects names separated by commas, got "${v.schedulers}"`])
    o.schedulers = list
  }
  o.measureSeconds = seconds(v.measure, '--measure', 0.001)
  o.intervalSeconds = seconds(v.interval, '--interval', 0)
  if (v.size !== undefined)
    try {
      o.sizeBytes = quickSizeBytes(v.size)
    } catch (e) {
      if (e instanceof QuickTestError) throw new InputError([`quick: --size ${e.message}`])
      throw e
    }
  if (v.repetitions !== undefined) {
    const n = Number(v.repetitions)
    if (!Number.isInteger(n) || n < 1 || n > 1000)
      throw new InputError([`quick: --repetitions expects a whole number 1–1000, got "${v.repetitions}"`])
    o.repetitions = n
  }
  return o
}

async function simulate(
  spec: ResolvedSpec,
  values: { jobs?: string; 'no-why'?: boolean },
  io: CliIo,
): Promise<{ result: ExperimentResult; failed: boolean }> {
  let jobs: number | undefined
  if (values.jobs !== undefined) {
    jobs = Number(values.jobs)
    if (!Number.isInteger(jobs) || jobs < 0)
      throw new InputError([`quick: --jobs expects a whole number ≥ 0, got "${values.jobs}"`])
  }
  const bar = new ProgressBar()
  const runner = new ExperimentRunner()
  const stop = (): void => {
    runner.cancel()
    bar.done()
    io.err('cancelled')
    process.exit(130)
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  const failures: string[] = []
  try {
    const result = await runner.run(
      spec,
      {
        progress: (label, rep, f, s) => bar.update(runName(spec, label, rep), f, s, spec.stop.maxSeconds),
        failed: (label, rep, m) => failures.push(`${runName(spec, label, rep)}: ${m}`),
      },
      { jobs, why: !values['no-why'] },
    )
    return { result, failed: failures.length > 0 }
  } finally {
    bar.done()
    process.off('SIGINT', stop)
    process.off('SIGTERM', stop)
    for (const f of failures) io.err(`run failed: ${f}`)
  }
}

function title(spec: ResolvedSpec, o: QuickTestOptions, real: boolean, dir?: string): string {
  const m = o.measureSeconds ?? QUICK_DEFAULTS.measureSeconds
  // the sets' files share the size (quick-tests.ts): one test file, or several of one size
  const files = spec.files
  const mib = (b: number): string => `${num(b / 2 ** 20)} MiB`
  const size =
    files.length === 1
      ? `${mib(files[0].size)} test file`
      : `${files.length} test files of ${mib(files[0].size)}`
  const reps = spec.repetitions > 1 ? `, mean of ${spec.repetitions} runs` : ''
  const where = real
    ? `for real with fio${dir !== undefined ? ` on a test file in ${resolve(dir)}` : ''}`
    : `simulated on ${spec.device.preset}, host ${spec.host.preset}`
  return `Quick tests — ${where}; ${m} s per test, ${size}${reps}. MB = 10^6 bytes.`
}

/** The disk-mark-like table: a row per test; per scheduler, read MB/s, write MB/s and IOPS (read/write). */
export function summaryText(s: QuickSummary, heading: string): string {
  const header = ['test']
  for (const c of s.columns) header.push(`${c} read MB/s`, `${c} write MB/s`, `${c} IOPS r/w`)
  const rows = s.rows.map((r) => {
    const cells = [r.test]
    for (const c of s.columns) {
      const x = r.cells[c]
      if (!x) cells.push('-', '-', '-')
      else cells.push(num(x.readMBps), num(x.writeMBps), `${num(x.readIops)}/${num(x.writeIops)}`)
    }
    return cells
  })
  return `${heading}\n\n${renderTable(header, rows, ['l'])}`
}

function listText(): string {
  const rows = QUICK_TEST_SETS.map((s) => [
    s.id,
    DEFAULT_QUICK_SETS.includes(s.id) ? 'yes' : '',
    s.kind === 'diskmark'
      ? `${s.title}: ${s.summary}`
      : `${s.title}: ${s.jobs.map((j) => j.name).join(' + ')}`,
  ])
  return `QUICK TEST SETS (iosched-lab quick SET…; default: those marked)\n\n${renderTable(['set', 'default', 'what'], rows, ['l', 'l', 'l'])}`
}
