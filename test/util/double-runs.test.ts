import { describe, expect, it } from 'vitest'
import { DoubleRuns } from '../../src/shared/util/double-runs'

describe('DoubleRuns', () => {
  it('gives each opener a zeroed run of its own, and keeps every run as the array grows', () => {
    const r = new DoubleRuns(3)
    const at: number[] = []
    // 64 runs fit the first array; 200 make it grow twice
    for (let i = 0; i < 200; i++) {
      const a = r.open()
      expect(r.data.subarray(a, a + 3)).toEqual(new Float64Array(3))
      r.data[a] = i
      r.data[a + 1] = -Infinity
      r.data[a + 2] = 2 ** 40 + i // no small integer: the kind of number runs are for
      at.push(a)
    }
    expect(new Set(at).size).toBe(200)
    expect(at.every((a) => a % 3 === 0)).toBe(true)
    at.forEach((a, i) => {
      expect(r.data[a]).toBe(i)
      expect(r.data[a + 1]).toBe(-Infinity)
      expect(r.data[a + 2]).toBe(2 ** 40 + i)
    })
  })
})
