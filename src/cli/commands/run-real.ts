import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { ExperimentResult, LabelSummary } from '../../shared/experiment/compare'
import type { ResolvedSpec } from '../../shared/experiment/resolved'
import { runName, untilStableFrom, untilStableOptions, withUntilStable } from '../until-stable'
import { parseSize } from '../../shared/util/params'
import { ExperimentRunner } from '../../main/services/experiments'
import { combineRuns } from '../../main/services/real/combine'
import { checkExtraFioArgs, shellQuote } from '../../main/services/real/fio-command'
import { planOnFioServers, runOnFioServers } from '../../main/services/real/fio-client'
import { realPrerequisiteProblems } from '../../main/services/real/prerequisites'
import type { RealExperimentOptions } from '../../main/services/real/real-experiment'
import { RealExperimentRunner, RealRunError } from '../../main/services/real/real-experiment'
import { CancelledError } from '../../main/services/real/engine-plan'
import { previewRealRun } from '../../main/services/real/real-plan'
import type { RealExperimentResult } from '../../main/services/real/real-result'
import { resolveRealSpec } from '../../main/services/real/real-spec'
import { TargetRefused } from '../../main/services/real/target'
import { TranslationError } from '../../main/services/real/fio-job'
import { engineByName, engineNames, toolsFor } from '../../main/services/real/engines'
import type { CliIo } from '../command'
import { companionDocument, companionHost } from '../../main/services/real/companion'
import { userPresetDir } from '../../main/services/user-presets'
import { InputError, readJsonFile, refuseGalleryEntry } from '../spec-file'
import { checkWork } from '../work-check'

/** Usage lines of `run --real` (appended to `run`'s). */
export const realRunUsage = [
  'run SPEC.json --real                the same experiment on a real device with fio and the kernel’s schedulers (root)',
  '      [--device DEV --confirm DEV]  a whole device instead of a scratch loop device (writes need the typed name)',
  '      [--scratch-size SIZE] [--scratch-dir DIR]   the scratch loop device (default: sized for the spec, in /tmp)',
  '      [--dir DIR]                   on a test file of the lab’s own in DIR (removed afterwards); the scheduler of the disk under DIR is switched',
  '      [--also-simulate]             simulated and real runs side by side in one table (--allow-large: beyond the work limits)',
  '      [--max-seconds S] [--ramp S]  time limit of each run; seconds left out of fio’s statistics',
  '      [--fio-arg=--OPT=V]…          extra fio options; [--show-job] print the job file and command; [--dry-run]',
  '      [--engine fio|dd|bonnie++] [--sample-ms MS] [--no-drop-caches]',
  '      [--no-trace]                  no blktrace of the runs (by default, when installed: request stages per process)',
  '      [--fio-server HOST]… --remote-target PATH --remote-size SIZE   on lab machines running `fio --server`',
]

const num = (v: string | undefined, what: string, min = 0): number | undefined => {
  if (v === undefined) return undefined
  const n = Number(v)
  if (!Number.isFinite(n) || n < min)
    throw new InputError([`run --real: ${what} expects a number ≥ ${min}, got "${v}"`])
  return n
}

function loadRealSpec(path: string): { spec: ResolvedSpec; kernelOnly: string[]; doc: unknown } {
  const doc = readJsonFile(path)
  refuseGalleryEntry(path, doc)
  const v = resolveRealSpec(doc)
  if (!v.ok) throw new InputError(v.issues.map((i) => `${path}: ${i.path ? `${i.path}: ` : ''}${i.message}`))
  return { ...v, doc }
}

/** The options of `run --real` (also those of `quick --real`). */
export const realArgOptions = {
  real: { type: 'boolean' },
  json: { type: 'boolean' },
  csv: { type: 'boolean' },
  jobs: { type: 'string' },
  device: { type: 'string' },
  confirm: { type: 'string' },
  dir: { type: 'string' },
  'scratch-size': { type: 'string' },
  'scratch-dir': { type: 'string' },
  'also-simulate': { type: 'boolean' },
  'allow-large': { type: 'boolean' },
  'max-seconds': { type: 'string' },
  ramp: { type: 'string' },
  'fio-arg': { type: 'string', multiple: true },
  'show-job': { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  engine: { type: 'string' },
  'sample-ms': { type: 'string' },
  'no-drop-caches': { type: 'boolean' },
  'no-trace': { type: 'boolean' },
} as const

/** The parsed values of `realArgOptions`. */
export interface RealArgValues {
  json?: boolean
  csv?: boolean
  jobs?: string
  device?: string
  confirm?: string
  dir?: string
  'scratch-size'?: string
  'scratch-dir'?: string
  'also-simulate'?: boolean
  'allow-large'?: boolean
  'max-seconds'?: string
  ramp?: string
  'fio-arg'?: string[]
  'show-job'?: boolean
  'dry-run'?: boolean
  engine?: string
  'sample-ms'?: string
  'no-drop-caches'?: boolean
  'no-trace'?: boolean
}

/** `iosched-lab run SPEC.json --real …`: the whole real-run branch of the run command. */
export async function runRealCli(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      ...realArgOptions,
      'fio-server': { type: 'string', multiple: true },
      'remote-target': { type: 'string' },
      'remote-size': { type: 'string' },
      ...untilStableOptions,
    },
    allowPositionals: true,
  })
  if (positionals.length !== 1)
    throw new InputError([`run: expected one spec file, got ${positionals.length}`])
  if (values.json && values.csv) throw new InputError(['run: choose one of --json and --csv'])
  const opts = realExperimentOptions(values)
  const loaded = loadRealSpec(positionals[0])
  const spec = withUntilStable(loaded.spec, untilStableFrom(values))
  if (values['fio-server']) return fioServers(spec, values, io)
  const done = await runRealSpec(spec, loaded.kernelOnly, opts, values, io, positionals[0], loaded.doc)
  if (typeof done === 'number') return done
  const { both, real, failed } = done
  // run.ts imports this file for its usage lines: load its printers lazily, not in a cycle
  const { csv, jsonDocument, table } = await import('./run')
  if (values.json) io.out(JSON.stringify({ ...jsonDocument(both), real: real.real }, null, 2))
  else if (values.csv) io.out(csv(labelled(both.summary)))
  else {
    io.out(table(both))
    for (const n of real.real.notes) io.out(`note: ${n}`)
  }
  return failed ? 1 : 0
}

/** The real run's options from the command line (`--device`, `--scratch-size` …); bad values are InputErrors. */
export function realExperimentOptions(values: RealArgValues): RealExperimentOptions {
  if (values.confirm !== undefined && values.device === undefined)
    throw new InputError(['run --real: --confirm goes with --device (it confirms that device’s name)'])
  if (values.dir !== undefined) {
    const with_ = ['device', 'scratch-size', 'scratch-dir'].filter(
      (k) => values[k as keyof RealArgValues] !== undefined,
    )
    if (with_.length > 0)
      throw new InputError([
        `run --real: --dir runs on a test file in that directory; it does not go with ${with_.map((k) => `--${k}`).join(', ')}`,
      ])
    if (values.dir.trim() === '') throw new InputError(['run --real: --dir expects a directory, got ""'])
  }
  const engine = values.engine === undefined ? undefined : engineByName(values.engine)
  if (values.engine !== undefined && !engine)
    throw new InputError([
      `run --real: unknown engine "${values.engine}"; known: ${engineNames().join(', ')}`,
    ])
  let scratchBytes: number | undefined
  if (values['scratch-size'] !== undefined) {
    scratchBytes = parseSize(values['scratch-size'])
    if (!Number.isFinite(scratchBytes) || scratchBytes <= 0)
      throw new InputError([
        `run --real: --scratch-size expects a size like 512M or 2G, got "${values['scratch-size']}"`,
      ])
  }
  return {
    target:
      values.dir !== undefined
        ? { kind: 'dir', dir: resolve(values.dir) }
        : values.device
          ? { kind: 'device', name: values.device, confirm: values.confirm }
          : { kind: 'scratch', sizeBytes: scratchBytes, parentDir: values['scratch-dir'] },
    engine,
    maxSeconds: num(values['max-seconds'], '--max-seconds', 0.001),
    rampSeconds: num(values.ramp, '--ramp'),
    fioArgs: values['fio-arg'] ?? [],
    sampleMs: num(values['sample-ms'], '--sample-ms', 1),
    dropCaches: !values['no-drop-caches'],
    trace: !values['no-trace'],
  }
}

/** `--show-job` / `--dry-run`: the run's own planning printed, and its refusals as an InputError. */
async function previewOrRefuse(
  spec: ResolvedSpec,
  opts: RealExperimentOptions,
  values: RealArgValues,
  io: CliIo,
): Promise<void> {
  const info = values.json || values.csv ? io.err : io.out
  // the run's own planning: the job on the device's real size, and its refusals
  const p = await previewRealRun(spec, opts)
  if (p.jobFile) {
    info(`# ${p.command[0]} job file (as run for repetition 1):\n${p.jobFile}`)
    info(`# command:\n${shellQuote(p.command)}\n`)
  }
  for (const s of p.skipped) info(`# skipped ${s.label}: ${s.reason}`)
  for (const w of p.target?.warnings ?? []) io.err(`iosched-lab: warning: ${w}`)
  if (p.refusals.length > 0) throw new InputError(p.refusals.map((r) => `the real run would refuse: ${r}`))
}

/**
 * One resolved spec run for real (the runner of `run --real`, used as is by `quick --real`):
 * the preview when asked, the prerequisites, the simulation alongside when asked, the run with
 * its progress on stderr and Ctrl-C restoring the device. A number is the exit status to end
 * with (a dry run, missing tools, cancelled); else the combined result.
 */
export async function runRealSpec(
  spec: ResolvedSpec,
  kernelOnly: string[],
  opts: RealExperimentOptions,
  values: RealArgValues,
  io: CliIo,
  specPath: string,
  /** The spec as written, for the simulated companion (its host replaced by the real rows'). */
  doc: unknown,
): Promise<number | { both: ExperimentResult; real: RealExperimentResult; failed: boolean }> {
  if (values['show-job'] || values['dry-run']) {
    await previewOrRefuse(spec, opts, values, io)
    if (values['dry-run']) return 0
  }
  const missing = realPrerequisiteProblems(toolsFor(opts.engine?.name ?? 'fio'))
  if (missing.length > 0) {
    for (const m of missing) io.err(`iosched-lab: ${m}`)
    return 1
  }
  let jobs: number | undefined
  if (values.jobs !== undefined) {
    jobs = Number(values.jobs)
    if (!Number.isInteger(jobs) || jobs < 0)
      throw new InputError([`run: --jobs expects a whole number ≥ 0, got "${values.jobs}"`])
  }
  let sim: ExperimentResult | null = null
  if (values['also-simulate']) {
    // as the app's companion: the real rows' time limit (--max-seconds) and host (this machine's,
    // or the one captured with the spec's fingerprinted preset), so that the columns compare
    const c = companionDocument(doc, {
      maxSeconds: opts.maxSeconds,
      host: companionHost(spec.device.preset, userPresetDir()),
    })
    const r = resolveRealSpec(c.doc)
    if (!r.ok)
      throw new InputError(
        r.issues.map((i) => `the simulated companion on this machine's host: ${i.path}: ${i.message}`),
      )
    for (const n of c.notes) io.err(`iosched-lab: note: ${n}`)
    // repeated as the real rows are (the caller's --until-stable is already in `spec`)
    const simSpec = { ...r.spec, repetitions: spec.repetitions, untilStable: spec.untilStable }
    checkWork(specPath, simSpec, values['allow-large'])
    sim = await simulate(simSpec, kernelOnly, io, jobs)
  }
  const runner = new RealExperimentRunner()
  let stopping = false
  const stop = (): void => {
    if (stopping)
      return io.err(
        `iosched-lab: still stopping: restoring the scheduler and ${opts.target?.kind === 'dir' ? 'removing the test file' : 'detaching the loop device'}…`,
      )
    stopping = true
    io.err('iosched-lab: cancelling: stopping fio and restoring the scheduler…')
    void runner.cancel().finally(() => process.exit(130))
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  const failures: string[] = []
  const tty = Boolean(process.stderr.isTTY)
  let real: RealExperimentResult
  try {
    real = await runner.run(spec, opts, {
      notice: (m) => io.err(`iosched-lab: ${m}`),
      runStarted: (label, rep, k) => {
        if (!tty) io.err(`real: ${runName(spec, label, rep)} (kernel ${k})…`)
      },
      progress: (label, rep, f, eta) => {
        if (!tty) return
        const pct = f === null ? '  ?' : (f * 100).toFixed(0).padStart(3)
        process.stderr.write(
          `\x1b[2K\r${runName(spec, label, rep)} ${pct}%${eta !== null ? `  eta ${eta} s` : ''}`,
        )
      },
      runDone: () => {
        if (tty) process.stderr.write('\x1b[2K\r')
      },
      failed: (label, rep, m) => failures.push(`${runName(spec, label, rep)}: ${m}`),
    })
  } catch (e) {
    if (stopping) {
      // what went wrong while stopping (a device not restored) must not be lost in the cancel
      if (!(e instanceof CancelledError)) io.err(`iosched-lab: ${(e as Error).message}`)
      return 130
    }
    if (e instanceof RealRunError || e instanceof TargetRefused || e instanceof TranslationError)
      throw new InputError(e.message.split('\n'))
    throw e
  } finally {
    process.off('SIGINT', stop)
    process.off('SIGTERM', stop)
  }
  for (const f of failures) io.err(`run failed: ${f}`)
  return { both: combineRuns(sim, real), real, failed: failures.length > 0 || real.runs.length === 0 }
}

async function simulate(
  spec: ResolvedSpec,
  kernelOnly: string[],
  io: CliIo,
  jobs?: number,
): Promise<ExperimentResult> {
  const schedulers = spec.schedulers.filter((s) => !kernelOnly.includes(s.label))
  for (const l of kernelOnly)
    io.err(`iosched-lab: ${l} is not simulated: the simulator does not model it (yet)`)
  const failures: string[] = []
  const r = await new ExperimentRunner().run(
    { ...spec, schedulers },
    { failed: (label, _rep, m) => failures.push(`${label}: ${m}`) },
    { jobs },
  )
  for (const f of failures) io.err(`simulation failed: ${f}`)
  return r
}

/** CSV has no source column: real rows get "(real)" after their label. */
const labelled = (rows: LabelSummary[]): LabelSummary[] =>
  rows.map((s) => (s.source === 'real' ? { ...s, label: `${s.label} (real)` } : s))

/** `--fio-server`: the experiment on lab machines through fio's client/server mode (no root needed here). */
async function fioServers(
  spec: ResolvedSpec,
  v: {
    'fio-server'?: string[]
    'remote-target'?: string
    'remote-size'?: string
    'max-seconds'?: string
    json?: boolean
    csv?: boolean
    'fio-arg'?: string[]
    'show-job'?: boolean
    'dry-run'?: boolean
  },
  io: CliIo,
): Promise<number> {
  const size = parseSize(v['remote-size'] ?? '')
  if (!v['remote-target'] || !(size > 0))
    throw new InputError([
      'run --real --fio-server: give the device or file on the lab machines and its size: --remote-target /dev/sdb --remote-size 100G',
    ])
  const extra = v['fio-arg'] ?? []
  const bad = checkExtraFioArgs(extra)
  if (bad.length > 0) throw new InputError(bad)
  const servers = {
    hosts: v['fio-server'] ?? [],
    remoteTarget: { path: v['remote-target'], sizeBytes: size },
    maxSeconds: num(v['max-seconds'], '--max-seconds', 0.001),
    extraArgs: extra,
  }
  if (v['show-job'] || v['dry-run']) {
    let p
    try {
      p = planOnFioServers(spec, servers, 'WORKDIR')
    } catch (e) {
      throw new InputError((e as Error).message.split('\n'))
    }
    const info = v.json || v.csv ? io.err : io.out
    info(`# fio job file (sent to every server):\n${p.jobFile}`)
    info(`# command:\n${shellQuote(p.command)}\n`)
    if (v['dry-run']) return 0
  }
  let r
  try {
    r = await runOnFioServers(spec, servers)
  } catch (e) {
    if (e instanceof TranslationError) throw new InputError(e.message.split('\n'))
    throw e
  }
  const { csv, jsonDocument, table } = await import('./run')
  const spec2 = {
    ...spec,
    device: { ...spec.device, preset: `${v['remote-target']} on ${v['fio-server']!.join(', ')}` },
    host: { ...spec.host, preset: 'each fio server (scheduler as its operator set it)' },
    stop: { ...spec.stop, maxSeconds: num(v['max-seconds'], '--max-seconds', 0.001) ?? spec.stop.maxSeconds },
  }
  const res = { ...r.result, spec: spec2 }
  if (v.json)
    io.out(JSON.stringify({ ...jsonDocument(res), fio: { jobFile: r.jobFile, command: r.command } }, null, 2))
  else if (v.csv) io.out(csv(res.summary))
  else {
    io.out(table(res))
    io.out(
      'note: the lab does not switch schedulers on fio servers: each runs with the scheduler its operator chose',
    )
  }
  return 0
}
