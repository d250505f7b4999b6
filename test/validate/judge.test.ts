// Judging a workload's real runs: a pair of schedulers is separable when its difference holds
// round by round (the paired test over the rounds both ran in), so the machine's drift between
// rounds is not read as one scheduler beating another; Welch's test when rounds do not match.
import { describe, expect, it } from 'vitest'
import type { RunResult } from '../../src/shared/experiment/result'
import { judgeWorkload } from '../../src/shared/validate/judge'
import { syntheticRuns } from '../report/runs'

/** Runs of one label whose reader moved 100 MiB at these rates (× 104.9 MB/s), one per round. */
const runsAt = (label: string, rates: number[], firstRound = 0): RunResult[] =>
  syntheticRuns({ [label]: rates.map((r) => 1 / r) }).map((r, i) => ({ ...r, repetition: firstRound + i }))

const pairOf = (real: RunResult[]) =>
  judgeWorkload(['A', 'B'], ['reader'], 'reader', real, real).pairs.find((p) => p.metric === 'MBps')!

describe('judging real runs against drift', () => {
  it('separates a 10 % difference that every round shows, however far the rounds drift', () => {
    const drift = [1, 1.5, 2, 1.2, 0.8, 1.7]
    const wobble = [1.01, 0.99, 1.0, 1.02, 0.98, 1.0]
    const real = [
      ...runsAt('A', drift),
      ...runsAt(
        'B',
        drift.map((f, k) => 0.9 * f * wobble[k]),
      ),
    ]
    const p = pairOf(real)
    expect(p).toMatchObject({ a: 'A', b: 'B', test: 'paired', n: 6, separable: true })
    expect(p.realDifference).toBeCloseTo(0.1, 2)
    expect(p.p).toBeLessThan(1e-4)
  })

  it('does not separate two schedulers that differ only because one ran more, later rounds', () => {
    // three rounds side by side at the same speed; B's five extra rounds ran on a faster machine
    const real = [
      ...runsAt('A', [1, 1.02, 0.98]),
      ...runsAt('B', [1.01, 0.99, 1.0, 1.5, 1.6, 1.5, 1.55, 1.5]),
    ]
    const p = pairOf(real)
    expect(p).toMatchObject({ test: 'paired', n: 3, separable: false })
    expect(p.realDifference).toBeLessThan(0.02)
  })

  it("falls back to Welch's test when fewer than three rounds match", () => {
    const real = [...runsAt('A', [1, 1.02]), ...runsAt('B', [1.5, 1.52, 1.49], 2)]
    const p = pairOf(real)
    expect(p).toMatchObject({ a: 'B', b: 'A', test: 'welch', n: 2, separable: true })
    expect(p.realDifference).toBeCloseTo(1 - 1.01 / 1.5033, 3)
  })
})
