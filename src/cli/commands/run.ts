import { summarizeRuns } from '../../shared/experiment/compare'
import type { ExperimentResult, LabelSummary } from '../../shared/experiment/compare'
import { groupProcesses } from '../../shared/experiment/process-groups'
import { ExperimentRunner } from '../../main/services/experiments'
import type { UntilStable } from '../../shared/experiment/resolved'
import { checkWork } from '../work-check'
import {
  describeStability,
  IDENTICAL_REPETITIONS,
  identicalRepetitions,
  stabilityOf,
} from '../../shared/experiment/stability'
import type { StabilityVerdict } from '../../shared/experiment/stability'
import type { RealRunResult } from '../../main/services/real/real-result'
import {
  runName,
  untilStableFrom,
  untilStableOptions,
  untilStableUsage,
  withUntilStable,
} from '../until-stable'
import { ProgressBar } from '../progress'
import { parseArgs } from 'node:util'
import type { CliCommand } from '../command'
import { InputError, loadSpec } from '../spec-file'
import { num, renderTable, withCi } from '../table'
import { realRunUsage, runRealCli } from './run-real'
import { kernelRows } from '../kernel-rows'
import { whyText } from '../../shared/report/why-text'

export interface RunOptions {
  format: 'table' | 'json' | 'csv'
  jobs?: number
  /** Repeat until stable (overrides the spec's `untilStable`). */
  untilStable?: UntilStable
  /** Run even beyond the work limits (`--allow-large`). */
  allowLarge?: boolean
  /** Keep each run's why (default true; `--no-why` saves its cost). */
  why?: boolean
}

export async function runCommand(
  path: string,
  o: RunOptions,
  out: (s: string) => void,
  err: (s: string) => void,
): Promise<number> {
  const spec = withUntilStable(loadSpec(path), o.untilStable)
  checkWork(path, spec, o.allowLarge)
  const bar = new ProgressBar()
  const runner = new ExperimentRunner()
  const stop = (): void => {
    runner.cancel()
    bar.done()
    err('cancelled')
    process.exit(130)
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  const failures: string[] = []
  let result: ExperimentResult
  try {
    result = await runner.run(
      spec,
      {
        progress: (label, rep, f, s) => bar.update(runName(spec, label, rep), f, s, spec.stop.maxSeconds),
        failed: (label, rep, m) => failures.push(`${runName(spec, label, rep)}: ${m}`),
      },
      { jobs: o.jobs, why: o.why ?? true },
    )
  } finally {
    bar.done()
    process.off('SIGINT', stop)
    process.off('SIGTERM', stop)
  }
  for (const f of failures) err(`run failed: ${f}`)
  if (o.format === 'json') out(JSON.stringify(jsonDocument(result), null, 2))
  else if (o.format === 'csv') out(csv(result.summary))
  else out(table(result))
  return failures.length > 0 ? 1 : 0
}

/** The documented `run --json` document (docs/run-json.md). */
export function jsonDocument(r: ExperimentResult) {
  const stability = r.spec.untilStable ? stabilityBySource(r) : null
  return {
    schema: 'iosched-lab/run-output@1',
    experiment: r.name,
    device: r.spec.device.preset,
    host: r.spec.host.preset,
    repetitions: r.spec.repetitions,
    untilStable: r.spec.untilStable,
    seed: r.spec.seed,
    schedulers: r.summary.map((s) => ({
      label: s.label,
      scheduler: s.scheduler,
      source: s.source,
      repetitions: s.repetitions,
      stability: stability?.get(`${s.source}:${s.label}`),
      tunables: r.spec.schedulers.find((x) => x.label === s.label)?.tunables ?? {},
      seconds: s.seconds.mean,
      processes: s.processes.map((p) => ({
        name: p.name,
        bytes: p.bytes.mean,
        seconds: p.seconds.mean,
        MBps: p.MBps.mean,
        IOPS: p.IOPS.mean,
        finished: p.finished === s.repetitions,
        latencyMs: {
          p50: p.latencyMs.p50.mean,
          p90: p.latencyMs.p90.mean,
          p95: p.latencyMs.p95.mean,
          p99: p.latencyMs.p99.mean,
          p999: p.latencyMs.p999.mean,
          max: p.latencyMs.max.mean,
          mean: p.latencyMs.mean.mean,
        },
        ci95: s.repetitions > 1 ? { seconds: p.seconds.ci95, MBps: p.MBps.ci95 } : undefined,
      })),
      device: {
        readMBps: s.device.readMBps.mean,
        writeMBps: s.device.writeMBps.mean,
        readIops: s.device.readIops.mean,
        writeIops: s.device.writeIops.mean,
        utilisation: s.device.utilisation.mean,
        meanSeekSectors: s.device.meanSeekSectors.mean,
        ci95:
          s.repetitions > 1
            ? { readMBps: s.device.readMBps.ci95, writeMBps: s.device.writeMBps.ci95 }
            : undefined,
      },
    })),
    // the spec as run: a report of this document says the workload and how to repeat it
    spec: r.spec,
    runs: r.runs,
  }
}

export function table(full: ExperimentResult): string {
  // one row per spec process: a workload's instances (rr/0 … rr/7) are folded together
  const r = { ...full, summary: summarizeRuns(full.runs.map(groupProcesses)) }
  const names = r.summary[0]?.processes.map((p) => p.name) ?? []
  const header = ['scheduler']
  for (const n of names) header.push(`${n} MB/s`, `${n} IOPS`, `${n} s`, `${n} p50/p95/p99/max ms`)
  header.push('dev rd MB/s', 'dev wr MB/s', 'dev rd IOPS', 'dev wr IOPS')
  const rows = r.summary.map((s) => row(s, names))
  const u = r.spec.untilStable
  const reps = u
    ? `, repeated until stable (throughput CV ≤ ${u.cvPercent} %, ${r.spec.repetitions}–${u.maxRepetitions} runs), mean ± 95 % CI`
    : r.spec.repetitions > 1
      ? `, ${r.spec.repetitions} repetitions, mean ± 95 % CI`
      : ''
  const title = `${r.name} — ${r.spec.device.preset}, host ${r.spec.host.preset}${reps}`
  let note = unfinishedNote(full, r.summary)
  const same = r.summary.filter(identicalRepetitions)
  if (same.length > 0)
    note +=
      `\n${IDENTICAL_REPETITIONS[0].toUpperCase()}${IDENTICAL_REPETITIONS.slice(1)}: ` +
      `${same.map((s) => (s.source === 'real' ? `${s.label} (real)` : s.label)).join(', ')} — every run the same, ` +
      'no interval to show; random choices in the workload or device variability vary them (docs/spec.md, "Determinism")'
  if (u)
    for (const [key, v] of stabilityBySource(full))
      note += `\n${describeStability(key.startsWith('real:') ? { ...v, label: `${v.label} (real)` } : v)}`
  const why = whyText(full.runs, full.spec.stop.processes[0], 100)
  return `${title}\n\n${renderTable(header, rows, ['l'])}${kernelRows(full)}${note}${why ? `\n\n${why}` : ''}`
}

/**
 * The stop processes that did not finish, grouped by the time limit their runs had: the spec's
 * stop.maxSeconds, or for real runs the limit they ran with (`--max-seconds`).
 */
function unfinishedNote(full: ExperimentResult, summary: LabelSummary[]): string {
  const byLimit = new Map<number, string[]>()
  for (const s of summary) {
    const run = full.runs.find((x) => x.label === s.label && x.source === s.source) as
      Partial<RealRunResult> | undefined
    const limit = run?.real?.maxSeconds ?? full.spec.stop.maxSeconds
    for (const p of s.processes)
      if (p.finished < s.repetitions && full.spec.stop.processes.includes(p.name))
        byLimit.set(limit, [
          ...(byLimit.get(limit) ?? []),
          `${s.source === 'real' ? `${s.label} (real)` : s.label}: ${p.name}`,
        ])
  }
  return [...byLimit]
    .map(([limit, names]) => `\nnot finished within ${limit} s: ${names.join(', ')}`)
    .join('')
}

/**
 * Per source and scheduler label (`simulated:noop`, `real:noop`), how repeating until stable
 * ended: simulated and real runs are judged apart. Entries without runs are left out.
 */
function stabilityBySource(r: ExperimentResult): Map<string, StabilityVerdict> {
  const out = new Map<string, StabilityVerdict>()
  for (const src of new Set(r.runs.map((x) => x.source)))
    for (const v of stabilityOf(
      r.spec,
      r.runs.filter((x) => x.source === src),
    ))
      if (v.runs > 0) out.set(`${src}:${v.label}`, v)
  return out
}

function row(s: LabelSummary, names: string[]): string[] {
  const cells = [s.source === 'real' ? `${s.label} (real)` : s.label]
  for (const n of names) {
    const p = s.processes.find((x) => x.name === n)
    if (!p) {
      cells.push('-', '-', '-', '-')
      continue
    }
    const l = p.latencyMs
    cells.push(
      withCi(p.MBps.mean, p.MBps.ci95, s.repetitions),
      num(p.IOPS.mean),
      withCi(p.seconds.mean, p.seconds.ci95, s.repetitions),
      `${num(l.p50.mean)}/${num(l.p95.mean)}/${num(l.p99.mean)}/${num(l.max.mean)}`,
    )
  }
  cells.push(
    withCi(s.device.readMBps.mean, s.device.readMBps.ci95, s.repetitions),
    withCi(s.device.writeMBps.mean, s.device.writeMBps.ci95, s.repetitions),
    num(s.device.readIops.mean),
    num(s.device.writeIops.mean),
  )
  return cells
}

export function csv(summary: LabelSummary[]): string {
  const lines = [
    'label,scheduler,repetitions,process,bytes,seconds,MBps,p50_ms,p90_ms,p99_ms,p999_ms,max_ms,device_read_MBps,device_write_MBps',
  ]
  const q = (s: string): string => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s)
  for (const s of summary)
    for (const p of s.processes)
      lines.push(
        [
          q(s.label),
          s.scheduler,
          s.repetitions,
          q(p.name),
          p.bytes.mean,
          p.seconds.mean,
          p.MBps.mean,
          p.latencyMs.p50.mean,
          p.latencyMs.p90.mean,
          p.latencyMs.p99.mean,
          p.latencyMs.p999.mean,
          p.latencyMs.max.mean,
          s.device.readMBps.mean,
          s.device.writeMBps.mean,
        ].join(','),
      )
  return lines.join('\n')
}

export const runCli: CliCommand = {
  name: 'run',
  usage: [
    'run SPEC.json [--json|--csv]        run an experiment in simulation and print the side-by-side table',
    '      [--jobs N]                    simulation processes at once (default: cores; 0 = in this process)',
    '      [--allow-large]               run even beyond the work limits (docs/spec.md, "Work limits")',
    '      [--no-why]                    without the why (request stages, time split, explanation): ~10 % faster',
    ...untilStableUsage,
    ...realRunUsage,
  ],
  async run(args, io) {
    if (args.includes('--real')) return runRealCli(args, io)
    const { values, positionals } = parseArgs({
      args,
      options: {
        json: { type: 'boolean' },
        csv: { type: 'boolean' },
        jobs: { type: 'string' },
        'allow-large': { type: 'boolean' },
        'no-why': { type: 'boolean' },
        ...untilStableOptions,
      },
      allowPositionals: true,
    })
    if (positionals.length !== 1)
      throw new InputError([`run: expected one spec file, got ${positionals.length}`])
    if (values.json && values.csv) throw new InputError(['run: choose one of --json and --csv'])
    let jobs: number | undefined
    if (values.jobs !== undefined) {
      jobs = Number(values.jobs)
      if (!Number.isInteger(jobs) || jobs < 0)
        throw new InputError([`run: --jobs expects a whole number ≥ 0, got "${values.jobs}"`])
    }
    const untilStable = untilStableFrom(values)
    const format = values.json ? 'json' : values.csv ? 'csv' : 'table'
    return runCommand(
      positionals[0],
      { format, jobs, untilStable, allowLarge: values['allow-large'], why: !values['no-why'] },
      io.out,
      io.err,
    )
  },
}
