// Runs started through the LabApi: validate (each sweep point too), run every job in the
// simulation pool, and report progress, per-job results and failures, then the outcome as events.
import { randomUUID } from 'node:crypto'
import type { RunJobRef, RunStarted, StartRunInput } from '../../shared/api/contract'
import type { LabEvent, LabListener } from '../../shared/api/lab-events'
import { outcomeOf } from '../../shared/api/run-outcome'
import type { ExperimentOutcome, SweepOutcome } from '../../shared/api/run-outcome'
import { setAtPath, sweepIssues } from '../../shared/api/sweep'
import { summarizeRuns } from '../../shared/experiment/compare'
import type { ExperimentResult } from '../../shared/experiment/compare'
import type { ResolvedSpec } from '../../shared/experiment/resolved'
import type { RunResult } from '../../shared/experiment/result'
import { describeStability, nextRound, stabilityOf } from '../../shared/experiment/stability'
import { validateSpec } from '../../shared/experiment/validate'
import type { ParamIssue } from '../../shared/util/params'
import { jobsOf } from './experiments'
import type { RunJob, RunPool } from './run-pool'
import { estimateWork } from '../../shared/experiment/work-estimate'
import { beyondLimits, workExcesses } from '../../shared/experiment/work-limits'

interface Active {
  /** Aborting kills the pool's children busy with this run; its other jobs are not started. */
  abort: AbortController
  cancelled: boolean
}

/** Resolve a run's experiments: one spec, or one per sweep value. */
export function resolvePoints(input: StartRunInput): { specs: ResolvedSpec[] } | { issues: ParamIssue[] } {
  if (!input.sweep) {
    const v = validateSpec(input.spec)
    return v.ok ? { specs: [v.spec] } : { issues: v.issues }
  }
  const sweep = input.sweep
  const issues = sweepIssues(sweep)
  if (issues.length) return { issues }
  const specs: ResolvedSpec[] = []
  for (const value of sweep.values) {
    let doc: unknown
    try {
      doc = setAtPath(input.spec, sweep.path, value)
    } catch (e) {
      return { issues: [{ path: 'sweep.path', message: (e as Error).message }] }
    }
    const v = validateSpec(doc)
    if (!v.ok)
      return {
        issues: v.issues.map((i) => ({
          path: i.path,
          message: `${i.message} (with ${sweep.path} = ${JSON.stringify(value)})`,
        })),
      }
    specs.push(v.spec)
  }
  return { specs }
}

/** How the app and the API run a spec beyond the work limits anyway. */
const ALLOW_LARGE_HINT = 'tick “Allow large runs” in the setup (the API’s allowLarge) to run it anyway'

/** A job's reference: which point, entry and repetition, its label and simulated-time bound. */
const refOf = (spec: ResolvedSpec, point: number, j: RunJob): RunJobRef => ({
  point,
  ...j,
  label: spec.schedulers[j.schedIndex].label,
  maxSimSeconds: spec.stop.maxSeconds,
})

export class LabRuns {
  private readonly active = new Map<string, Active>()

  constructor(
    /** The lab's one pool: its children serve run after run. */
    private readonly pool: RunPool,
    private readonly parallel: number,
    private readonly emit: LabListener,
  ) {}

  start(input: StartRunInput): RunStarted | { issues: ParamIssue[] } | { problems: string[] } {
    const points = resolvePoints(input)
    if ('issues' in points) return points
    // the work from the spec alone, before any child starts
    const over = workExcesses(estimateWork(points.specs))
    if (over.length > 0 && !input.allowLarge) return { problems: beyondLimits(over, ALLOW_LARGE_HINT) }
    const runId = randomUUID()
    const jobs: RunJobRef[][] = points.specs.map((spec, point) =>
      jobsOf(spec).map((j) => refOf(spec, point, j)),
    )
    const state: Active = { abort: new AbortController(), cancelled: false }
    this.active.set(runId, state)
    void this.execute(runId, state, input, points.specs, jobs).catch((e: unknown) => {
      this.active.delete(runId)
      this.emit({ type: 'run:failed', runId, cancelled: false, message: `internal error: ${String(e)}` })
    })
    return { runId, jobs: jobs.flat(), parallel: this.parallel }
  }

  cancel(runId: string): boolean {
    const a = this.active.get(runId)
    if (!a || a.cancelled) return false
    a.cancelled = true
    a.abort.abort()
    return true
  }

  cancelAll(): void {
    for (const id of this.active.keys()) this.cancel(id)
  }

  get running(): number {
    return this.active.size
  }

  private async execute(
    runId: string,
    state: Active,
    input: StartRunInput,
    specs: ResolvedSpec[],
    jobs: RunJobRef[][],
  ): Promise<void> {
    const t0 = performance.now()
    const failures: { job: RunJobRef; message: string }[] = []
    const results: ExperimentOutcome[] = []
    for (let p = 0; p < specs.length && !state.cancelled; p++) {
      const spec = specs[p]
      const attempts = spec.schedulers.map(() => 0)
      const allRefs: RunJobRef[] = []
      const runs: (RunResult | undefined)[] = []
      // the repetitions asked for; repeating until stable, then rounds of one more run per entry
      for (let refs = jobs[p]; refs.length > 0 && !state.cancelled;) {
        const round = await this.round(runId, state, spec, refs, failures)
        allRefs.push(...refs)
        runs.push(...round)
        for (const j of refs) attempts[j.schedIndex] = Math.max(attempts[j.schedIndex], j.repetition + 1)
        if (!spec.untilStable || state.cancelled) break
        const done = runs.filter((r): r is RunResult => r !== undefined)
        const next = nextRound(spec, done, attempts)
        if (next.length === 0) break
        for (const v of stabilityOf(spec, done))
          if (v.more)
            this.send(
              { type: 'run:notice', runId, message: `repeating until stable: ${describeStability(v)}` },
              state,
            )
        refs = next.map((j) => refOf(spec, p, j))
        this.send({ type: 'run:jobs-added', runId, jobs: refs }, state)
      }
      const ok = runs.filter((r): r is RunResult => r !== undefined)
      if (spec.untilStable && !input.sweep)
        for (const v of stabilityOf(spec, ok))
          this.send(
            { type: 'run:notice', runId, message: `repeated until stable: ${describeStability(v)}` },
            state,
          )
      // each run went out in its run:job-done: the outcome names them instead of sending them again
      const okJobs = allRefs.filter((_, i) => runs[i] !== undefined)
      const result: ExperimentResult = {
        schema: 'iosched-lab/experiment@1',
        name: spec.name,
        spec,
        runs: ok,
        summary: summarizeRuns(ok),
      }
      results.push(outcomeOf(result, (_, i) => okJobs[i]))
    }
    const wallSeconds = (performance.now() - t0) / 1000
    this.active.delete(runId)
    if (state.cancelled) {
      this.emit({ type: 'run:failed', runId, cancelled: true, message: 'cancelled' })
      return
    }
    if (results.every((r) => r.runJobs.length === 0)) {
      const why = failures[0] ? `${failures[0].job.label}: ${failures[0].message}` : 'no run finished'
      this.emit({ type: 'run:failed', runId, cancelled: false, message: `every run failed (${why})` })
      return
    }
    const sweep: SweepOutcome | null = input.sweep
      ? { sweep: input.sweep, points: input.sweep.values.map((value, i) => ({ value, result: results[i] })) }
      : null
    this.emit({ type: 'run:done', runId, result: results[0], sweep, failures, wallSeconds })
  }

  /** One round of jobs in the pool, reporting as they go; their results in the jobs' order. */
  private round(
    runId: string,
    state: Active,
    spec: ResolvedSpec,
    refs: RunJobRef[],
    failures: { job: RunJobRef; message: string }[],
  ): Promise<(RunResult | undefined)[]> {
    const ref = (j: { schedIndex: number; repetition: number }): RunJobRef =>
      refs.find((r) => r.schedIndex === j.schedIndex && r.repetition === j.repetition)!
    const pace = new Map<RunJobRef, { t: number; f: number }>()
    return this.pool.runAll(
      spec,
      refs,
      {
        progress: (j, fraction, simSeconds) => {
          const job = ref(j)
          const now = performance.now()
          const first = pace.get(job)
          if (!first) pace.set(job, { t: now, f: fraction })
          const df = first ? fraction - first.f : 0
          const etaSeconds = first && df > 0 ? ((now - first.t) / 1000 / df) * (1 - fraction) : null
          this.send({ type: 'run:progress', runId, job, fraction, simSeconds, etaSeconds }, state)
        },
        done: (j, result) => this.send({ type: 'run:job-done', runId, job: ref(j), result }, state),
        failed: (j, message) => {
          if (state.cancelled) return
          failures.push({ job: ref(j), message })
          this.send({ type: 'run:job-failed', runId, job: ref(j), message }, state)
        },
      },
      state.abort.signal,
    )
  }

  /** Events of a cancelled run stop at once, except the final `run:failed`. */
  private send(e: LabEvent, state: Active): void {
    if (!state.cancelled) this.emit(e)
  }
}
