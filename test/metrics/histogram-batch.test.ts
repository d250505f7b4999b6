import { describe, expect, it } from 'vitest'
import { LatencyHistogram } from '../../src/shared/metrics/histogram'

describe('recording a gathered batch', () => {
  it('gives the same histogram as recording each value', () => {
    const xs = new Float64Array([5, 0, 1e9, 3, 123456, 7, 2 ** 40, 99])
    const one = new LatencyHistogram()
    for (let i = 1; i < xs.length; i += 2) one.record(xs[i])
    const batch = new LatencyHistogram()
    batch.record(42) // what was there stays
    one.record(42)
    batch.recordEvery(xs, 1, xs.length, 2)
    expect(batch.toJSON()).toEqual(one.toJSON())
  })

  it('refuses a value out of range, as record does', () => {
    expect(() => new LatencyHistogram().recordEvery(new Float64Array([1, -1]), 0, 2, 1)).toThrow(RangeError)
  })
})
