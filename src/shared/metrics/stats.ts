import { studentTTwoSided, tCritical95 } from './student-t'

/**
 * Statistics over repeated runs (one value per run). Not for the hot path: these may allocate.
 * Conventions: n = 0 gives NaN everywhere (n itself excepted); the sample standard deviation,
 * the 95 % confidence half-width and the coefficient of variation need n ≥ 2 and are NaN below.
 */

export function mean(values: ArrayLike<number>): number {
  const n = values.length
  if (n === 0) return NaN
  let sum = 0
  for (let i = 0; i < n; i++) sum += values[i]
  return sum / n
}

export function median(values: ArrayLike<number>): number {
  const n = values.length
  if (n === 0) return NaN
  const sorted = Float64Array.from(values).sort()
  const mid = n >> 1
  return n % 2 === 1 ? sorted[mid] : 0.5 * (sorted[mid - 1] + sorted[mid])
}

/**
 * The mean of the values left when `share` of them is dropped at each end (0.1: the middle 80 %).
 * Where the values are whole numbers (a trace's microseconds) it moves by less than a unit when a
 * few of them do, where the median jumps a whole unit.
 */
export function trimmedMean(values: ArrayLike<number>, share: number): number {
  const n = values.length
  if (n === 0) return NaN
  const sorted = Float64Array.from(values).sort()
  const cut = Math.min(Math.floor(n * share), (n - 1) >> 1)
  return mean(sorted.subarray(cut, n - cut))
}

/**
 * Sample variance (divisor n − 1); NaN for n < 2. Exactly 0 for identical values (the repetitions
 * of a deterministic run): their computed mean may differ from them in the last bit, which would
 * leave a variance of 1e-28 — a "± 4.3e-14" interval, and a t-test finding significance in noise.
 */
export function variance(values: ArrayLike<number>): number {
  const n = values.length
  if (n < 2) return NaN
  let same = true
  for (let i = 1; i < n && same; i++) same = values[i] === values[0]
  if (same) return Number.isFinite(values[0]) ? 0 : NaN
  const m = mean(values)
  let ss = 0
  for (let i = 0; i < n; i++) {
    const d = values[i] - m
    ss += d * d
  }
  return ss / (n - 1)
}

/** Sample standard deviation (divisor n − 1); NaN for n < 2. */
export function stddev(values: ArrayLike<number>): number {
  return Math.sqrt(variance(values))
}

/**
 * Half-width of the 95 % confidence interval of the mean: t_{0.975, n−1} · s / √n (Student's t).
 * NaN for n < 2.
 */
export function ci95(values: ArrayLike<number>): number {
  const n = values.length
  if (n < 2) return NaN
  return (tCritical95(n - 1) * stddev(values)) / Math.sqrt(n)
}

export interface Summary {
  n: number
  mean: number
  median: number
  /** Sample standard deviation (n − 1). */
  stddev: number
  /** Half-width of the 95 % confidence interval of the mean. */
  ci95: number
  min: number
  max: number
  /** Coefficient of variation, stddev / mean (±Infinity or NaN when the mean is 0). */
  cv: number
}

export function summarize(values: ArrayLike<number>): Summary {
  const n = values.length
  let min = n === 0 ? NaN : Infinity
  let max = n === 0 ? NaN : -Infinity
  for (let i = 0; i < n; i++) {
    if (values[i] < min) min = values[i]
    if (values[i] > max) max = values[i]
  }
  const m = mean(values)
  const s = stddev(values)
  return { n, mean: m, median: median(values), stddev: s, ci95: ci95(values), min, max, cv: s / m }
}

export interface WelchResult {
  /** (mean(a) − mean(b)) / standard error. */
  t: number
  /** Welch–Satterthwaite degrees of freedom. */
  df: number
  /** Two-sided p-value. */
  p: number
}

/**
 * Welch's unequal-variances t-test of mean(a) = mean(b), as R's `t.test(a, b)`. NaN throughout
 * when either sample has fewer than 2 values or both have zero variance.
 */
export function welch(a: ArrayLike<number>, b: ArrayLike<number>): WelchResult {
  const na = a.length
  const nb = b.length
  if (na < 2 || nb < 2) return { t: NaN, df: NaN, p: NaN }
  const va = variance(a) / na
  const vb = variance(b) / nb
  const se2 = va + vb
  if (!(se2 > 0)) return { t: NaN, df: NaN, p: NaN }
  const t = (mean(a) - mean(b)) / Math.sqrt(se2)
  const df = (se2 * se2) / ((va * va) / (na - 1) + (vb * vb) / (nb - 1))
  return { t, df, p: studentTTwoSided(t, df) }
}

/**
 * Half-width of the 95 % confidence interval of mean(a) − mean(b), unequal variances (Welch–
 * Satterthwaite degrees of freedom, as R's `t.test(a, b)$conf.int`). NaN when either sample has
 * fewer than 2 values; 0 when neither varies (identical repetitions: no spread to allow for).
 */
export function welchCi95(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const na = a.length
  const nb = b.length
  if (na < 2 || nb < 2) return NaN
  const va = variance(a) / na
  const vb = variance(b) / nb
  const se2 = va + vb
  if (!(se2 > 0)) return 0
  const df = (se2 * se2) / ((va * va) / (na - 1) + (vb * vb) / (nb - 1))
  return tCritical95(df) * Math.sqrt(se2)
}

/**
 * The paired t-test of mean(d) = 0 over differences d (one per block: the runs of two schedulers
 * side by side in time), as R's `t.test(a, b, paired = TRUE)` on d = a − b. NaN throughout below 2
 * differences or when they are all equal and zero; p = 0 when all are equal and non-zero.
 */
export function pairedT(d: ArrayLike<number>): WelchResult {
  const n = d.length
  if (n < 2) return { t: NaN, df: NaN, p: NaN }
  const m = mean(d)
  const v = variance(d)
  if (!(v > 0))
    return m !== 0 && Number.isFinite(m)
      ? { t: m > 0 ? Infinity : -Infinity, df: n - 1, p: 0 }
      : { t: NaN, df: NaN, p: NaN }
  const t = m / Math.sqrt(v / n)
  return { t, df: n - 1, p: studentTTwoSided(t, n - 1) }
}

/**
 * Benjamini–Hochberg adjusted p-values (q-values), as R's `p.adjust(p, "BH")`: a test is a
 * discovery at false-discovery rate α when its q < α, so that among many tests (a validation
 * compares a hundred scheduler pairs) about α of the discoveries are chance, not 5 % of all tests.
 * NaN p-values stay NaN and do not count as tests.
 */
export function benjaminiHochberg(p: readonly number[]): number[] {
  const idx = p.map((_, i) => i).filter((i) => !Number.isNaN(p[i]))
  idx.sort((a, b) => p[a] - p[b])
  const m = idx.length
  const q = p.map(() => NaN)
  let min = 1
  for (let k = m - 1; k >= 0; k--) {
    const i = idx[k]
    min = Math.min(min, (p[i] * m) / (k + 1))
    q[i] = min
  }
  return q
}
