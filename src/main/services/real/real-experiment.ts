import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describeStability, nextRound, stabilityOf } from '../../../shared/experiment/stability'
import { summarizeRuns } from '../../../shared/experiment/compare'
import type { ResolvedSpec } from '../../../shared/experiment/resolved'
import type { RequestRecord } from '../../../shared/experiment/request-tap'
import type { CancelState, RealEngine } from './engine-plan'
import { CancelledError } from './engine-plan'
import { bytesNeeded } from './file-layout'
import { fioEngine } from './fio-engine'
import { removeStrayInstances } from './ftrace-capture'
import { toolsFor } from './engines'
import { Journal } from './journal'
import type { MappedEntry } from './real-plan'
import { mapEntries, requestProblems, workloadReadsOnly } from './real-plan'
import { requireRealPrerequisites } from './prerequisites'
import type { RealExperimentResult, RealRunResult, RealTargetInfo } from './real-result'
import { runOnce } from './real-run'
import { repairJournals } from './repair'
import type { RepairReport } from './repair'
import { labStateDir, RUN_PREFIX } from './state-dir'
import type { Target, TargetRequest } from './target'
import { acquireTarget } from './target'

export interface RealExperimentOptions {
  /** Default: a scratch loop device sized for the spec. */
  target?: TargetRequest
  engine?: RealEngine
  /** Override the spec's stop.maxSeconds (the run's time limit). */
  maxSeconds?: number
  rampSeconds?: number
  /** Extra fio command-line options (checked: nothing that moves the I/O or changes the report). */
  fioArgs?: string[]
  /** /proc sampling interval, ms (≤ 1000; default 500). */
  sampleMs?: number
  /** Drop the page cache before each run (default true). */
  dropCaches?: boolean
  /**
   * Trace each run with blktrace when it is installed (default true): request stages per process,
   * dispatches and per-process throughput; without it the run says what is missing.
   */
  trace?: boolean
  stateDir?: string
  /** Keep the job files and reports in this directory instead of a temporary one. */
  workDir?: string
}

/**
 * The options of a run made to measure the device (a fingerprint's sweep, a validation's cells,
 * the drift check): untraced. Tracing the kernel's block events costs CPU per event and the lab
 * parses every line — on this 2-vCPU machine the validation's reader beside a buffered writer
 * made 1.8–2.3 MB/s traced against 10.9–14.5 MB/s untraced (three pairs, alternating; the
 * writer 1.44–1.59 against 1.98–2.21 GB/s; CPUs busy 1.7 against 1.0): the trace measured
 * itself. The request stages are what tracing is for, and a measurement does not use them.
 */
export const MEASURING: Pick<RealExperimentOptions, 'trace'> = { trace: false }

export interface RealExperimentEvents {
  /** Repairs, warnings and notes, as they happen. */
  notice?(message: string): void
  /** The device chosen (a scratch loop device is known only now). */
  targetReady?(target: RealTargetInfo): void
  /**
   * What is being done before an engine's first progress: preparing the target (label null: before
   * any run), then per run dropping the page cache, switching the scheduler, starting the engine.
   */
  phase?(label: string | null, repetition: number | null, what: string): void
  runStarted?(label: string, repetition: number, kernelScheduler: string): void
  progress?(
    label: string,
    repetition: number,
    fraction: number | null,
    etaSeconds: number | null,
    line: string,
  ): void
  runDone?(label: string, repetition: number, result: RealRunResult): void
  /**
   * Each traced request's stages, as its run recorded them (TraceStagesOptions.requests): for
   * tests that check they add up request by request.
   */
  request?(label: string, repetition: number, r: RequestRecord): void
  failed?(label: string, repetition: number, message: string): void
}

/** A problem with the request itself (before anything was touched). */
export class RealRunError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'))
    this.name = 'RealRunError'
  }
}

/**
 * Runs an experiment on a real device: every scheduler entry the kernel has, every repetition
 * (interleaved, so slow drift of the device spreads over all schedulers), each through `runOnce`.
 * Replays leftover journals first. The target is released and the job files removed at the end,
 * also after an error or a cancel. No Electron here: the CLI and the app share it.
 */
export class RealExperimentRunner {
  private readonly cancelState: CancelState = { cancelled: false, hooks: new Set() }
  private running: Promise<unknown> | null = null

  run(
    spec: ResolvedSpec,
    o: RealExperimentOptions = {},
    ev: RealExperimentEvents = {},
  ): Promise<RealExperimentResult> {
    const p = this.runInner(spec, o, ev)
    this.running = p.catch(() => undefined)
    return p
  }

  /** Stop: kill the engine's process group, then wait until the device is restored and released. */
  async cancel(): Promise<void> {
    this.cancelState.cancelled = true
    await Promise.all([...this.cancelState.hooks].map((h) => h()))
    await this.running
  }

  private async runInner(
    spec: ResolvedSpec,
    o: RealExperimentOptions,
    ev: RealExperimentEvents,
  ): Promise<RealExperimentResult> {
    const engine = o.engine ?? fioEngine
    const problems = requestProblems(spec, o)
    const sampleMs = o.sampleMs ?? 500
    const { mapped, skipped } = mapEntries(spec)
    for (const s of skipped) ev.notice?.(`skipping ${s.label}: ${s.reason}`)
    if (problems.length > 0) throw new RealRunError(problems)
    requireRealPrerequisites(toolsFor(engine.name))
    const stateDir = o.stateDir ?? labStateDir()
    for (const r of await repairJournals(stateDir)) reportRepair(r, ev)
    for (const a of removeStrayInstances()) ev.notice?.(`repaired after an earlier crash: ${a}`)
    const journal = new Journal(stateDir)
    const req = o.target ?? { kind: 'scratch' }
    ev.phase?.(
      null,
      null,
      req.kind === 'scratch'
        ? 'preparing the scratch device: writing its file in full, attaching it as a loop device'
        : req.kind === 'dir'
          ? `writing the test file in ${req.dir} in full`
          : `checking /dev/${req.name.replace(/^\/dev\//, '')} before switching its scheduler`,
    )
    // the same judgement of the target as the preview's (real-plan.ts), then the target itself
    let target: Target
    try {
      target = await acquireTarget(req, {
        readOnly: workloadReadsOnly(spec, o),
        neededBytes: bytesNeeded(spec.files, req.kind === 'dir'),
        journal,
        cancelled: () => this.cancelState.cancelled,
      })
    } catch (e) {
      if (this.cancelState.cancelled) throw new CancelledError()
      throw e
    }
    const workDir = o.workDir ?? mkdtempSync(join(tmpdir(), RUN_PREFIX))
    if (!o.workDir) journal.addTempDir(workDir)
    try {
      for (const w of target.warnings) ev.notice?.(w)
      return await this.runAll(spec, o, ev, { engine, mapped, skipped, target, journal, workDir, sampleMs })
    } finally {
      for (const a of await target
        .release()
        .catch((e: Error) => [`could not release ${target.path}: ${e.message}`]))
        ev.notice?.(a)
      if (!o.workDir) {
        rmSync(workDir, { recursive: true, force: true })
        journal.removeTempDir(workDir)
      }
    }
  }

  private async runAll(
    spec: ResolvedSpec,
    o: RealExperimentOptions,
    ev: RealExperimentEvents,
    c: {
      engine: RealEngine
      mapped: MappedEntry[]
      skipped: { label: string; reason: string }[]
      target: Target
      journal: Journal
      workDir: string
      sampleMs: number
    },
  ): Promise<RealExperimentResult> {
    const info: RealTargetInfo = {
      kind: c.target.kind,
      name: c.target.name,
      path: c.target.path,
      sizeBytes: c.target.sizeBytes,
      rotational: c.target.rotational,
      model: c.target.model,
      description: c.target.description,
      ...(c.target.file ? { file: c.target.file } : {}),
    }
    ev.targetReady?.(info)
    const version = await c.engine.version()
    const runs: RealRunResult[] = []
    let first: { jobFile: string; command: string[]; notes: string[] } | null = null
    // every repetition asked for, interleaved; then, repeating until stable, rounds of one more
    // run of every entry while any still varies (judged on the runs so far, failed runs counted as
    // tries): complete blocks, so the machine's drift is not read as a scheduler's difference.
    // Round k starts at entry k (mod n), so no scheduler always follows the same one.
    const rounds: { m: MappedEntry; rep: number }[][] = []
    for (let rep = 0; rep < spec.repetitions; rep++) rounds.push(c.mapped.map((m) => ({ m, rep })))
    const attempts = spec.schedulers.map(() => 0)
    const mappedAt = new Map(c.mapped.map((m) => [m.index, m]))
    for (let k = 0; k < rounds.length; k++) {
      const round = rounds[k]
      const start = round.length > 0 ? k % round.length : 0
      for (const { m, rep } of [...round.slice(start), ...round.slice(0, start)]) {
        if (this.cancelState.cancelled) throw new CancelledError()
        attempts[m.index] = Math.max(attempts[m.index], rep + 1)
        const label = spec.schedulers[m.index].label
        const plan = c.engine.plan(spec, c.target, {
          repetition: rep,
          workDir: c.workDir,
          maxSeconds: o.maxSeconds,
          rampSeconds: o.rampSeconds,
          extraArgs: o.fioArgs,
        })
        first ??= { jobFile: plan.jobFile, command: plan.command, notes: plan.notes }
        ev.runStarted?.(label, rep, m.kernel)
        try {
          const r = await runOnce({
            spec,
            schedIndex: m.index,
            repetition: rep,
            kernel: m.kernel,
            writes: m.writes,
            mappingNotes: m.notes,
            target: info,
            journal: c.journal,
            plan,
            engineVersion: version,
            sampleMs: c.sampleMs,
            maxSeconds: o.maxSeconds ?? spec.stop.maxSeconds,
            dropCaches: o.dropCaches !== false,
            trace: o.trace === false ? false : { workDir: c.workDir },
            cancel: this.cancelState,
            progress: (f, e, l) => ev.progress?.(label, rep, f, e, l),
            phase: (what) => ev.phase?.(label, rep, what),
            ...(ev.request ? { requests: (x: RequestRecord) => ev.request!(label, rep, x) } : {}),
          })
          runs.push(r)
          ev.runDone?.(label, rep, r)
        } catch (e) {
          if (e instanceof CancelledError || this.cancelState.cancelled) throw new CancelledError()
          ev.failed?.(label, rep, (e as Error).message)
          // a device that could not be restored must not be switched again
          if ((e as Error).message.includes('could not restore')) throw e
        }
      }
      if (k === rounds.length - 1 && spec.untilStable) {
        const next = nextRound(spec, runs, attempts, true).filter((j) => mappedAt.has(j.schedIndex))
        if (next.length > 0) {
          for (const v of stabilityOf(spec, runs))
            if (mappedAt.has(v.schedIndex)) ev.notice?.(`repeating until stable: ${describeStability(v)}`)
          rounds.push(next.map((j) => ({ m: mappedAt.get(j.schedIndex)!, rep: j.repetition })))
        }
      }
    }
    return {
      schema: 'iosched-lab/experiment@1',
      name: spec.name,
      spec,
      runs,
      summary: summarizeRuns(runs),
      real: {
        target: info,
        engine: c.engine.name,
        engineVersion: version,
        jobFile: first?.jobFile ?? '',
        command: first?.command ?? [],
        notes: [...new Set([...c.mapped.flatMap((m) => m.notes), ...(first?.notes ?? [])])],
        skipped: c.skipped,
      },
    }
  }
}

function reportRepair(r: RepairReport, ev: RealExperimentEvents): void {
  if (r.ownerAlive) return
  for (const a of r.actions) ev.notice?.(`repaired after an earlier crash (${r.owner}): ${a}`)
  for (const p of r.problems) ev.notice?.(`could not repair ${r.journal}: ${p}`)
}
