// Numbers as people read them: ratios at one precision down a column.
import { describe, expect, it } from 'vitest'
import { change, changeFrom, millis, significant, times } from '../../src/shared/util/people-numbers'
import { compare } from '../../src/shared/metrics/compare-runs'

describe('ratios at one precision', () => {
  it('keeps two significant figures with their zeros: ×1.0 beside ×0.89, not ×1', () => {
    expect([1, 1.013, 0.1, 0.0467, 14.2, 66.4, 99.7, 1234.5, 0.0004].map((v) => significant(v))).toEqual([
      '1.0',
      '1.0',
      '0.10',
      '0.047',
      '14',
      '66',
      '100',
      '1,235',
      '4.0e-4',
    ])
    expect(significant(NaN)).toBe('–')
  })

  it('writes a factor to two decimals whatever its size', () => {
    expect([1, 0.306, 12.4, 1234].map(times)).toEqual(['1.00×', '0.31×', '12.40×', '1,234.00×'])
    expect(times(null)).toBe('–')
  })

  it('writes a difference as a signed percentage up to twice the baseline, beyond as a factor', () => {
    expect([12.34, -45, 0, 100, -99.5].map(change)).toEqual(['+12.3 %', '−45 %', '±0 %', '+100 %', '−99.5 %'])
    // +6,525 % reads as the 66-fold it is; a hundredth past twice the baseline already a factor
    expect([6525, 100.01, 186.7, 250_000].map(change)).toEqual(['66.3×', '2×', '2.87×', '2,501×'])
    expect([null, undefined, NaN, Infinity].map(change)).toEqual(['', '', '', ''])
    // a figure against a baseline figure: as the library's compare of the same runs
    for (const [value, base] of [
      [0.0157, 0.334],
      [23.2, 0.334],
      [1, 1],
      [-2, 4],
    ])
      expect(changeFrom(value, base)).toBe(change(compare([base], [value]).diffPercent))
    expect(changeFrom(0.0157, 0.334)).toBe('−95.3 %')
    expect(changeFrom(23.2, 0.334)).toBe('69.5×')
    expect(changeFrom(1, 0)).toBe('')
  })
})

describe('times in milliseconds', () => {
  it('writes what is under 0.1 ms in microseconds, not 0.00144 ms or 8.5e-4 ms', () => {
    expect(millis(738)).toBe('738 ms')
    expect(millis(6.01)).toBe('6.01 ms')
    expect(millis(0.13)).toBe('0.13 ms')
    expect(millis(0.00144)).toBe('1.44 µs')
    expect(millis(8.5e-4)).toBe('0.85 µs')
    expect(millis(0.0607)).toBe('60.7 µs')
    expect(millis(0)).toBe('0 ms')
  })
})
