import { summarizeRuns } from '../../shared/experiment/compare'
import type { ExperimentResult } from '../../shared/experiment/compare'
import type { ResolvedSpec } from '../../shared/experiment/resolved'
import type { RunResult } from '../../shared/experiment/result'
import { simulate } from '../../shared/experiment/runner'
import { nextRound, stabilityOf } from '../../shared/experiment/stability'
import type { StabilityVerdict } from '../../shared/experiment/stability'
import { RunPool } from './run-pool'
import type { RunJob } from './run-pool'

export interface ExperimentEvents {
  progress?(label: string, repetition: number, fraction: number, simSeconds: number): void
  failed?(label: string, repetition: number, message: string): void
  /** Repeating until stable: the verdicts after a round, when another round follows. */
  round?(verdicts: StabilityVerdict[]): void
}

export interface ExperimentOptions {
  /** Simulation processes at once (default: cores). 0 runs in this process, one after another. */
  jobs?: number
  /** Run in this pool (kept after the run, e.g. the lab service's) instead of children of its own. */
  pool?: RunPool
  /** Aborting it kills the run's simulations; the experiment ends with the runs done so far. */
  signal?: AbortSignal
  /** Keep each run's why (stages, decisions, time split; default true): false saves its cost. */
  why?: boolean
}

/** Every (scheduler entry × repetition) of an experiment. */
export function jobsOf(spec: ResolvedSpec): RunJob[] {
  const jobs: RunJob[] = []
  for (let r = 0; r < spec.repetitions; r++)
    for (let s = 0; s < spec.schedulers.length; s++) jobs.push({ schedIndex: s, repetition: r })
  return jobs
}

/**
 * Run a whole experiment — each scheduler entry, each repetition — in child processes, and
 * summarise. Failed runs are reported through `failed` and left out of the summary.
 */
export class ExperimentRunner {
  private pool: RunPool | null = null

  async run(
    spec: ResolvedSpec,
    ev: ExperimentEvents = {},
    opts: ExperimentOptions = {},
  ): Promise<ExperimentResult> {
    const label = (j: RunJob): string => spec.schedulers[j.schedIndex].label
    const runs: RunResult[] = []
    const attempts = spec.schedulers.map(() => 0)
    // every repetition asked for at once; then, repeating until stable, a round at a time
    let jobs = jobsOf(spec)
    const own = opts.pool === undefined && opts.jobs !== 0
    this.ownPool = own
    if (own) this.pool = new RunPool(opts.jobs)
    else if (opts.pool) this.pool = opts.pool
    try {
      while (jobs.length > 0 && !this.cancelled && !opts.signal?.aborted) {
        let results: (RunResult | undefined)[]
        if (!this.pool) {
          results = jobs.map((j) =>
            simulate(spec, j.schedIndex, j.repetition, {
              why: opts.why ?? true,
              progress: (f, s) => ev.progress?.(label(j), j.repetition, f, s),
            }),
          )
        } else {
          results = await this.pool.runAll(
            spec,
            opts.why === false ? jobs.map((j) => ({ ...j, why: false })) : jobs,
            {
              progress: (j, f, s) => ev.progress?.(label(j), j.repetition, f, s),
              failed: (j, m) => ev.failed?.(label(j), j.repetition, m),
            },
            opts.signal,
          )
        }
        for (const j of jobs) attempts[j.schedIndex] = Math.max(attempts[j.schedIndex], j.repetition + 1)
        runs.push(...results.filter((r): r is RunResult => r !== undefined))
        if (!spec.untilStable) break
        jobs = nextRound(spec, runs, attempts)
        if (jobs.length > 0) ev.round?.(stabilityOf(spec, runs))
      }
    } finally {
      // its own children served every job; they go with it (a pool it was given stays)
      if (own) this.pool?.dispose()
      this.pool = null
    }
    return { schema: 'iosched-lab/experiment@1', name: spec.name, spec, runs, summary: summarizeRuns(runs) }
  }

  private cancelled = false
  private ownPool = false

  /** Stop: its own children are killed (a pool it was given is the caller's to stop, by the signal). */
  cancel(): void {
    this.cancelled = true
    if (this.ownPool) this.pool?.cancel()
  }
}
