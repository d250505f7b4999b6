import { describe, expect, it } from 'vitest'
import { LOG_DECADES, logFloor, scaleType, spanDecades, typical } from '../../src/renderer/src/lib/scales'

describe('linear or log axes', () => {
  it('measures the decades between the smallest and largest positive value', () => {
    expect(spanDecades([1, 4, 16, 64])).toBeCloseTo(Math.log10(64), 12)
    expect(spanDecades([10, 1700])).toBeCloseTo(Math.log10(170), 12)
    // zeros, negatives and gaps are not on a log axis: they do not count
    expect(spanDecades([0, -5, NaN, Infinity, 2, 20])).toBeCloseTo(1, 12)
    expect(spanDecades([7])).toBe(0)
    expect(spanDecades([])).toBe(0)
  })

  it('goes logarithmic on its own only past 1.5 decades', () => {
    expect(LOG_DECADES).toBe(1.5)
    // a sweep of 1, 4, 16, 64: 1.8 decades
    expect(scaleType('auto', [1, 4, 16, 64])).toBe('logarithmic')
    // 1, 4, 16: 1.2 decades, as readable on a linear axis
    expect(scaleType('auto', [1, 4, 16])).toBe('linear')
    // a 10 MB/s reader beside a 1.7 GB/s writer
    expect(scaleType('auto', [10, 1700])).toBe('logarithmic')
    expect(scaleType('auto', [10, 10 * 10 ** 1.5])).toBe('linear')
    expect(scaleType('auto', [10, 10 * 10 ** 1.51])).toBe('logarithmic')
  })

  it('does what the user picks, whatever the span', () => {
    expect(scaleType('linear', [1, 1e6])).toBe('linear')
    expect(scaleType('log', [5, 6])).toBe('logarithmic')
  })

  it('sizes a series by its median positive value, so idle intervals and a burst do not make it log', () => {
    // a reader at about 100 MB/s with idle seconds and one 5 GB/s cache burst
    const reader = [0, 0, 98, 101, 100, 5000, 99, 0]
    expect(typical(reader)).toBe(100)
    expect(scaleType('auto', [typical(reader)])).toBe('linear')
    // beside it a writer at 2 MB/s: the series differ by 1.7 decades
    expect(scaleType('auto', [typical(reader), typical([2, 2, 0, 2])])).toBe('logarithmic')
    expect(typical([0, 0])).toBeNaN()
    expect(typical([3, 1])).toBe(2)
  })
})

describe('where a log axis starts', () => {
  it('starts at the power of ten at least a factor of two below the smallest value', () => {
    expect(logFloor([10.5, 3493])).toBe(1)
    expect(logFloor([0, 250, 1700])).toBe(100)
    expect(logFloor([0, 150])).toBe(10)
    expect(logFloor([0.3, 2])).toBe(0.1)
    expect(logFloor([0, NaN, -1])).toBeUndefined()
  })
})
