// Real runs started from the app: the spec simulated first (unless asked not to), then run for
// real through the backend (this process as root, or the privileged helper), every job reported
// with the same run events as a simulation, and both in one result: "deadline" and its real run
// side by side. Cancel stops fio and waits until the device is restored and released.
import { randomUUID } from 'node:crypto'
import type { RunJobRef, RunStarted } from '../../../shared/api/contract'
import type { LabListener } from '../../../shared/api/lab-events'
import { outcomeOf } from '../../../shared/api/run-outcome'
import type { RealRunInput, RealRunStart } from '../../../shared/api/real-contract'
import type { ExperimentResult } from '../../../shared/experiment/compare'
import { summarizeRuns } from '../../../shared/experiment/compare'
import type { ResolvedSpec } from '../../../shared/experiment/resolved'
import type { RunResult } from '../../../shared/experiment/result'
import { describeStability, nextRound, stabilityOf } from '../../../shared/experiment/stability'
import { jobsOf } from '../experiments'
import type { RunEvents, RunJob } from '../run-pool'
import { combineRuns } from '../real/combine'
import type { RealBackend } from '../real/real-backend'
import { mapEntries } from '../real/real-plan'
import { resolveRealSpec } from '../real/real-spec'
import { checkExtraFioArgs } from '../real/fio-command'
import { companionDocument, companionHost } from '../real/companion'
import { planOf, runOptions } from './preview'
import { estimateWork } from '../../../shared/experiment/work-estimate'
import { beyondLimits, workExcesses } from '../../../shared/experiment/work-limits'

/** Run simulations of some jobs of a spec (the lab's pool); the signal aborts them. */
export type SimulateJobs = (
  spec: ResolvedSpec,
  jobs: RunJob[],
  ev: RunEvents,
  signal: AbortSignal,
) => Promise<(RunResult | undefined)[]>

interface Active {
  cancelled: boolean
  abort: AbortController
  realStarted: boolean
}

export class RealRuns {
  private readonly active = new Map<string, Active>()

  constructor(
    private readonly backend: RealBackend,
    private readonly simulate: SimulateJobs,
    private readonly emit: LabListener,
    /** Called with each run's start (the ledger remembers it). */
    private readonly begun: (started: RunStarted) => void,
    /** Problems that stop any real run here (root, tools), checked at each start. */
    private readonly blockers: () => Promise<string[]>,
    /** The user's preset folder: a fingerprinted device preset there holds the host it was fitted on. */
    private readonly presetDir: () => string | null = () => null,
  ) {}

  async start(input: RealRunInput): Promise<RealRunStart> {
    const v = resolveRealSpec(input.spec)
    if (!v.ok) return { issues: v.issues }
    const spec = v.spec
    const problems = [...checkExtraFioArgs(input.fioArgs ?? []), ...(await this.blockers())]
    const { mapped, skipped } = mapEntries(spec)
    if (mapped.length === 0)
      problems.push(
        `no scheduler entry of the spec can run on this kernel (${skipped.map((s) => `${s.label}: ${s.reason}`).join('; ')})`,
      )
    if (problems.length > 0) return { problems }
    // the same refusals as the run itself, before anything starts (it checks again, as root,
    // with an exclusive open)
    const plan = await planOf(spec, input)
    if (plan.refusals.length > 0) return { problems: plan.refusals }
    // the simulated companion: the real rows' time limit and host, so that the columns compare
    let simSpec = spec
    const simNotes: string[] = []
    if (input.alsoSimulate !== false) {
      const c = companionDocument(input.spec, {
        maxSeconds: input.maxSeconds,
        host: companionHost(spec.device.preset, this.presetDir()),
      })
      const r = resolveRealSpec(c.doc)
      if (!r.ok)
        return {
          problems: r.issues.map(
            (i) => `the simulated companion on this machine's host: ${i.path}: ${i.message}`,
          ),
        }
      simSpec = r.spec
      simNotes.push(...c.notes)
    }
    const simulated =
      input.alsoSimulate === false
        ? []
        : jobsOf(simSpec).filter((j) => !v.kernelOnly.includes(spec.schedulers[j.schedIndex].label))
    // the simulated companion is a simulation like any: the same work limits
    const over = simulated.length > 0 ? workExcesses(estimateWork([simSpec])) : []
    if (over.length > 0 && !input.allowLarge)
      return {
        problems: beyondLimits(
          over,
          'untick “also simulate”, or tick “Allow large runs” in the setup (the API’s allowLarge), to run it anyway',
        ),
      }
    try {
      await this.backend.start() // the one moment the app may ask for root (pkexec)
    } catch (e) {
      return { problems: [(e as Error).message] }
    }
    const runId = randomUUID()
    const ref = (j: RunJob, source?: 'real'): RunJobRef => ({
      point: 0,
      schedIndex: j.schedIndex,
      repetition: j.repetition,
      label: spec.schedulers[j.schedIndex].label,
      ...(source
        ? { source, maxSeconds: input.maxSeconds ?? spec.stop.maxSeconds }
        : { maxSimSeconds: simSpec.stop.maxSeconds }),
    })
    const real: RunJobRef[] = []
    for (let rep = 0; rep < spec.repetitions; rep++)
      for (const m of mapped) real.push(ref({ schedIndex: m.index, repetition: rep }, 'real'))
    const started: RunStarted = { runId, jobs: [...simulated.map((j) => ref(j)), ...real], parallel: 1 }
    const state: Active = { cancelled: false, abort: new AbortController(), realStarted: false }
    this.active.set(runId, state)
    this.begun(started)
    void this.execute(runId, state, { spec, simSpec, simNotes }, input, simulated, real, ref, skipped).catch(
      (e: unknown) => {
        this.active.delete(runId)
        this.emit({ type: 'run:failed', runId, cancelled: false, message: `internal error: ${String(e)}` })
      },
    )
    return started
  }

  /** Stop a real run: resolves true once its device is restored; false when no such run. */
  async cancel(runId: string): Promise<boolean> {
    const a = this.active.get(runId)
    if (!a || a.cancelled) return false
    a.cancelled = true
    a.abort.abort()
    await this.backend.cancel(runId)
    return true
  }

  async cancelAll(): Promise<void> {
    await Promise.all([...this.active.keys()].map((id) => this.cancel(id)))
  }

  private async execute(
    runId: string,
    state: Active,
    specs: { spec: ResolvedSpec; simSpec: ResolvedSpec; simNotes: string[] },
    input: RealRunInput,
    simulated: RunJob[],
    real: RunJobRef[],
    ref: (j: RunJob, source?: 'real') => RunJobRef,
    skipped: { label: string; reason: string }[],
  ): Promise<void> {
    const { spec, simSpec } = specs
    const t0 = performance.now()
    const failures: { job: RunJobRef; message: string }[] = []
    /** The job each result went out as in run:job-done (by source, label, repetition). */
    const sent = new Map<string, RunJobRef>()
    const runKey = (source: string, label: string, rep: number): string => `${source}:${label}:${rep}`
    const send: LabListener = (e) => {
      if (state.cancelled) return
      if (e.type === 'run:job-done')
        sent.set(runKey(e.result.source, e.result.label, e.result.repetition), e.job)
      this.emit(e)
    }
    for (const s of skipped)
      send({ type: 'run:notice', runId, message: `${s.label} does not run for real: ${s.reason}` })
    for (const message of specs.simNotes) send({ type: 'run:notice', runId, message })
    let sim: ExperimentResult | null = null
    if (simulated.length > 0) {
      const events: RunEvents = {
        progress: (j, fraction, simSeconds) =>
          send({ type: 'run:progress', runId, job: ref(j), fraction, simSeconds, etaSeconds: null }),
        done: (j, result) => send({ type: 'run:job-done', runId, job: ref(j), result }),
        failed: (j, message) => {
          if (state.cancelled) return
          failures.push({ job: ref(j), message })
          send({ type: 'run:job-failed', runId, job: ref(j), message })
        },
      }
      // the simulated entries repeat until stable like the real ones: rounds join the run as jobs
      const simulatedEntries = new Set(simulated.map((j) => j.schedIndex))
      const attempts = simSpec.schedulers.map(() => 0)
      const ok: RunResult[] = []
      for (let jobs = simulated; jobs.length > 0 && !state.cancelled;) {
        const results = await this.simulate(simSpec, jobs, events, state.abort.signal)
        ok.push(...results.filter((r): r is RunResult => r !== undefined))
        for (const j of jobs) attempts[j.schedIndex] = Math.max(attempts[j.schedIndex], j.repetition + 1)
        if (!spec.untilStable || state.cancelled) break
        const verdicts = stabilityOf(simSpec, ok).filter((v) => simulatedEntries.has(v.schedIndex))
        jobs = nextRound(simSpec, ok, attempts).filter((j) => simulatedEntries.has(j.schedIndex))
        if (jobs.length === 0) {
          for (const v of verdicts)
            send({
              type: 'run:notice',
              runId,
              message: `simulated, repeated until stable: ${describeStability(v)}`,
            })
          break
        }
        for (const v of verdicts)
          if (v.more)
            send({
              type: 'run:notice',
              runId,
              message: `simulated, repeating until stable: ${describeStability(v)}`,
            })
        send({ type: 'run:jobs-added', runId, jobs: jobs.map((j) => ref(j)) })
      }
      sim = {
        schema: 'iosched-lab/experiment@1',
        name: spec.name,
        spec: simSpec,
        runs: ok,
        summary: summarizeRuns(ok),
      }
    }
    const finish = (cancelled: boolean, message: string): void => {
      this.active.delete(runId)
      this.emit({ type: 'run:failed', runId, cancelled, message })
    }
    if (state.cancelled) return finish(true, 'cancelled')
    const job = (label: string, rep: number): RunJobRef | undefined => {
      const known = real.find((r) => r.label === label && r.repetition === rep)
      const schedIndex = spec.schedulers.findIndex((s) => s.label === label)
      if (known || !spec.untilStable || schedIndex < 0) return known
      // repeating until stable: a repetition beyond those planned joins the run
      const added = ref({ schedIndex, repetition: rep }, 'real')
      real.push(added)
      send({ type: 'run:jobs-added', runId, jobs: [added] })
      return added
    }
    const began = new Map<RunJobRef, number>()
    let result
    try {
      state.realStarted = true
      result = await this.backend.run(runId, spec, runOptions(input), {
        notice: (message) => send({ type: 'run:notice', runId, message }),
        // before fio's first progress: the target prepared (the first job's), then each run's steps
        phase: (label, rep, phase) => {
          const j = label === null || rep === null ? real[0] : job(label, rep)
          if (!j) return
          if (!began.has(j)) began.set(j, performance.now())
          const seconds = (performance.now() - began.get(j)!) / 1000
          send({
            type: 'run:progress',
            runId,
            job: j,
            fraction: 0,
            simSeconds: seconds,
            etaSeconds: null,
            phase,
          })
        },
        runStarted: (label, rep) => {
          const j = job(label, rep)
          if (!j) return
          began.set(j, performance.now())
          send({ type: 'run:progress', runId, job: j, fraction: 0, simSeconds: 0, etaSeconds: null })
        },
        progress: (label, rep, fraction, etaSeconds) => {
          const j = job(label, rep)
          if (!j) return
          const seconds = (performance.now() - (began.get(j) ?? performance.now())) / 1000
          send({
            type: 'run:progress',
            runId,
            job: j,
            fraction: fraction ?? 0,
            simSeconds: seconds,
            etaSeconds,
            // fio reports before its jobs do I/O ("-.-%"): still starting
            ...(fraction === null ? { phase: 'fio: setting up its jobs' } : {}),
          })
        },
        runDone: (label, rep, r) => {
          const j = job(label, rep)
          if (j) send({ type: 'run:job-done', runId, job: j, result: r })
        },
        failed: (label, rep, message) => {
          const j = job(label, rep)
          if (!j || state.cancelled) return
          failures.push({ job: j, message })
          send({ type: 'run:job-failed', runId, job: j, message })
        },
      })
    } catch (e) {
      return finish(state.cancelled, state.cancelled ? 'cancelled' : (e as Error).message)
    }
    if (state.cancelled) return finish(true, 'cancelled')
    const both = combineRuns(sim, result)
    this.active.delete(runId)
    if (both.runs.length === 0) {
      const why = failures[0] ? `${failures[0].job.label}: ${failures[0].message}` : 'no run finished'
      return void this.emit({
        type: 'run:failed',
        runId,
        cancelled: false,
        message: `every run failed (${why})`,
      })
    }
    for (const n of result.real.notes) send({ type: 'run:notice', runId, message: `note: ${n}` })
    // run:done names the runs that went out in run:job-done; one that somehow did not goes now
    const jobOf = (r: RunResult): RunJobRef => {
      const known = sent.get(runKey(r.source, r.label, r.repetition))
      if (known) return known
      const job: RunJobRef = {
        point: 0,
        schedIndex: Math.max(
          0,
          spec.schedulers.findIndex((s) => s.label === r.label),
        ),
        repetition: r.repetition,
        label: r.label,
        ...(r.source === 'real' ? { source: 'real' as const } : {}),
      }
      send({ type: 'run:job-done', runId, job, result: r })
      return job
    }
    this.emit({
      type: 'run:done',
      runId,
      result: outcomeOf(both, jobOf),
      sweep: null,
      failures,
      wallSeconds: (performance.now() - t0) / 1000,
    })
  }
}
