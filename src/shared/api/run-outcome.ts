// A run's outcome as `run:done` carries it: the experiment (or every sweep point's) without its
// runs, since each run came already in its job's `run:job-done` — the flagship's eight would
// cross the channel a second time (about 1.5 MB of JSON) just as the page draws them. Instead the
// outcome names, in order, the jobs whose results make up its runs, and a client that kept those
// results puts the whole result back together (a saved session holds every run).
import type { ExperimentResult } from '../experiment/compare'
import type { RunResult } from '../experiment/result'
import type { RunJobRef, SweepResult, SweepSpec, SweepValue } from './contract'

/** An experiment without its runs; `runJobs` names them in order (their results came in run:job-done). */
export interface ExperimentOutcome extends Omit<ExperimentResult, 'runs'> {
  runJobs: RunJobRef[]
}

/** A sweep's outcome: each point's experiment without its runs. */
export interface SweepOutcome {
  sweep: SweepSpec
  points: { value: SweepValue; result: ExperimentOutcome }[]
}

/** Which job a result belongs to, as a map key (a real run's job and its simulation's differ). */
export const outcomeKey = (j: {
  point: number
  schedIndex: number
  repetition: number
  source?: string
}): string => `${j.source ?? 'sim'}:${j.point}:${j.schedIndex}:${j.repetition}`

/** The outcome of an experiment whose runs were each sent in run:job-done (`jobOf` says as which job). */
export function outcomeOf(
  r: ExperimentResult,
  jobOf: (run: RunResult, i: number) => RunJobRef,
): ExperimentOutcome {
  const { runs, ...rest } = r
  return { ...rest, runJobs: runs.map(jobOf) }
}

/**
 * The experiment again, its runs taken from the results that came in run:job-done (by
 * outcomeKey); `missing` names the jobs whose result is not among them (their runs are left out).
 */
export function resultOf(
  o: ExperimentOutcome,
  results: ReadonlyMap<string, RunResult>,
): { result: ExperimentResult; missing: RunJobRef[] } {
  const { runJobs, ...rest } = o
  const runs: RunResult[] = []
  const missing: RunJobRef[] = []
  for (const j of runJobs) {
    const r = results.get(outcomeKey(j))
    if (r) runs.push(r)
    else missing.push(j)
  }
  return { result: { ...rest, runs }, missing }
}

/** A sweep's result again, as `resultOf` does for each point. */
export function sweepResultOf(
  o: SweepOutcome,
  results: ReadonlyMap<string, RunResult>,
): { result: SweepResult; missing: RunJobRef[] } {
  const missing: RunJobRef[] = []
  const points = o.points.map((p) => {
    const r = resultOf(p.result, results)
    missing.push(...r.missing)
    return { value: p.value, result: r.result }
  })
  return { result: { sweep: o.sweep, points }, missing }
}
