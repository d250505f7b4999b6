// Judging a workload's real runs: a pair of schedulers is separable when its difference holds
// round by round (the paired test over the rounds both ran in), so the machine's drift between
// rounds is not read as one scheduler beating another; Welch's test when rounds do not match.
import { describe, expect, it } from 'vitest'
import type { RunResult } from '../../src/shared/experiment/result'
import type { Pair } from '../../src/shared/validate/judge'
import { controlFalseDiscoveries, judgeWorkload } from '../../src/shared/validate/judge'
import { syntheticRuns } from '../report/runs'
import { LatencyHistogram } from '../../src/shared/metrics/histogram'
import { rmsCdfDistance } from '../../src/shared/metrics/cdf-distance'

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

describe('judging many pairs at once', () => {
  const pair = (p: number, realDifference = 0.1): Pair => ({
    process: 'reader',
    metric: 'MBps',
    a: 'A',
    b: 'B',
    realDifference,
    p,
    q: p,
    test: 'paired',
    n: 8,
    separable: false,
    simulated: 'tie',
    simulatedDifference: 0,
  })

  it('controls the false discoveries: p < 0.05 among a hundred tests is not enough', () => {
    // 99 pairs whose p-values are what chance gives (spread evenly), one with a real effect
    const pairs = [pair(1e-6), ...Array.from({ length: 99 }, (_, i) => pair((i + 1) / 100))]
    expect(pairs.filter((x) => x.p < 0.05)).toHaveLength(5)
    controlFalseDiscoveries(pairs)
    expect(pairs.filter((x) => x.separable)).toEqual([pairs[0]])
    expect(pairs[0].q).toBeCloseTo(1e-4, 12)
    expect(pairs[4].q).toBeCloseTo(0.8, 12) // p = 0.04: scipy 0.8
  })

  it('still asks for a difference of 5 % at least', () => {
    const pairs = [pair(1e-6, 0.04), pair(1e-6, 0.06)]
    controlFalseDiscoveries(pairs)
    expect(pairs.map((x) => x.separable)).toEqual([false, true])
  })
})

describe('the latency CDFs of a workload', () => {
  it('keep the real runs’ merged latencies, which give the same distance again (bench:resim)', () => {
    const real = [...runsAt('A', [1, 1.1, 0.9]), ...runsAt('B', [1.2, 1.3])]
    const simulated = [...runsAt('A', [1.5]), ...runsAt('B', [0.8])]
    const { cdf } = judgeWorkload(['A', 'B'], ['reader'], 'reader', real, simulated)
    for (const c of cdf) {
      const runs = real.filter((r) => r.label === c.scheduler)
      const count = runs.reduce((n, r) => n + LatencyHistogram.fromJSON(r.processes[0].latency).count, 0)
      expect(LatencyHistogram.fromJSON(c.real!).count).toBe(count)
      const sim = LatencyHistogram.fromJSON(
        simulated.find((r) => r.label === c.scheduler)!.processes[0].latency,
      )
      expect(rmsCdfDistance(c.real!, sim.toJSON()).relative).toBeCloseTo(c.relative, 12)
    }
    expect(cdf.map((c) => c.scheduler)).toEqual(['A', 'B'])
  })
})
