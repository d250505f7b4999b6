import { summarizeRuns } from '../../shared/experiment/compare'
import type { ExperimentResult } from '../../shared/experiment/compare'
import type { ResolvedSpec } from '../../shared/experiment/resolved'
import type { RunResult } from '../../shared/experiment/result'
import { simulate } from '../../shared/experiment/runner'
import { RunPool } from './run-pool'
import type { RunJob } from './run-pool'

export interface ExperimentEvents {
  progress?(label: string, repetition: number, fraction: number, simSeconds: number): void
  failed?(label: string, repetition: number, message: string): void
}

export interface ExperimentOptions {
  /** Simulation processes at once (default: cores). 0 runs in this process, one after another. */
  jobs?: number
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
    const jobs = jobsOf(spec)
    const label = (j: RunJob): string => spec.schedulers[j.schedIndex].label
    let results: (RunResult | undefined)[]
    if (opts.jobs === 0) {
      results = jobs.map((j) =>
        simulate(spec, j.schedIndex, j.repetition, {
          progress: (f, s) => ev.progress?.(label(j), j.repetition, f, s),
        }),
      )
    } else {
      this.pool = new RunPool(opts.jobs)
      try {
        results = await this.pool.runAll(spec, jobs, {
          progress: (j, f, s) => ev.progress?.(label(j), j.repetition, f, s),
          failed: (j, m) => ev.failed?.(label(j), j.repetition, m),
        })
      } finally {
        // its children served every job; they go with it
        this.pool.dispose()
        this.pool = null
      }
    }
    const runs = results.filter((r): r is RunResult => r !== undefined)
    return { schema: 'iosched-lab/experiment@1', name: spec.name, spec, runs, summary: summarizeRuns(runs) }
  }

  cancel(): void {
    this.pool?.cancel()
  }
}
