import type { ResolvedSpec } from '../../shared/experiment/resolved'
import type { RunResult } from '../../shared/experiment/result'

/** Parent → simulation child: one run at a time; a child serves any number of them in turn. */
export type WorkerRequest =
  /** `why: false`: without the run's why (RunHooks.why), the rest of the result the same. */
  | { type: 'run'; spec: ResolvedSpec; schedIndex: number; repetition: number; why?: boolean }
  /**
   * Before a run: simulate each scheduler entry of `spec` and drop the results, so the
   * simulator's hot code is compiled when the user presses Run (a cold child runs the flagship
   * about half as fast). With `budgetMs`, each entry for its share of that CPU time; without, each
   * to its end (a short spec made for warming up: the same work every time). A job that arrives
   * meanwhile goes first (at most one entry's time later) and ends the warm-up. Answers nothing.
   */
  | { type: 'warm'; spec: ResolvedSpec; budgetMs?: number }

/** Simulation child → parent: `ready` once at start, then per run its progress and its end. */
export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'progress'; fraction: number; simSeconds: number }
  | { type: 'done'; result: RunResult }
  | { type: 'failed'; message: string }
