// Child-process entry: runs simulations one at a time, as its parent asks, and reports progress
// and each result. Started by the run pool with child_process.fork (CLI, browser host) or
// utilityProcess (app); the pool keeps it for the next job and kills it on cancel. It goes by
// itself within a fraction of a second when its parent goes, even mid-simulation (parent-watch.ts).
import { simulate } from '../../shared/experiment/runner'
import type { ResolvedSpec } from '../../shared/experiment/resolved'
import type { WorkerRequest, WorkerMessage } from '../services/worker-protocol'
import { exitIfOrphaned, watchParent } from './parent-watch'
import { raiseInliningBudget } from './v8-inlining'

raiseInliningBudget()

const send = (m: WorkerMessage): void => {
  process.send?.(m)
}

/** Thrown from the progress hook to end a warm-up simulation. */
const WARM_ENOUGH = new Error('warm enough')

/** Jobs received so far: a warm-up stops as soon as a job has come since it began. */
let jobs = 0

/**
 * Each entry in turn — for its share of `budgetMs`, or to its end without a budget — yielding
 * between entries so that a job that arrives meanwhile goes first (and ends the warm-up).
 */
async function warmUp(spec: ResolvedSpec, budgetMs: number | undefined): Promise<void> {
  const at = jobs
  const per = budgetMs === undefined ? Infinity : budgetMs / Math.max(1, spec.schedulers.length)
  for (let i = 0; i < spec.schedulers.length; i++) {
    await new Promise((r) => setImmediate(r))
    if (jobs !== at) return
    const end = Date.now() + per
    try {
      simulate(spec, i, 0, {
        progress: () => {
          exitIfOrphaned()
          if (Date.now() > end) throw WARM_ENOUGH
        },
      })
    } catch {
      // warm enough (or an entry that cannot run: its job will say so)
    }
  }
}

process.on('message', (msg: WorkerRequest) => {
  if (msg.type === 'warm') return void warmUp(msg.spec, msg.budgetMs)
  if (msg.type !== 'run') return
  jobs++
  try {
    let last = 0
    const result = simulate(msg.spec, msg.schedIndex, msg.repetition, {
      why: msg.why ?? true,
      progress: (fraction, simSeconds) => {
        exitIfOrphaned()
        const now = Date.now()
        if (now - last >= 100) {
          last = now
          send({ type: 'progress', fraction, simSeconds })
        }
      },
    })
    send({ type: 'done', result })
  } catch (e) {
    send({ type: 'failed', message: (e as Error).message ?? String(e) })
  }
})

// A parent that goes away (even killed) takes its idle children with it.
watchParent()

send({ type: 'ready' })
