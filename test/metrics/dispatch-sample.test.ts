import { describe, expect, it } from 'vitest'
import { READ, WRITE } from '../../src/shared/block/types'
import { DispatchSample } from '../../src/shared/metrics'
import { MS, US } from '../../src/shared/sim/time'

describe('DispatchSample', () => {
  it('keeps everything until full', () => {
    const s = new DispatchSample(8)
    for (let i = 0; i < 8; i++) s.add(i * MS, 1000 + i, 8, i % 2 === 0 ? READ : WRITE, 42)
    expect(s.toJSON()).toEqual({
      stride: 1,
      tMs: [0, 1, 2, 3, 4, 5, 6, 7],
      sector: [1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007],
      nsect: [8, 8, 8, 8, 8, 8, 8, 8],
      op: [0, 1, 0, 1, 0, 1, 0, 1],
      pid: [42, 42, 42, 42, 42, 42, 42, 42],
    })
  })

  it('decimates systematically: every stride-th dispatch from the first', () => {
    const s = new DispatchSample(8)
    for (let i = 0; i < 37; i++) s.add(i * MS, i, 1, READ, i)
    // 37 dispatches, capacity 8: stride 8 keeps 0, 8, 16, 24, 32.
    const json = s.toJSON()
    expect(json.stride).toBe(8)
    expect(json.pid).toEqual([0, 8, 16, 24, 32])
    expect(json.tMs).toEqual([0, 8, 16, 24, 32])
    expect(s.total).toBe(37)
    s.reset()
    expect(s.count).toBe(0)
    s.add(5, 1, 1, WRITE, 1)
    expect(s.toJSON().stride).toBe(1)
  })

  it('stays within capacity after 10^7 dispatches and spans the whole run', () => {
    const s = new DispatchSample()
    const n = 1e7
    const step = 37 * US
    for (let i = 0; i < n; i++) s.add(i * step, (i * 48_271) % 1e9, 8 + (i & 7), i & 1, 1 + (i % 5))
    expect(s.count).toBeLessThanOrEqual(20_000)
    expect(s.count).toBeGreaterThanOrEqual(10_000)
    const json = s.toJSON()
    expect(json.tMs.length).toBe(s.count)
    expect(json.stride).toBe(512)
    const lastMs = ((n - 1) * step) / MS
    expect(json.tMs[0]).toBe(0)
    expect(lastMs - json.tMs[json.tMs.length - 1]).toBeLessThanOrEqual((json.stride * step) / MS)
    for (let k = 1; k < json.tMs.length; k++) {
      expect(json.tMs[k] - json.tMs[k - 1]).toBeCloseTo((json.stride * step) / MS, 6)
    }
    expect(json.sector[3]).toBe((3 * 512 * 48_271) % 1e9)
    expect(json.nsect[3]).toBe(8)
    expect(json.pid[3]).toBe(1 + ((3 * 512) % 5))
  })
})
