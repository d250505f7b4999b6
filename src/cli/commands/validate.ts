import { writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { parseSize } from '../../shared/util/params'
import type { ValidateReport } from '../../shared/validate/report'
import { realPrerequisiteProblems } from '../../main/services/real/prerequisites'
import { RealExperimentRunner, RealRunError } from '../../main/services/real/real-experiment'
import { TargetRefused } from '../../main/services/real/target'
import { validateDevice } from '../../main/services/real/validate'
import type { ValidateWorkload } from '../../shared/validate/matrix'
import { VALIDATE_MATRIX } from '../../shared/validate/matrix'
import { parseValidateMatrix } from '../../shared/validate/matrix-file'
import type { CliCommand } from '../command'
import { InputError, readJsonFile } from '../spec-file'
import { num, renderTable, withCi } from '../table'

export const validateCommand: CliCommand = {
  name: 'validate',
  usage: [
    'validate [--device DEV --confirm DEV] [--preset FILE | --save-fingerprint FILE] [--quick] [--matrix FILE] [--only ID,…] [--seconds S] [--no-drift-check] [--no-bracket] [--json] [--out FILE]',
    "                                    the simulation against the kernel on a device: fingerprint, a fixed matrix × the kernel's schedulers, real and simulated, judged (root)",
  ],
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        device: { type: 'string' },
        confirm: { type: 'string' },
        'scratch-size': { type: 'string' },
        preset: { type: 'string' },
        quick: { type: 'boolean' },
        only: { type: 'string' },
        matrix: { type: 'string' },
        seconds: { type: 'string' },
        'min-repetitions': { type: 'string' },
        'max-repetitions': { type: 'string' },
        json: { type: 'boolean' },
        out: { type: 'string' },
        'save-fingerprint': { type: 'string' },
        'no-drift-check': { type: 'boolean' },
        'no-bracket': { type: 'boolean' },
      },
      allowPositionals: true,
    })
    if (positionals.length > 0) throw new InputError([`validate: unexpected argument "${positionals[0]}"`])
    if (values.preset !== undefined && values['save-fingerprint'] !== undefined)
      throw new InputError([
        'validate: --save-fingerprint saves the fingerprint made first; with --preset none is made (drop one of them)',
      ])
    const count = (v: string | undefined, what: string, lo: number, hi: number): number | undefined => {
      if (v === undefined) return undefined
      const n = Number(v)
      if (!(n >= lo && n <= hi)) throw new InputError([`validate: ${what} expects ${lo} … ${hi}, got "${v}"`])
      return n
    }
    const seconds = count(values.seconds, '--seconds', 0.5, 600)
    const minRepetitions = count(values['min-repetitions'], '--min-repetitions', 2, 50)
    const maxRepetitions = count(values['max-repetitions'], '--max-repetitions', 2, 100)
    let matrix: readonly ValidateWorkload[] = VALIDATE_MATRIX
    if (values.matrix !== undefined) {
      const m = parseValidateMatrix(readJsonFile(values.matrix))
      if (!m.ok) throw new InputError(m.problems.map((p) => `${values.matrix}: ${p}`))
      matrix = m.workloads
    }
    const only = values.only?.split(',').map((s) => s.trim())
    for (const id of only ?? [])
      if (!matrix.some((w) => w.id === id))
        throw new InputError([
          `validate: --only: no workload "${id}"; the matrix has ${matrix.map((w) => w.id).join(', ')}`,
        ])
    let scratch: number | undefined
    if (values['scratch-size'] !== undefined) {
      scratch = parseSize(values['scratch-size'])
      if (!(scratch > 0))
        throw new InputError([
          `validate: --scratch-size expects a size like 512M, got "${values['scratch-size']}"`,
        ])
    }
    const problems = realPrerequisiteProblems()
    if (problems.length > 0) {
      for (const p of problems) io.err(`iosched-lab: ${p}`)
      return 1
    }
    const runner = new RealExperimentRunner()
    const stop = (): void => {
      io.err('iosched-lab: cancelling: stopping fio and restoring the scheduler…')
      void runner.cancel().finally(() => process.exit(130))
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
    let report: ValidateReport
    try {
      report = await validateDevice(
        {
          target: values.device
            ? { kind: 'device', name: values.device, confirm: values.confirm }
            : { kind: 'scratch', sizeBytes: scratch },
          presetFile: values.preset,
          fingerprintOut: values['save-fingerprint'],
          quick: values.quick,
          only,
          ...(values.matrix !== undefined ? { matrix } : {}),
          seconds,
          minRepetitions,
          maxRepetitions,
          runner,
          driftCheck: !values['no-drift-check'],
          bracket: !values['no-bracket'],
        },
        {
          stage: (what, k, n) => io.err(`iosched-lab: validate ${k}/${n}: ${what}`),
          notice: (m) => io.err(`iosched-lab: ${m}`),
          failed: (label, rep, m) => io.err(`iosched-lab: ${label} #${rep + 1} failed: ${m}`),
        },
      )
    } catch (e) {
      if (e instanceof TargetRefused || e instanceof RealRunError) throw new InputError(e.message.split('\n'))
      throw e
    } finally {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
    }
    if (values.out) writeFileSync(values.out, JSON.stringify(report, null, 2) + '\n')
    io.out(values.json ? JSON.stringify(report, null, 2) : renderReport(report))
    return 0
  },
}

const pct = (x: number): string => (Number.isFinite(x) ? `${num(x * 100, 3)} %` : '-')

/** The report as text: per workload the cells and rankings, then the pairs, then the verdicts. */
export function renderReport(r: ValidateReport): string {
  const out: string[] = []
  out.push(`validate: ${r.target.description}, kernel ${r.kernel}${r.quick ? ' (quick)' : ''}`)
  out.push(
    `preset ${r.preset.name} (${r.preset.from}): its own sweep re-simulated within ${pct(r.preset.worstResidual)} at worst`,
  )
  for (const m of r.missingSchedulers ?? []) out.push(`not validated: ${m.scheduler} — ${m.reason}`)
  for (const w of r.workloads) {
    out.push('', `${w.id}: ${w.title}`)
    const rows = w.cells
      .filter((c) => c.metric === 'MBps')
      .map((c) => {
        const p99 = w.cells.find(
          (x) => x.metric === 'p99Ms' && x.scheduler === c.scheduler && x.process === c.process,
        )!
        const cdf = w.cdf.find((x) => x.scheduler === c.scheduler && x.process === c.process)
        return [
          c.scheduler,
          c.process,
          withCi(c.real.mean, c.real.ci95, c.real.n),
          num(c.simulated.mean),
          num(c.ratio),
          withCi(p99.real.mean, p99.real.ci95, p99.real.n),
          num(p99.simulated.mean),
          cdf ? pct(cdf.relative) : '-',
          `${w.runs[c.scheduler]?.real ?? 0}`,
        ]
      })
    out.push(
      renderTable(
        [
          'scheduler',
          'process',
          'real MB/s',
          'sim MB/s',
          'ratio',
          'real p99 ms',
          'sim p99 ms',
          'CDF dist',
          'runs',
        ],
        rows,
        ['l', 'l'],
      ),
    )
    out.push(
      `ranking by ${w.ranking.process} MB/s — real: ${w.ranking.real.join(' > ')}; simulated: ${w.ranking.simulated.join(' > ')}`,
    )
    for (const f of w.failed) out.push(`failed: ${f.scheduler}: ${f.message}`)
  }
  const sep = r.workloads.flatMap((w) => w.pairs.filter((p) => p.separable).map((p) => ({ w: w.id, p })))
  out.push('', 'scheduler pairs the kernel separated (beyond the noise):')
  out.push(
    renderTable(
      ['workload', 'process', 'metric', 'higher', 'lower', 'real diff', 'p, q (test, n)', 'simulated'],
      sep.map(({ w, p }) => [
        w,
        p.process,
        p.metric,
        p.a,
        p.b,
        pct(p.realDifference),
        `${num(p.p, 2)}, ${num(p.q ?? p.p, 2)} (${p.test ?? 'welch'}, ${p.n ?? '–'})`,
        `${p.simulated} (${pct(p.simulatedDifference)})`,
      ]),
      ['l', 'l', 'l', 'l', 'l'],
    ),
  )
  if (r.drift) {
    out.push(
      '',
      `the machine since the fingerprint (its sweep measured again, ${num(r.drift.seconds)} s a point):`,
    )
    out.push(
      renderTable(
        ['point', 'IOPS then', 'IOPS now', 'change', 'p50 ms then', 'p50 ms now', 'change', 'noise', ''],
        r.drift.points.map((p) => [
          p.name,
          num(p.fingerprint.iops),
          num(p.now.iops),
          pct(p.change.iops),
          num(p.fingerprint.p50Ms),
          num(p.now.p50Ms),
          pct(p.change.p50),
          pct(p.noise),
          p.beyondNoise ? 'moved' : '',
        ]),
        ['l'],
      ),
    )
  }
  const s = r.summary
  const mark = (ok: boolean): string => (ok ? 'met' : 'NOT met')
  out.push('')
  out.push(
    s.separablePairs > 0
      ? `ordered as the kernel: ${s.orderedSame} of ${s.separablePairs} separable pairs (${pct(s.orderedShare)}; target ≥ ${pct(s.targets.orderedShare)}: ${mark(s.met.orderedShare)})`
      : `ordered as the kernel: the kernel separated none of the ${s.pairs} pairs beyond the noise, nothing to judge (target ≥ ${pct(s.targets.orderedShare)})`,
  )
  if (s.uncorrected)
    out.push(
      `  (each pair tested alone, p < 0.05: ${s.uncorrected.orderedSame} of ${s.uncorrected.separablePairs}; ${s.pairs} pairs were tested)`,
    )
  out.push(
    `latency CDF distance, median over ${s.cells} cells: ${pct(s.medianCdfRelative)} of the real mean (target ≤ ${pct(s.targets.medianCdfRelative)}: ${mark(s.met.medianCdfRelative)})`,
  )
  out.push(
    `fingerprint re-simulated within ${pct(s.fingerprintWorstResidual)} (target ≤ ${pct(s.targets.fingerprintResidual)}: ${mark(s.met.fingerprintResidual)})`,
  )
  if (r.drift) {
    const moved = r.drift.points.filter((p) => p.beyondNoise).length
    out.push(
      `the machine moved by up to ${pct(r.drift.worst)} between the fingerprint and the end (${moved} of ${r.drift.points.length} points beyond their noise)`,
    )
  }
  if (r.startFit && r.preset.bracketed) {
    const f = r.startFit
    out.push(
      `judged on the fingerprint fitted over the validation's span (its sweep at the start and ${r.preset.bracketed.passesAfter} pass${r.preset.bracketed.passesAfter === 1 ? '' : 'es'} after the matrix, pooled); on the fit at the start alone: ${f.summary.orderedSame} of ${f.summary.separablePairs} pairs ordered, median CDF distance ${pct(f.summary.medianCdfRelative)}, re-simulated within ${pct(f.worstResidual)}`,
    )
  }
  return out.join('\n')
}
