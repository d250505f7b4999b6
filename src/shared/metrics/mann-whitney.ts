import type { LatencyHistogramJSON } from './histogram'
import { normalSf } from './normal'

/**
 * The Mann-Whitney U test (Wilcoxon rank-sum) of two independent samples: are values of one
 * stochastically larger than those of the other? No assumption of normality, hence the test for
 * latency distributions. Conventions are scipy's `mannwhitneyu` (two-sided): U is sample a's
 * statistic, R_a − n_a(n_a + 1)/2 with mid-ranks for ties; `auto` computes the exact p-value when
 * there are no ties and one sample has at most 8 values, else the normal approximation with the
 * tie correction and a continuity correction.
 */
export interface MannWhitneyResult {
  /** U of sample a: pairs (x from a, y from b) with x > y, ties counting ½. */
  U: number
  /** Two-sided p-value. */
  p: number
  method: 'exact' | 'asymptotic'
  na: number
  nb: number
  /** U / (na·nb): the probability that a value of a exceeds one of b (ties ½); 0.5 = no difference. */
  probabilityOfSuperiority: number
}

export interface MannWhitneyOptions {
  method?: 'auto' | 'exact' | 'asymptotic'
  continuity?: boolean
}

/** Sorted distinct values with their counts in a and in b. */
type Groups = Array<{ a: number; b: number }>

/** Two samples of raw values. NaN throughout when either is empty. */
export function mannWhitney(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  options: MannWhitneyOptions = {},
): MannWhitneyResult {
  const all: Array<[number, 0 | 1]> = []
  for (let i = 0; i < a.length; i++) all.push([a[i], 0])
  for (let i = 0; i < b.length; i++) all.push([b[i], 1])
  all.sort((x, y) => x[0] - y[0])
  const groups: Groups = []
  let last = NaN
  for (const [v, s] of all) {
    if (v !== last || groups.length === 0) groups.push({ a: 0, b: 0 })
    last = v
    const g = groups[groups.length - 1]
    if (s === 0) g.a++
    else g.b++
  }
  return fromGroups(groups, options)
}

/**
 * Two latency histograms: values in the same bucket are ties (the buckets are narrower than 1/64
 * of their values, so this loses next to nothing), which makes the test O(buckets) for any count.
 */
export function mannWhitneyHistograms(
  a: LatencyHistogramJSON,
  b: LatencyHistogramJSON,
  options: MannWhitneyOptions = {},
): MannWhitneyResult {
  const byBucket = new Map<number, { a: number; b: number }>()
  for (const [i, c] of a.counts) byBucket.set(i, { a: c, b: byBucket.get(i)?.b ?? 0 })
  for (const [i, c] of b.counts) byBucket.set(i, { a: byBucket.get(i)?.a ?? 0, b: c })
  const groups = [...byBucket.entries()].sort((x, y) => x[0] - y[0]).map(([, g]) => g)
  return fromGroups(groups, options)
}

function fromGroups(groups: Groups, options: MannWhitneyOptions): MannWhitneyResult {
  let na = 0
  let nb = 0
  for (const g of groups) {
    na += g.a
    nb += g.b
  }
  const nan = { U: NaN, p: NaN, method: 'asymptotic' as const, na, nb, probabilityOfSuperiority: NaN }
  if (na === 0 || nb === 0) return nan
  let rankSum = 0
  let below = 0
  let tieTerm = 0
  for (const g of groups) {
    const t = g.a + g.b
    rankSum += g.a * (below + (t + 1) / 2)
    below += t
    tieTerm += t * t * t - t
  }
  const U = rankSum - (na * (na + 1)) / 2
  const ties = tieTerm > 0
  const method =
    options.method === 'exact' || options.method === 'asymptotic'
      ? options.method
      : (na <= 8 || nb <= 8) && !ties
        ? 'exact'
        : 'asymptotic'
  const big = Math.max(U, na * nb - U)
  let p: number
  if (method === 'exact') p = 2 * exactSf(Math.round(big), na, nb)
  else {
    const n = na + nb
    const s = Math.sqrt(((na * nb) / 12) * (n + 1 - tieTerm / (n * (n - 1))))
    const z = (big - (na * nb) / 2 - (options.continuity === false ? 0 : 0.5)) / s
    p = s > 0 ? 2 * normalSf(z) : 1
  }
  return { U, p: Math.min(1, Math.max(0, p)), method, na, nb, probabilityOfSuperiority: U / (na * nb) }
}

/**
 * P(U ≥ u) under the null hypothesis without ties. The counts of U are the coefficients of the
 * Gaussian binomial [m + n choose m]_q = ∏_{i=1..m} (1 − q^(n+i)) / (1 − q^i), built one factor at
 * a time with the smaller sample as m: O(m · m·n).
 */
export function exactSf(u: number, na: number, nb: number): number {
  const m = Math.min(na, nb)
  const n = Math.max(na, nb)
  const top = m * n
  if (u <= 0) return 1
  if (u > top) return 0
  const c = new Float64Array(top + 1)
  c[0] = 1
  for (let i = 1; i <= m; i++) {
    const k = n + i
    for (let j = Math.min(top, i * n); j >= k; j--) c[j] -= c[j - k]
    for (let j = i, end = Math.min(top, i * n); j <= end; j++) c[j] += c[j - i]
  }
  let total = 0
  let tail = 0
  for (let j = 0; j <= top; j++) {
    total += c[j]
    if (j >= u) tail += c[j]
  }
  return tail / total
}
