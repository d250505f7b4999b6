import { mean, stddev, summarize, welch } from './stats'
import type { Summary, WelchResult } from './stats'

/**
 * Comparing repeated runs: the coefficient of variation that makes a result "noisy", the
 * difference of a candidate from a baseline in percent with Welch's t-test, and Phoronix's
 * "repeat until stable" rule.
 */

/** A result whose coefficient of variation (stddev / mean) exceeds this is flagged noisy. */
export const NOISY_CV = 0.05

/** True when the values vary by more than `threshold` of their mean (needs n ≥ 2). */
export function isNoisy(values: ArrayLike<number>, threshold = NOISY_CV): boolean {
  const s = stddev(values)
  if (!(s > 0)) return false
  return s / Math.abs(mean(values)) > threshold
}

export interface Comparison {
  baseline: Summary
  candidate: Summary
  /** (mean(candidate) − mean(baseline)) / mean(baseline) × 100; NaN when the baseline's mean is 0. */
  diffPercent: number
  /** Welch's t-test of candidate against baseline (t > 0: the candidate's mean is higher). */
  welch: WelchResult
  /** p < alpha (NaN p — fewer than 2 runs on a side, or no variance at all — is never significant). */
  significant: boolean
  alpha: number
  noisy: { baseline: boolean; candidate: boolean }
}

/** Compare a candidate's repeated measurements with a baseline's (Welch's t-test at `alpha`, 5 %). */
export function compare(baseline: ArrayLike<number>, candidate: ArrayLike<number>, alpha = 0.05): Comparison {
  const b = summarize(baseline)
  const c = summarize(candidate)
  const w = welch(candidate, baseline)
  return {
    baseline: b,
    candidate: c,
    diffPercent: b.mean !== 0 ? ((c.mean - b.mean) / Math.abs(b.mean)) * 100 : NaN,
    welch: w,
    significant: w.p < alpha,
    alpha,
    noisy: { baseline: isNoisy(baseline), candidate: isNoisy(candidate) },
  }
}

export interface RepeatRule {
  /** Stop once stddev / mean is at or below this (Phoronix: about 3 %). */
  targetCv?: number
  /** Never more runs than this. */
  maxRuns: number
  /** Always at least this many (default 3, as Phoronix). */
  minRuns?: number
}

export interface RepeatDecision {
  more: boolean
  /** Coefficient of variation of the runs so far (NaN below 2 runs). */
  cv: number
  reason: 'too few runs' | 'not stable yet' | 'stable' | 'run cap reached'
}

/**
 * "Repeat until stable", as the Phoronix Test Suite does: after at least `minRuns`, stop when the
 * coefficient of variation is at most `targetCv` (3 %), or at `maxRuns` whatever it is. Pure: the
 * caller runs once more while `more` is true.
 */
export function needMoreRuns(values: ArrayLike<number>, rule: RepeatRule): RepeatDecision {
  const targetCv = rule.targetCv ?? 0.03
  const minRuns = Math.min(rule.minRuns ?? 3, rule.maxRuns)
  const n = values.length
  const s = stddev(values)
  const cv = n < 2 ? NaN : s > 0 ? s / Math.abs(mean(values)) : 0
  if (n >= rule.maxRuns) return { more: false, cv, reason: 'run cap reached' }
  if (n < minRuns) return { more: true, cv, reason: 'too few runs' }
  if (cv <= targetCv) return { more: false, cv, reason: 'stable' }
  return { more: true, cv, reason: 'not stable yet' }
}

/** Values in increasing order with their mean: how kernel mailing-list posts show repeated runs. */
export function orderedWithMean(values: ArrayLike<number>): { ordered: number[]; mean: number } {
  return { ordered: Array.from(values).sort((x, y) => x - y), mean: mean(values) }
}
