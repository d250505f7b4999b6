// A run's progress for its hook, asked every slice of events: with a thousand processes it reads
// a window of them per report, not all of them, and its figure still follows theirs.
import { describe, expect, it } from 'vitest'
import { PROGRESS_WINDOW, ProgressTracker } from '../../src/shared/experiment/progress-tracker'
import { Rng } from '../../src/shared/sim/rng'

/** A process whose progress the test sets, counting the reads of it. */
class Proc {
  finishedAt = -1
  done = 0
  reads = 0
  readonly program = { progress: (): number => (this.reads++, this.done) }
}

const exact = (ps: Proc[]): number => ps.reduce((a, p) => a + (p.finishedAt >= 0 ? 1 : p.done), 0) / ps.length
const reads = (ps: Proc[]): number => ps.reduce((a, p) => a + p.reads, 0)

describe('ProgressTracker', () => {
  it('reads every process while they are few, giving the exact mean or the time gone by', () => {
    const ps = Array.from({ length: PROGRESS_WINDOW }, () => new Proc())
    const tracker = new ProgressTracker(ps)
    const rng = new Rng('progress-few')
    for (let k = 1; k <= 50; k++) {
      for (const p of ps) p.done = Math.min(1, p.done + rng.next() * 0.05)
      if (k === 30) ps[3].finishedAt = 1
      expect(tracker.fraction(k, 1000)).toBe(Math.max(k / 1000, exact(ps)))
    }
    ps[7].done = NaN // a program that cannot tell: the time gone by
    expect(tracker.fraction(400, 1000)).toBe(0.4)
    expect(new ProgressTracker([]).fraction(2000, 1000)).toBe(1)
  })

  it('reads a window of a thousand processes per report and lags by at most a round', () => {
    const n = 1000
    const ps = Array.from({ length: n }, () => new Proc())
    const tracker = new ProgressTracker(ps)
    const rng = new Rng('progress-many')
    const round = Math.ceil(n / PROGRESS_WINDOW) + 1
    const history: number[] = []
    let last = 0
    for (let k = 1; k <= 10 * round; k++) {
      for (const p of ps) p.done = Math.min(1, p.done + rng.next() * 0.002)
      history.push(exact(ps))
      const before = reads(ps)
      const f = tracker.fraction(0, 1000)
      // amortised: a full read once a round, a window each other report
      expect(reads(ps) - before).toBeLessThanOrEqual(n)
      // never ahead of the processes, never behind where they were a round ago; never going back
      expect(f).toBeLessThanOrEqual(exact(ps) + 1e-12)
      if (k > round) expect(f).toBeGreaterThanOrEqual(history[k - 1 - round] - 1e-12)
      expect(f).toBeGreaterThanOrEqual(last - 1e-12)
      last = f
    }
    expect(reads(ps)).toBeLessThanOrEqual(10 * round * 2 * PROGRESS_WINDOW + 2 * n)
    // a process that cannot tell is seen within a round
    ps[500].done = NaN
    let seen = false
    for (let k = 0; k < round && !seen; k++) seen = tracker.fraction(250, 1000) === 0.25
    expect(seen).toBe(true)
  })
})
