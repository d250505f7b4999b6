// Repeat until stable: which scheduler entries need another run, judged on the runs so far, and
// the experiment runner's rounds (in this process, deterministic) ending at stability or the cap.
import { describe, expect, it } from 'vitest'
import { ExperimentRunner } from '../../src/main/services/experiments'
import type { RunResult } from '../../src/shared/experiment/result'
import { summarizeRuns } from '../../src/shared/experiment/compare'
import {
  describeStability,
  identicalAdvice,
  identicalRepetitions,
  nextRound,
  stabilityOf,
} from '../../src/shared/experiment/stability'
import { syntheticRuns } from '../report/runs'
import { resolveSpec, validateSpec } from '../../src/shared/experiment/validate'

const base = {
  name: 'stable',
  device: { preset: 'hdd-7200-sata' },
  workload: { processes: [{ name: 'rr', type: 'random-read', params: { size: '64M', count: 100 } }] },
  schedulers: ['noop', 'deadline'],
}
/** A run of `label` whose processes moved data at these rates (MB/s). */
const run = (label: string, rates: Record<string, number>): RunResult =>
  ({
    label,
    processes: Object.entries(rates).map(([name, MBps]) => ({ name, MBps })),
  }) as unknown as RunResult

describe('repeat until stable', () => {
  it('judges each entry by the process whose throughput varies most', () => {
    const spec = resolveSpec({ ...base, repetitions: 3, untilStable: { cvPercent: 3, maxRepetitions: 5 } })
    const runs = [
      ...[10, 10.1, 9.9].map((r) => run('noop', { rr: r, idle: 0 })),
      ...[10, 12, 8].map((w, i) => run('deadline', { rr: 10 + i * 0.01, w })),
    ]
    const [noop, deadline] = stabilityOf(spec, runs)
    expect(noop).toMatchObject({ runs: 3, more: false, reason: 'stable', worst: 'rr' })
    expect(noop.cvPercent).toBeCloseTo(1, 5) // sd 0.1 over mean 10
    expect(deadline).toMatchObject({ runs: 3, more: true, reason: 'not stable yet', worst: 'w' })
    expect(deadline.cvPercent).toBeCloseTo(20, 5)
    expect(describeStability(deadline)).toBe('deadline: 3 runs, CV 20.0 % (w) — not stable yet')
    expect(nextRound(spec, runs, [3, 3])).toEqual([{ schedIndex: 1, repetition: 3 }])
    // at the cap: stable is still said as stable; the one that varies stopped at the cap
    const capped = resolveSpec({ ...base, repetitions: 3, untilStable: { maxRepetitions: 3 } })
    expect(stabilityOf(capped, runs).map((v) => v.reason)).toEqual(['stable', 'run cap reached'])
  })

  it('asks for the least number of runs first, and stops at the cap whatever the variation', () => {
    const spec = resolveSpec({ ...base, repetitions: 3, untilStable: { maxRepetitions: 4 } })
    expect(spec.untilStable).toEqual({ cvPercent: 3, maxRepetitions: 4 })
    const two = [run('noop', { rr: 1 }), run('noop', { rr: 1 })]
    expect(stabilityOf(spec, two)[0]).toMatchObject({ more: true, reason: 'too few runs', cvPercent: 0 })
    const four = [1, 2, 3, 4].map((r) => run('noop', { rr: r }))
    expect(stabilityOf(spec, four)[0]).toMatchObject({ more: false, reason: 'run cap reached' })
    // a failing entry: attempts count, so it ends at the cap too
    expect(nextRound(spec, [], [4, 2])).toEqual([{ schedIndex: 1, repetition: 2 }])
  })

  it('in complete blocks (real runs), runs every entry again while any still varies', () => {
    const spec = resolveSpec({ ...base, repetitions: 3, untilStable: { cvPercent: 3, maxRepetitions: 5 } })
    const runs = [
      ...[10, 10.1, 9.9].map((r) => run('noop', { rr: r })),
      ...[10, 12, 8].map((r) => run('deadline', { rr: r })),
    ]
    // noop is stable, deadline varies: a block of both, so neither is sampled later than the other
    expect(nextRound(spec, runs, [3, 3], true)).toEqual([
      { schedIndex: 0, repetition: 3 },
      { schedIndex: 1, repetition: 3 },
    ])
    // all stable: no block
    const calm = [...runs.slice(0, 3), ...[10, 10.1, 9.9].map((r) => run('deadline', { rr: r }))]
    expect(nextRound(spec, calm, [3, 3], true)).toEqual([])
    // at the cap: none, whatever varies
    expect(nextRound(spec, runs, [5, 5], true)).toEqual([])
  })

  it('without untilStable, runs exactly the repetitions asked for', () => {
    const spec = resolveSpec({ ...base, repetitions: 2 })
    const runs = [1, 5].map((r) => run('noop', { rr: r }))
    expect(stabilityOf(spec, runs)[0]).toMatchObject({ more: false, reason: 'run cap reached' })
    expect(nextRound(spec, runs, [2, 0])).toEqual([{ schedIndex: 1, repetition: 0 }])
  })

  it('refuses a cap below the least number of runs, naming the field', () => {
    const v = validateSpec({ ...base, repetitions: 5, untilStable: { maxRepetitions: 3 } })
    expect(v.ok).toBe(false)
    if (!v.ok)
      expect(v.issues).toContainEqual({
        path: 'untilStable.maxRepetitions',
        message: 'must be at least repetitions (5), the least number of runs; got 3',
      })
    const w = validateSpec({ ...base, untilStable: { maxRepetitions: 3, cv: 2 } })
    expect(w.ok).toBe(false)
  })

  it('runs rounds until every entry is stable or capped, deterministically', async () => {
    const spec = resolveSpec({ ...base, repetitions: 2, untilStable: { cvPercent: 1.5, maxRepetitions: 6 } })
    const rounds: string[][] = []
    const go = () =>
      new ExperimentRunner().run(spec, { round: (v) => rounds.push(v.map(describeStability)) }, { jobs: 0 })
    const a = await go()
    const verdicts = stabilityOf(spec, a.runs)
    for (const v of verdicts) {
      expect(v.more).toBe(false)
      expect(v.runs).toBeGreaterThanOrEqual(2)
      expect(v.runs).toBeLessThanOrEqual(6)
      // it stopped because it was stable, or at the cap while still varying
      if (v.reason === 'stable') expect(v.cvPercent!).toBeLessThanOrEqual(1.5)
      else expect(v).toMatchObject({ reason: 'run cap reached', runs: 6 })
    }
    // more than the least number of runs was needed here, one round at a time
    expect(a.runs.length).toBeGreaterThan(4)
    expect(rounds.length).toBeGreaterThan(0)
    expect(a.summary.map((s) => s.repetitions)).toEqual(verdicts.map((v) => v.runs))
    // each repetition once per entry, numbered 0…n−1
    for (const v of verdicts)
      expect(
        a.runs
          .filter((r) => r.label === v.label)
          .map((r) => r.repetition)
          .sort((x, y) => x - y),
      ).toEqual([...Array(v.runs).keys()])
    const b = await go()
    expect(JSON.stringify(b.runs)).toBe(JSON.stringify(a.runs))
  }, 60_000)

  it('tells identical repetitions (a deterministic workload) from varying ones', () => {
    const [same, varying] = summarizeRuns(
      syntheticRuns({ noop: [19.8, 19.8, 19.8], deadline: [19.8, 20.1, 19.7] }),
    )
    expect(identicalRepetitions(same)).toBe(true)
    expect(identicalRepetitions(varying)).toBe(false)
    expect(identicalRepetitions(summarizeRuns(syntheticRuns({ noop: [19.8] }))[0])).toBe(false)
    expect(identicalAdvice(7)).toContain("the spec's seed, 7,")
    expect(identicalAdvice(null)).toContain('random-read')
    const spec = resolveSpec({ ...base, repetitions: 3, untilStable: { cvPercent: 3, maxRepetitions: 5 } })
    const [noop] = stabilityOf(
      spec,
      [10, 10, 10].map((r) => run('noop', { rr: r })),
    )
    expect(describeStability(noop)).toBe(
      'noop: 3 runs, CV 0.0 % (rr) — stable, identical repetitions (deterministic workload)',
    )
  })
})
