import { describe, expect, it } from 'vitest'
import {
  ci95,
  logGamma,
  mean,
  median,
  regularizedIncompleteBeta,
  stddev,
  studentTCdf,
  studentTTwoSided,
  summarize,
  tCritical95,
  welch,
  welchCi95,
  pairedT,
  benjaminiHochberg,
  trimmedMean,
} from '../../src/shared/metrics'

describe('descriptive statistics', () => {
  // Σ = 40, mean 5, Σ(x − 5)² = 32, s² = 32/7.
  const xs = [2, 4, 4, 4, 5, 5, 7, 9]

  it('a trimmed mean drops a share at each end: whole numbers, a fraction', () => {
    // the middle 80 % of ten values: 1 … 2 without the 0 and the 30
    expect(trimmedMean([1, 1, 1, 2, 2, 2, 2, 1, 0, 30], 0.1)).toBe(12 / 8)
    // where the median of whole microseconds jumps from 1 to 2, the trimmed mean moves a little
    expect(median([1, 1, 1, 2, 2, 2])).toBe(1.5)
    expect(trimmedMean([1, 1, 2, 2, 2, 2], 0.2)).toBe(1.75)
    expect(trimmedMean([7], 0.4)).toBe(7)
    expect(trimmedMean([], 0.1)).toBeNaN()
  })

  it('match values computed by hand', () => {
    expect(mean(xs)).toBe(5)
    expect(median(xs)).toBe(4.5)
    expect(median([3, 1, 2])).toBe(2)
    expect(stddev(xs)).toBeCloseTo(Math.sqrt(32 / 7), 14)
    // t(0.975, 7) = 2.364624251592784
    expect(ci95(xs)).toBeCloseTo((2.364624251592784 * Math.sqrt(32 / 7)) / Math.sqrt(8), 14)
    expect(ci95(xs)).toBeCloseTo(1.7874879182362098, 12)
    expect(summarize(xs)).toEqual({
      n: 8,
      mean: 5,
      median: 4.5,
      stddev: stddev(xs),
      ci95: ci95(xs),
      min: 2,
      max: 9,
      cv: stddev(xs) / 5,
    })
    expect(summarize(new Float64Array([1, 3])).ci95).toBeCloseTo(12.706204736174694, 12)
  })

  it('handle n = 0 and n = 1', () => {
    expect(summarize([])).toEqual({
      n: 0,
      mean: NaN,
      median: NaN,
      stddev: NaN,
      ci95: NaN,
      min: NaN,
      max: NaN,
      cv: NaN,
    })
    expect(summarize([7])).toEqual({
      n: 1,
      mean: 7,
      median: 7,
      stddev: NaN,
      ci95: NaN,
      min: 7,
      max: 7,
      cv: NaN,
    })
  })

  it('give identical values (a deterministic run repeated) no spread at all, not floating-point noise', () => {
    // 0.1 × 3 summed and divided again is not 0.1 in the last bit: the deviations were 1e-17
    const same = [0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1]
    const s = summarize(same)
    expect([s.stddev, s.ci95, s.cv]).toEqual([0, 0, 0])
    expect(welch(same, [0.2, 0.2, 0.2]).p).toBeNaN() // no test where nothing varies
    expect(stddev([Infinity, Infinity])).toBeNaN()
  })
})

describe('Student t', () => {
  it('has log-gamma and incomplete beta as scipy', () => {
    expect(logGamma(0.5)).toBeCloseTo(0.5723649429247, 12)
    expect(logGamma(10.3)).toBeCloseTo(13.482036786138359, 12)
    expect(logGamma(1e-3)).toBeCloseTo(6.907178885383853, 12)
    expect(logGamma(1000.5)).toBeCloseTo(5908.674175848678, 9)
    expect(regularizedIncompleteBeta(0.3, 2.5, 3.5)).toBeCloseTo(0.29675298929566646, 13)
    expect(regularizedIncompleteBeta(0.01, 0.5, 10)).toBeCloseTo(0.3420718248432154, 13)
    expect(regularizedIncompleteBeta(0.35, 100, 200)).toBeCloseTo(0.7325714649575441, 12)
    expect(regularizedIncompleteBeta(0, 2, 3)).toBe(0)
    expect(regularizedIncompleteBeta(1, 2, 3)).toBe(1)
  })

  it('has the CDF of scipy.stats.t', () => {
    expect(studentTCdf(-2, 3)).toBeCloseTo(0.06966298427942152, 13)
    expect(studentTCdf(1.5, 7.5)).toBeCloseTo(0.912759714706768, 13)
    expect(studentTCdf(0.3, 0.7)).toBeCloseTo(0.5853824068143325, 13)
    expect(studentTCdf(0, 4)).toBe(0.5)
    expect(studentTCdf(-40, 2.5) / 7.09781714524669e-5).toBeCloseTo(1, 10)
    expect(studentTCdf(Infinity, 3)).toBe(1)
    expect(studentTCdf(-Infinity, 3)).toBe(0)
  })

  it('has 95 % critical values consistent with its CDF', () => {
    for (let df = 1; df <= 30; df++) expect(studentTTwoSided(tCritical95(df), df)).toBeCloseTo(0.05, 12)
    // scipy.stats.t.ppf(0.975, df)
    const beyond: Array<[number, number]> = [
      [31, 2.039513446396408],
      [35, 2.030107928250343],
      [40, 2.021075390306273],
      [50, 2.008559112100761],
      [60, 2.0002978220142604],
      [100, 1.9839715185235518],
      [120, 1.9799304050824402],
      [1000, 1.9623390808264083],
    ]
    for (const [df, t] of beyond) expect(Math.abs(tCritical95(df) - t)).toBeLessThan(1e-7)
    expect(tCritical95(1e9)).toBeCloseTo(1.959963984540054, 8)
    expect(studentTTwoSided(tCritical95(4.5), 4.5)).toBeCloseTo(0.05, 12)
    expect(tCritical95(0)).toBeNaN()
  })
})

describe('welchCi95', () => {
  it('is the half-width of scipy’s confidence interval of the difference (Welch)', () => {
    // scipy.stats.ttest_ind(a, b, equal_var=False).confidence_interval(0.95), half its width
    expect(welchCi95([1, 2, 3, 4], [2, 4, 6, 9])).toBeCloseTo(4.479925433050823, 6)
    expect(welchCi95([0.3, 0.45, 0.4], [0.5, 0.35, 0.48])).toBeCloseTo(0.17927068654095132, 6)
    // identical repetitions: no spread; one run: no interval
    expect(welchCi95([2, 2, 2], [3, 3])).toBe(0)
    expect(welchCi95([2], [3, 4])).toBeNaN()
  })
})

describe('welch', () => {
  it("matches R's t.test", () => {
    const a = [27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4]
    const b = [27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4]
    // R: t = -2.4554, df = 24.989, p-value = 0.02138 (scipy: -2.455356398286006, 24.988529290231416, 0.021378001462866992)
    const r = welch(a, b)
    expect(r.t).toBeCloseTo(-2.455356398286006, 12)
    expect(r.df).toBeCloseTo(24.988529290231416, 10)
    expect(r.p).toBeCloseTo(0.021378001462866992, 12)
    const swapped = welch(b, a)
    expect(swapped.t).toBeCloseTo(-r.t, 12)
    expect(swapped.p).toBeCloseTo(r.p, 14)
  })

  it('matches scipy for unequal sizes and variances', () => {
    const r = welch([1, 2, 3, 4, 5], [2, 4, 6, 8, 10, 12, 14])
    expect(r.t).toBeCloseTo(-2.809757434745082, 12)
    expect(r.df).toBeCloseTo(8.037105751391467, 10)
    expect(r.p).toBeCloseTo(0.02274725527967092, 12)
  })

  it('is NaN when undefined', () => {
    expect(welch([1], [1, 2, 3]).p).toBeNaN()
    expect(welch([2, 2, 2], [2, 2]).t).toBeNaN()
    expect(welch([1, 2], [1, 2]).p).toBe(1)
  })
})

describe('pairedT', () => {
  const diff = (a: number[], b: number[]): number[] => a.map((x, i) => x - b[i])

  it("matches scipy's ttest_rel", () => {
    // scipy.stats.ttest_rel([1,2,3,4], [1.5,2.1,3.9,4.8]): t = -3.199798380745162, p = 0.049339453062686854
    const r = pairedT(diff([1, 2, 3, 4], [1.5, 2.1, 3.9, 4.8]))
    expect(r.t).toBeCloseTo(-3.199798380745162, 12)
    expect(r.df).toBe(3)
    expect(r.p).toBeCloseTo(0.049339453062686854, 12)
    // a small shift that every pair shares is found, although Welch's test sees only the spread
    const a = [1, 2, 3, 4, 5, 6]
    const b = [1.2, 2.1, 3.3, 4.2, 5.4, 6.1]
    expect(pairedT(diff(a, b)).p).toBeCloseTo(0.006169843479873271, 12) // scipy ttest_rel
    expect(welch(a, b).p).toBeGreaterThan(0.8)
  })

  it('is NaN when undefined, and certain when every pair differs alike', () => {
    expect(pairedT([0.5]).p).toBeNaN()
    expect(pairedT([0, 0, 0]).p).toBeNaN()
    expect(pairedT([0.2, 0.2, 0.2])).toEqual({ t: Infinity, df: 2, p: 0 })
  })
})

describe('benjaminiHochberg', () => {
  it("matches R's p.adjust(p, 'BH') (scipy false_discovery_control)", () => {
    const q = benjaminiHochberg([0.001, 0.2, 0.04, 0.01])
    const want = [0.004, 0.2, 0.05333333333333333, 0.02]
    q.forEach((x, i) => expect(x).toBeCloseTo(want[i], 12))
  })

  it('lets one small p among many noisy ones through only when it is small for their number', () => {
    const noise = Array.from({ length: 19 }, (_, i) => (i + 1) / 20)
    // scipy: 0.5 (step-up: the smallest of 0.03 × 20 / 1 and 0.05 × 20 / 2 …)
    expect(benjaminiHochberg([0.03, ...noise])[0]).toBeCloseTo(0.5, 12)
    expect(benjaminiHochberg([1e-5, ...noise])[0]).toBeCloseTo(2e-4, 12)
    expect(benjaminiHochberg([NaN, 0.01])).toEqual([NaN, 0.01])
  })
})
