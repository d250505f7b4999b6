// Comparing run sets against a baseline, with known values: Welch's t-test across repetitions
// (as R's t.test), Mann-Whitney on the merged latency histograms, ordered run times with the mean.
import { describe, expect, it } from 'vitest'
import { compareRunSets } from '../../src/shared/library/compare'
import type { CompareSetInput } from '../../src/shared/library/compare'
import { LatencyHistogram } from '../../src/shared/metrics/histogram'
import { mannWhitneyHistograms } from '../../src/shared/metrics/mann-whitney'
import { runSetsOf } from '../../src/shared/session/run-sets'
import { experiment, importedRuns } from './helpers'

const setsOf = (session: string, result = experiment(session, {})): CompareSetInput[] =>
  runSetsOf({ result, sweep: null, runs: [] }).map((s) => ({
    ref: { path: `/lib/${session}.json`, set: s.facts.key },
    session,
    facts: s.facts,
    runs: s.runs,
  }))

describe('library comparison', () => {
  const a = setsOf('A', experiment('A', { deadline: [12, 10, 11] }))
  const b = setsOf('B', experiment('B', { anticipatory: [21, 22, 20], noop: [11, 11.5, 10.5] }))
  const c = compareRunSets([...a, ...b], 0)

  it('lays out the baseline first, each set with its ordered run times and their average', () => {
    expect(c.baseline).toBe(0)
    expect(c.sets.map((s) => [s.session, s.facts.label])).toEqual([
      ['A', 'deadline'],
      ['B', 'anticipatory'],
      ['B', 'noop'],
    ])
    expect(c.sets[0].times).toEqual({ ordered: [10, 11, 12], mean: 11 })
    expect(c.sets[1].times).toEqual({ ordered: [20, 21, 22], mean: 21 })
    expect(c.metrics.map((m) => m.id)).toEqual([
      'run:seconds',
      'dev:readMBps',
      'dev:writeMBps',
      'proc:reader:seconds',
      'proc:reader:MBps',
      'proc:reader:IOPS',
      'proc:reader:p50',
      'proc:reader:p95',
      'proc:reader:p99',
      'proc:reader:p999',
    ])
    // the tail percentiles of all operations together: p50 ≤ p95 ≤ p99 ≤ p99.9
    const at = (id: string) => c.cells[0][c.metrics.findIndex((m) => m.id === id)]!.value!
    const tail = ['p50', 'p95', 'p99', 'p999'].map((p) => at(`proc:reader:${p}`))
    expect(tail).toEqual([...tail].sort((a, b) => a - b))
    expect(tail[1]).toBeGreaterThan(tail[0])
  })

  it("tests times across repetitions with Welch's t-test, as R's t.test", () => {
    const at = c.metrics.findIndex((m) => m.id === 'run:seconds')
    const base = c.cells[0][at]!
    expect(base).toMatchObject({ n: 3, value: 11, diffPercent: null, p: null, significant: false })
    expect(base.ci95).toBeCloseTo(2.484, 3) // t(0.975, 2) · 1 / √3
    const slow = c.cells[1][at]!
    // t.test(c(21, 22, 20), c(12, 10, 11)): t = 12.247, df = 4, p-value = 0.0002552
    expect(slow.diffPercent).toBeCloseTo(90.909, 3)
    expect(slow.p).toBeCloseTo(0.0002552, 6)
    expect(slow.significant).toBe(true)
    const same = c.cells[2][at]!
    // t.test(c(11, 11.5, 10.5), c(12, 10, 11)): t = 0, p-value = 1
    expect(same.diffPercent).toBeCloseTo(0, 10)
    expect(same.p).toBeCloseTo(1, 10)
    expect(same.significant).toBe(false)
  })

  it('tests latency distributions with Mann-Whitney on the merged histograms', () => {
    const at = c.metrics.findIndex((m) => m.id === 'proc:reader:p50')
    expect(c.metrics[at].test).toBe('mann-whitney')
    const merged = (s: CompareSetInput) => {
      const h = new LatencyHistogram()
      for (const r of s.runs) h.merge(LatencyHistogram.fromJSON(r.processes[0].latency))
      return h
    }
    const [h0, h1] = [merged(a[0]), merged(b[0])]
    const cell = c.cells[1][at]!
    expect(cell.n).toBe(600)
    expect(cell.value).toBe(h1.percentile(50) / 1e6)
    expect(cell.p).toBe(mannWhitneyHistograms(h0.toJSON(), h1.toJSON()).p)
    expect(cell.p!).toBeLessThan(1e-10)
    expect(cell.diffPercent!).toBeGreaterThan(80)
    expect(c.cells[1][at + 1]).toMatchObject({ p: null, significant: false }) // p99: the difference only
  })

  it('compares an imported job with a simulated process under the name the user maps it to', () => {
    // fio's job was called "t"; the simulated process is "reader"
    const imported = runSetsOf({ result: null, sweep: null, runs: importedRuns('fio disk', [22, 20]) })[0]
    const t = imported.runs.map((r) => ({ ...r, processes: r.processes.map((p) => ({ ...p, name: 't' })) }))
    const set = (rename?: Record<string, string>): CompareSetInput => ({
      ref: { path: '/lib/i.json', set: imported.facts.key, ...(rename ? { rename } : {}) },
      session: 'I',
      facts: imported.facts,
      runs: t,
    })
    const apart = compareRunSets([a[0], set()], 0)
    const time = (x: typeof apart, name: string) =>
      x.metrics.findIndex((m) => m.id === `proc:${name}:seconds`)
    // unmapped: each process has columns of its own, empty on the other side
    expect(apart.cells[1][time(apart, 'reader')]).toBeNull()
    expect(apart.cells[0][time(apart, 't')]).toBeNull()
    expect(apart.sets[1].processes).toEqual(['t'])
    const mapped = compareRunSets([a[0], set({ t: 'reader' })], 0)
    expect(mapped.metrics.some((m) => m.group === 't')).toBe(false)
    // the imported job's times (22, 20) against the simulated reader's (12, 10, 11)
    expect(mapped.cells[1][time(mapped, 'reader')]).toMatchObject({ n: 2, value: 21 })
    expect(mapped.cells[1][time(mapped, 'reader')]!.diffPercent).toBeCloseTo((100 * (21 - 11)) / 11, 9)
    // the set still says what its processes are called
    expect(mapped.sets[1].processes).toEqual(['t'])
    expect(mapped.sets[1].ref.rename).toEqual({ t: 'reader' })
  })

  it('refuses a mapping the run set cannot take, saying which set and why', () => {
    const imported = runSetsOf({ result: null, sweep: null, runs: importedRuns('fio disk', [22]) })[0]
    const set = (rename: Record<string, string>): CompareSetInput => ({
      ref: { path: '/lib/i.json', set: imported.facts.key, rename },
      session: 'I',
      facts: imported.facts,
      runs: [
        {
          ...imported.runs[0],
          processes: [imported.runs[0].processes[0], { ...imported.runs[0].processes[0], name: 'w' }],
        },
      ],
    })
    expect(() => compareRunSets([a[0], set({ x: 'reader' })], 0)).toThrow(
      `run set "${imported.facts.label}" of “I” has no process "x" to compare as "reader"`,
    )
    expect(() => compareRunSets([a[0], set({ w: 'reader' })], 0)).toThrow(
      'two of its processes would both be compared as "reader"',
    )
  })

  it('compares imported runs with simulated ones on what both measured', () => {
    const imported = runSetsOf({ result: null, sweep: null, runs: importedRuns('fio disk', [11]) })
    const x = compareRunSets(
      [
        a[0],
        {
          ref: { path: '/lib/i.json', set: imported[0].facts.key },
          session: 'I',
          facts: imported[0].facts,
          runs: imported[0].runs,
        },
      ],
      1,
    )
    expect(x.baseline).toBe(1)
    const at = x.metrics.findIndex((m) => m.id === 'run:seconds')
    // one run on a side: a difference, no test
    expect(x.cells[0][at]).toMatchObject({ n: 3, value: 11, diffPercent: 0, p: null, significant: false })
    expect(x.sets[1].facts).toMatchObject({ kind: 'imported', tool: 'fio', workloads: ['fio'] })
  })

  it('leaves a cell empty for a process a set does not run, and flags noisy sets', () => {
    const other = experiment('O', { cfq: [5, 9, 5.5] })
    other.runs.forEach((r) => (r.processes[0].name = 'writer'))
    const x = compareRunSets([...a, ...setsOf('O', other)])
    const reader = x.metrics.findIndex((m) => m.id === 'proc:reader:seconds')
    const writer = x.metrics.findIndex((m) => m.id === 'proc:writer:seconds')
    expect(x.cells[1][reader]).toBeNull()
    expect(x.cells[0][writer]).toBeNull()
    expect(x.cells[1][writer]).toMatchObject({ noisy: true, diffPercent: null })
    expect(x.cells[1][x.metrics.findIndex((m) => m.id === 'run:seconds')]?.noisy).toBe(true)
  })

  it('shows first the metric the workload makes sense of, and ranks no time of a time-based job', () => {
    // the reader reads 100 MB: a job of fixed size, judged by the run's time
    expect(c.defaultMetric).toBe('run:seconds')
    expect(c.metrics.find((m) => m.id === 'proc:reader:seconds')?.better).toBe('lower')
    // the same reader looping until a time limit ended each run: throughput, and no better time
    const looping = [...a, ...b].map((s) => ({
      ...s,
      runs: s.runs.map((r) => ({
        ...r,
        stoppedBy: 'time-limit' as const,
        processes: r.processes.map((p) => ({ ...p, finished: false })),
      })),
    }))
    const t = compareRunSets(looping, 0)
    expect(t.defaultMetric).toBe('proc:reader:MBps')
    expect(t.metrics.find((m) => m.id === 'run:seconds')?.better).toBeNull()
    expect(t.metrics.find((m) => m.id === 'proc:reader:seconds')?.better).toBeNull()
    expect(t.metrics.find((m) => m.id === 'proc:reader:MBps')?.better).toBe('higher')
  })

  it('refuses a baseline that is not one of the sets', () => {
    expect(() => compareRunSets(a, 3)).toThrow(RangeError)
  })
})
