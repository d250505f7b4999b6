import type { RunResult } from '../experiment/result'
import { rmsCdfDistance } from '../metrics/cdf-distance'
import type { LatencyHistogramJSON } from '../metrics/histogram'
import { LatencyHistogram } from '../metrics/histogram'
import { benjaminiHochberg, ci95, mean, pairedT, welch } from '../metrics/stats'

/**
 * Judging the simulation against the kernel on one workload: per cell (scheduler × process ×
 * metric) the real mean ± 95 % CI, the simulated mean and their ratio; per pair of schedulers
 * whose real difference is beyond the noise, whether the simulation orders them the same way;
 * per cell the RMS distance of the latency CDFs relative to the real mean; and the two rankings.
 */

/** Metrics judged per process: its throughput, and its tail latency. */
export const METRICS = ['MBps', 'p99Ms'] as const
export type Metric = (typeof METRICS)[number]

/**
 * A real difference counts when its test puts it below this false-discovery rate (Benjamini–
 * Hochberg over every pair judged together: a validation tests a hundred pairs, and at p < 0.05
 * each, five would come out "separable" on a machine whose schedulers do not differ at all —
 * on this VM validate found 3 to 5 such pairs a run, none of them the same twice): the paired t-test over the
 * rounds both schedulers ran in (runs of one repetition number ran side by side in time, the real
 * runner's complete blocks), on the log of their ratio, so the machine's drift between rounds
 * cancels; Welch's test over all runs when fewer than PAIRED_MIN rounds match…
 */
export const SEPARABLE_P = 0.05
/** …and it is at least this large (relative to the larger mean): smaller is no scheduler's doing. */
export const SEPARABLE_MIN = 0.05
/** Rounds both schedulers ran in, at least, for the paired test. */
export const PAIRED_MIN = 3
/** Simulated means closer than this (relative) are a tie: the simulation did not order them. */
export const SIM_TIE = 0.01

export interface Sample {
  n: number
  mean: number
  ci95: number
  values: number[]
}

export interface Cell {
  scheduler: string
  process: string
  metric: Metric
  real: Sample
  simulated: Sample
  /** simulated ÷ real mean. */
  ratio: number
}

export interface Pair {
  process: string
  metric: Metric
  /** The scheduler with the higher real mean, then the other. */
  a: string
  b: string
  /**
   * (real a − real b) ÷ real a: of the means (Welch), or of the geometric mean of the per-round
   * ratios, 1 − 1 ÷ gmean(a ÷ b) (paired).
   */
  realDifference: number
  p: number
  /** p adjusted for the number of pairs judged together (Benjamini–Hochberg): separable below SEPARABLE_P. */
  q: number
  /** Which test gave p: paired over the rounds both ran in, or Welch's over all runs. */
  test: 'paired' | 'welch'
  /** The runs compared: matched rounds (paired) or the smaller sample (Welch). */
  n: number
  separable: boolean
  /** How the simulated means order a and b. */
  simulated: 'same' | 'opposite' | 'tie'
  simulatedDifference: number
}

export interface CdfCell {
  scheduler: string
  process: string
  ms: number
  /** RMS distance ÷ the real mean latency. */
  relative: number
  /**
   * The real runs' latencies, all repetitions merged: what the distance was measured against, kept
   * so a later model can be judged on the same runs (bench:resim). Absent in reports before it.
   */
  real?: LatencyHistogramJSON
}

export interface WorkloadJudgement {
  cells: Cell[]
  pairs: Pair[]
  cdf: CdfCell[]
  ranking: { process: string; metric: 'MBps'; real: string[]; simulated: string[] }
}

const sample = (values: number[]): Sample => ({
  n: values.length,
  mean: values.length ? mean(values) : NaN,
  ci95: values.length > 1 ? ci95(values) : NaN,
  values,
})

/** A process of the spec: its instances (`name/0` …) count as one. */
const specName = (name: string): string => name.replace(/\/\d+$/, '')

/** Per run, per process of the spec: the metric (instances' throughputs summed, tails the worst). */
function metricOf(run: RunResult, process: string, metric: Metric): number | null {
  const ps = run.processes.filter((p) => specName(p.name) === process)
  if (ps.length === 0) return null
  if (metric === 'MBps') return ps.reduce((a, p) => a + p.MBps, 0)
  const h = new LatencyHistogram()
  for (const p of ps) h.merge(LatencyHistogram.fromJSON(p.latency))
  return h.count > 0 ? h.percentile(99) / 1e6 : null
}

/** Per repetition (the round it ran in), the metric of `label`'s run. */
function byRound(
  runs: readonly RunResult[],
  label: string,
  process: string,
  metric: Metric,
): Map<number, number> {
  const out = new Map<number, number>()
  for (const r of runs) {
    if (r.label !== label) continue
    const x = metricOf(r, process, metric)
    if (x !== null && Number.isFinite(x)) out.set(r.repetition, x)
  }
  return out
}

function values(runs: readonly RunResult[], label: string, process: string, metric: Metric): number[] {
  return [...byRound(runs, label, process, metric).values()]
}

interface RealOrder {
  /** The better-measured first (higher mean), then the other. */
  first: 0 | 1
  realDifference: number
  p: number
  test: 'paired' | 'welch'
  n: number
}

/**
 * How the kernel ordered two schedulers' runs, and how sure that is. Paired when ≥ PAIRED_MIN rounds
 * hold both: the t-test on ln(x ÷ y) per round (drift multiplies both runs of a round alike; plain
 * differences where a value is 0). Otherwise Welch's test on all runs.
 */
function realOrder(x: Map<number, number>, y: Map<number, number>): RealOrder | null {
  if (x.size < 2 || y.size < 2) return null
  const rounds = [...x.keys()].filter((k) => y.has(k))
  if (rounds.length >= PAIRED_MIN) {
    const positive = rounds.every((k) => x.get(k)! > 0 && y.get(k)! > 0)
    const d = rounds.map((k) => (positive ? Math.log(x.get(k)! / y.get(k)!) : x.get(k)! - y.get(k)!))
    const md = mean(d)
    const t = pairedT(d)
    const first = md >= 0 ? 0 : 1
    // the better one's mean over the matched rounds (plain differences: relative to it)
    const top = Math.max(mean(rounds.map((k) => x.get(k)!)), mean(rounds.map((k) => y.get(k)!)))
    const realDifference = positive ? 1 - Math.exp(-Math.abs(md)) : top > 0 ? Math.abs(md) / top : 0
    const p = Number.isNaN(t.p) ? (realDifference > 0 ? 0 : 1) : t.p
    return { first, realDifference, p, test: 'paired', n: rounds.length }
  }
  const xs = [...x.values()]
  const ys = [...y.values()]
  const first = mean(xs) >= mean(ys) ? 0 : 1
  const [ra, rb] = first === 0 ? [xs, ys] : [ys, xs]
  const ma = mean(ra)
  const realDifference = ma > 0 ? (ma - mean(rb)) / ma : 0
  const w = welch(ra, rb)
  const p = Number.isNaN(w.p) ? (realDifference > 0 ? 0 : 1) : w.p
  return { first, realDifference, p, test: 'welch', n: Math.min(xs.length, ys.length) }
}

function latencyOf(runs: readonly RunResult[], label: string, process: string): LatencyHistogram {
  const h = new LatencyHistogram()
  for (const r of runs)
    if (r.label === label)
      for (const p of r.processes)
        if (specName(p.name) === process) h.merge(LatencyHistogram.fromJSON(p.latency))
  return h
}

/** Whether higher is better for a metric (throughput) or lower (latency). */
export const higherIsBetter = (m: Metric): boolean => m === 'MBps'

export function judgeWorkload(
  labels: readonly string[],
  processes: readonly string[],
  rankBy: string,
  real: readonly RunResult[],
  simulated: readonly RunResult[],
): WorkloadJudgement {
  const cells: Cell[] = []
  const pairs: Pair[] = []
  const cdf: CdfCell[] = []
  const ran = labels.filter((l) => real.some((r) => r.label === l))
  for (const process of processes) {
    for (const metric of METRICS) {
      for (const l of ran) {
        const r = sample(values(real, l, process, metric))
        const s = sample(values(simulated, l, process, metric))
        cells.push({ scheduler: l, process, metric, real: r, simulated: s, ratio: s.mean / r.mean })
      }
      for (let i = 0; i < ran.length; i++)
        for (let j = i + 1; j < ran.length; j++) {
          const o = realOrder(byRound(real, ran[i], process, metric), byRound(real, ran[j], process, metric))
          if (!o) continue
          const [a, b] = o.first === 0 ? [ran[i], ran[j]] : [ran[j], ran[i]]
          const { realDifference, p } = o
          const sa = mean(values(simulated, a, process, metric))
          const sb = mean(values(simulated, b, process, metric))
          const top = Math.max(Math.abs(sa), Math.abs(sb))
          const simulatedDifference = top > 0 ? (sa - sb) / top : 0
          pairs.push({
            process,
            metric,
            a,
            b,
            realDifference,
            p,
            test: o.test,
            n: o.n,
            q: p,
            separable: false,
            simulated:
              Math.abs(simulatedDifference) < SIM_TIE ? 'tie' : simulatedDifference > 0 ? 'same' : 'opposite',
            simulatedDifference,
          })
        }
    }
    for (const l of ran) {
      const measured = latencyOf(real, l, process).toJSON()
      const d = rmsCdfDistance(measured, latencyOf(simulated, l, process).toJSON())
      cdf.push({ scheduler: l, process, ms: d.ms, relative: d.relative, real: measured })
    }
  }
  controlFalseDiscoveries(pairs)
  const rank = (runs: readonly RunResult[]): string[] =>
    [...ran].sort((a, b) => mean(values(runs, b, rankBy, 'MBps')) - mean(values(runs, a, rankBy, 'MBps')))
  return {
    cells,
    pairs,
    cdf,
    ranking: { process: rankBy, metric: 'MBps', real: rank(real), simulated: rank(simulated) },
  }
}

/**
 * Judge pairs as one family: each pair's q (its p adjusted over all of them, Benjamini–Hochberg)
 * and whether it is separable (q < SEPARABLE_P and at least SEPARABLE_MIN apart). A workload's
 * judgement does it over its own pairs; a validation again over every workload's.
 */
export function controlFalseDiscoveries(pairs: Pair[]): void {
  const q = benjaminiHochberg(pairs.map((x) => x.p))
  pairs.forEach((x, i) => {
    x.q = q[i]
    x.separable = q[i] < SEPARABLE_P && x.realDifference >= SEPARABLE_MIN
  })
}

/** Over every workload: how many separable pairs, how many ordered as the kernel did, the CDFs. */
export interface ValidationSummary {
  pairs: number
  separablePairs: number
  orderedSame: number
  /** orderedSame ÷ separablePairs (1 when none is separable). */
  orderedShare: number
  /**
   * The same counts before the false-discovery control: pairs at p < SEPARABLE_P and at least
   * SEPARABLE_MIN apart, as if each had been tested alone (about 5 % of a noise-only matrix's).
   */
  uncorrected: { separablePairs: number; orderedSame: number }
  cells: number
  medianCdfRelative: number
}

export function summarizeJudgements(js: readonly WorkloadJudgement[]): ValidationSummary {
  const pairs = js.flatMap((j) => j.pairs)
  const separable = pairs.filter((p) => p.separable)
  const same = separable.filter((p) => p.simulated === 'same').length
  const alone = pairs.filter((p) => p.p < SEPARABLE_P && p.realDifference >= SEPARABLE_MIN)
  const rel = js
    .flatMap((j) => j.cdf.map((c) => c.relative))
    .filter((x) => Number.isFinite(x))
    .sort((a, b) => a - b)
  const median =
    rel.length === 0
      ? NaN
      : rel.length % 2
        ? rel[(rel.length - 1) / 2]
        : (rel[rel.length / 2 - 1] + rel[rel.length / 2]) / 2
  return {
    pairs: pairs.length,
    separablePairs: separable.length,
    orderedSame: same,
    orderedShare: separable.length ? same / separable.length : 1,
    uncorrected: {
      separablePairs: alone.length,
      orderedSame: alone.filter((p) => p.simulated === 'same').length,
    },
    cells: rel.length,
    medianCdfRelative: median,
  }
}
