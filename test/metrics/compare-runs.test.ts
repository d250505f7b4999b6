import { describe, expect, it } from 'vitest'
import { compare, isNoisy, needMoreRuns, orderedWithMean } from '../../src/shared/metrics/compare-runs'

describe('comparing repeated runs', () => {
  // reading 100 MB: five runs on a baseline, six on a candidate (seconds)
  const baseline = [21.4, 21.9, 22.1, 21.7, 22.3]
  const candidate = [19.8, 20.4, 20.1, 19.9, 20.6, 20.2]

  it('gives the difference in percent and Welch’s verdict (scipy ttest_ind, equal_var=False)', () => {
    const c = compare(baseline, candidate)
    expect(c.diffPercent).toBeCloseTo(((20.1666666666667 - 21.88) / 21.88) * 100, 9)
    expect(c.welch.t).toBeCloseTo(-8.61950335113615, 9)
    expect(c.welch.p / 2.4928014956940667e-5).toBeCloseTo(1, 6)
    expect(c.significant).toBe(true)
    expect(c.noisy).toEqual({ baseline: false, candidate: false })
    const same = compare([10, 11, 9, 10.5], [10.2, 9.8, 10.9, 9.6])
    expect(same.significant).toBe(false)
    expect(compare([10], [12]).significant).toBe(false)
  })

  it('flags as noisy a coefficient of variation over 5 %', () => {
    expect(isNoisy(baseline)).toBe(false) // cv 1.6 %
    expect(isNoisy([10, 12, 9, 11.5])).toBe(true) // cv 12 %
    expect(isNoisy([10])).toBe(false)
    expect(isNoisy([0, 0, 0])).toBe(false)
  })

  it('repeats until stable, as Phoronix does', () => {
    const rule = { targetCv: 0.03, maxRuns: 6 }
    expect(needMoreRuns([], rule)).toMatchObject({ more: true, reason: 'too few runs' })
    expect(needMoreRuns([10, 10.1], rule)).toMatchObject({ more: true, reason: 'too few runs' })
    expect(needMoreRuns([10, 10.1, 9.9], rule)).toMatchObject({ more: false, reason: 'stable' })
    expect(needMoreRuns([10, 12, 9], rule)).toMatchObject({ more: true, reason: 'not stable yet' })
    expect(needMoreRuns([10, 12, 9, 11, 10, 13], rule)).toMatchObject({
      more: false,
      reason: 'run cap reached',
    })
    expect(needMoreRuns([5], { maxRuns: 1 })).toMatchObject({ more: false, reason: 'run cap reached' })
    expect(needMoreRuns([10, 12, 9], rule).cv).toBeCloseTo(0.14782502241793033, 12)
  })

  it('orders run times with their mean, as kernel mailing-list posts show them', () => {
    expect(orderedWithMean([22.1, 21.4, 21.9])).toEqual({
      ordered: [21.4, 21.9, 22.1],
      mean: (22.1 + 21.4 + 21.9) / 3,
    })
  })
})
