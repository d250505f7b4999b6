import { describe, expect, it } from 'vitest'
import { atPlace, ciPlace, identicalValues, meanCi, meanCiParts } from '../../src/shared/report/mean-ci'

const plain = (x: number) => String(Number(x.toPrecision(3)))
const mc = (mean: number, ci95: number, n = 3) => meanCi({ n, mean, ci95 }, { plain })

describe('mean ± confidence interval', () => {
  it('rounds the interval to one significant digit, or two when it starts with 1 or 2', () => {
    expect(ciPlace(0.3312)).toBe(-1)
    expect(ciPlace(0.0299)).toBe(-3)
    expect(ciPlace(0.00015)).toBe(-5)
    expect(ciPlace(43)).toBe(1)
    expect(ciPlace(2345)).toBe(2)
    expect(ciPlace(1000)).toBe(2) // 1.0 × 10³, not 0.99…
    expect(ciPlace(0.0996)).toBe(-2) // rounds up to 0.10
    expect(ciPlace(0)).toBeNaN()
    expect(ciPlace(NaN)).toBeNaN()
  })

  it('prints the mean to the interval’s decimal place', () => {
    expect(mc(48.6123, 0.3312)).toBe('48.6 ± 0.3')
    expect(mc(1234.5, 43)).toBe('1230 ± 40')
    expect(mc(0.0195, 0.00015)).toBe('0.01950 ± 0.00015')
    expect(mc(42, 0.0996)).toBe('42.00 ± 0.10')
    expect(mc(42, 0.0299)).toBe('42.000 ± 0.030')
    expect(mc(-0.0001, 0.3)).toBe('0.00 ± 0.30')
    expect(meanCi({ n: 3, mean: 123456, ci95: 2345 }, { plain, group: true })).toBe('123,500 ± 2,300')
    expect(atPlace(1234.5678, -2, true)).toBe('1,234.57')
  })

  it('prints no interval for one value, nor for identical values (floating-point noise)', () => {
    expect(mc(7333.333, NaN, 1)).toBe('7330')
    // the half-width of identical values, computed: noise, not an interval
    expect(mc(7333.333, 4.3e-14)).toBe('7330')
    expect(meanCiParts({ n: 3, mean: 7333, ci95: 4.3e-14 }, { plain })).toEqual({
      mean: '7330',
      ci: null,
      identical: true,
    })
    expect(identicalValues({ n: 3, min: 19.8, max: 19.8 + 1e-14 })).toBe(true)
    expect(identicalValues({ n: 3, min: 19.8, max: 19.81 })).toBe(false)
    expect(identicalValues({ n: 1, min: 19.8, max: 19.8 })).toBe(false)
    // told by min and max when they are there, whatever the half-width says
    expect(meanCiParts({ n: 2, mean: 5, ci95: 1e-8, min: 5, max: 5 }, { plain }).identical).toBe(true)
    expect(meanCi({ n: 2, mean: 5, ci95: 0.5, min: 4.9, max: 5.1 }, { plain })).toBe('5.0 ± 0.5')
  })
})
