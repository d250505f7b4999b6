import { describe, expect, it } from 'vitest'
import { LatencyHistogram } from '../../src/shared/metrics/histogram'
import { exactSf, mannWhitney, mannWhitneyHistograms } from '../../src/shared/metrics/mann-whitney'
import { normalCdf, normalSf } from '../../src/shared/metrics/normal'

// Reference values: scipy 1.17 (scipy.stats.norm, scipy.stats.mannwhitneyu, two-sided)
const close = (x: number, want: number, rel = 1e-9): void =>
  expect(Math.abs(x - want)).toBeLessThanOrEqual(rel * Math.abs(want))

describe('the normal distribution', () => {
  it('matches scipy in the body and far in the tails', () => {
    close(normalSf(1.96), 0.024997895148220435, 1e-12)
    close(normalSf(-0.5), 0.6914624612740131, 1e-12)
    close(normalSf(5), 2.866515718791933e-7, 1e-11)
    close(normalCdf(-8), 6.22096057427174e-16, 1e-10)
    expect(normalSf(0)).toBe(0.5)
  })
})

describe('Mann-Whitney U', () => {
  it('is exact for small samples without ties', () => {
    const r = mannWhitney([1.1, 2.3, 3.2, 4.8, 5.5], [2.0, 3.9, 6.1, 7.4, 8.2, 9.9])
    expect(r).toMatchObject({ U: 6, method: 'exact', na: 5, nb: 6 })
    close(r.p, 0.12554112554112554)
    close(
      mannWhitney([3.5, 1.25, 9.0], [2, 4.5, 6, 8, 10.5, 11, 12.5, 13, 14.5, 15, 16.5]).p,
      0.08791208791208792,
    )
    const sep = mannWhitney(
      Array.from({ length: 10 }, (_, i) => i + 1),
      Array.from({ length: 10 }, (_, i) => i + 11),
      {
        method: 'exact',
      },
    )
    expect(sep.U).toBe(0)
    close(sep.p, 1.082508822446903e-5)
    // one sample small, the other large: still exact, as scipy chooses
    const one = mannWhitney(
      [5.25, 17.25, 33.125],
      Array.from({ length: 50 }, (_, i) => i + 0.5),
    )
    expect(one).toMatchObject({ U: 55, method: 'exact' })
    close(one.p, 0.47238111500042695)
    // with a tie (5.5 in both): the normal approximation
    const tied = mannWhitney(
      [5.5, 17.25, 33.125],
      Array.from({ length: 50 }, (_, i) => i + 0.5),
    )
    expect(tied).toMatchObject({ U: 55.5, method: 'asymptotic' })
    close(tied.p, 0.4645806129615522)
  })

  it('uses the normal approximation with tie and continuity corrections otherwise', () => {
    const ties = mannWhitney([1, 2, 2, 3, 4], [2, 3, 3, 5, 6, 7])
    expect(ties).toMatchObject({ U: 6, method: 'asymptotic' })
    close(ties.p, 0.11390314458853068)
    close(
      mannWhitney([1.1, 2.3, 3.2, 4.8, 5.5], [2.0, 3.9, 6.1, 7.4, 8.2, 9.9], { method: 'asymptotic' }).p,
      0.12069080052744556,
    )
    close(
      mannWhitney([1.5, 2.5, 3.5], [4.5, 5.5, 6.5], { method: 'asymptotic', continuity: false }).p,
      0.049534613435626706,
    )
    expect(mannWhitney([1, 1, 1], [1, 1, 1, 1])).toMatchObject({ U: 6, p: 1 })
    expect(Number.isNaN(mannWhitney([], [1, 2]).p)).toBe(true)
  })

  it('compares latency histograms bucket by bucket, ties and all', () => {
    const a: number[] = []
    const b: number[] = []
    for (let v = 60; v < 120; v++) for (let k = 0; k < ((v * 7) % 5) + 1; k++) a.push(v)
    for (let v = 70; v < 128; v++) for (let k = 0; k < ((v * 3) % 4) + 1; k++) b.push(v)
    const raw = mannWhitney(a, b)
    expect(raw).toMatchObject({ U: 9462.5, na: 180, nb: 145, method: 'asymptotic' })
    close(raw.p, 2.0393828108179505e-5)
    const ha = new LatencyHistogram()
    const hb = new LatencyHistogram()
    a.forEach((v) => ha.record(v))
    b.forEach((v) => hb.record(v))
    const h = mannWhitneyHistograms(ha.toJSON(), hb.toJSON())
    expect(h.U).toBe(raw.U)
    close(h.p, raw.p, 1e-12)
    expect(h.probabilityOfSuperiority).toBeCloseTo(9462.5 / (180 * 145), 12)
  })

  it('has an exact null distribution that sums to one and is symmetric', () => {
    expect(exactSf(0, 4, 7)).toBe(1)
    expect(exactSf(29, 4, 7)).toBe(0)
    // P(U ≥ u) + P(U ≥ mn − u + 1) = 1 by symmetry
    for (let u = 0; u <= 29; u++) close(exactSf(u, 4, 7) + exactSf(29 - u, 4, 7), 1, 1e-12)
  })
})
