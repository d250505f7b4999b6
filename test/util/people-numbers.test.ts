// Numbers as people read them: ratios at one precision down a column.
import { describe, expect, it } from 'vitest'
import { change, significant, times } from '../../src/shared/util/people-numbers'

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
  })
})
