import { describe, expect, it } from 'vitest'
import { LatencyHistogram, summarizeLatency } from '../../src/shared/metrics'
import { MS, US } from '../../src/shared/sim/time'

function uniformMicros(n: number): LatencyHistogram {
  const h = new LatencyHistogram()
  for (let us = 1; us <= n; us++) h.record(us * US)
  return h
}

describe('LatencyHistogram', () => {
  it('reports percentiles of a uniform distribution within 1.6 %, min and max exactly', () => {
    const h = uniformMicros(100_000)
    expect(h.count).toBe(100_000)
    expect(h.min).toBe(1 * US)
    expect(h.max).toBe(100_000 * US)
    expect(h.mean).toBe(50_000.5 * US)
    for (const p of [1, 10, 25, 50, 75, 90, 99, 99.9]) {
      const exact = p * 1000 * US
      const got = h.percentile(p)
      expect(got).toBeGreaterThanOrEqual(exact)
      expect(Math.abs(got - exact) / exact).toBeLessThan(0.016)
    }
    expect(h.percentile(0)).toBe(h.min)
    expect(h.percentile(100)).toBe(h.max)
  })

  it('is exact below 128 ns and within 1/64 everywhere else', () => {
    const h = new LatencyHistogram()
    for (let v = 0; v < 128; v++) {
      h.reset()
      h.record(v)
      h.record(v + 1e6)
      expect(h.percentile(50)).toBe(v)
    }
    for (const v of [
      128,
      129,
      1000,
      65_535,
      2 ** 31 + 7,
      2 ** 32 - 1,
      2 ** 32,
      2 ** 40 + 12345,
      1e13,
      2 ** 53 - 1,
    ]) {
      h.reset()
      h.record(0)
      h.record(v)
      h.record(2 ** 53 - 1)
      const got = h.percentile(50)
      expect(got).toBeGreaterThanOrEqual(v)
      expect((got - v) / v).toBeLessThan(1 / 64)
    }
  })

  it('uses nearest rank without float surprises', () => {
    // 0.999 * 1000 is 999.0000000000001 in doubles: rank 999 must still be rank 999.
    const h = new LatencyHistogram()
    for (let i = 0; i < 998; i++) h.record(i < 499 ? 1 : 3)
    h.record(5)
    h.record(7)
    expect(h.percentile(99.9)).toBe(5)
    expect(h.percentile(99.95)).toBe(7)
    expect(h.percentile(100)).toBe(7)
    expect(h.percentile(49.9)).toBe(1)
    expect(h.percentile(50)).toBe(3)
    expect(h.percentile(0.01)).toBe(1)
  })

  it('treats an empty histogram as NaN and rejects bad values', () => {
    const h = new LatencyHistogram()
    expect(h.count).toBe(0)
    expect(h.min).toBeNaN()
    expect(h.max).toBeNaN()
    expect(h.mean).toBeNaN()
    expect(h.percentile(50)).toBeNaN()
    expect(h.cdf(10)).toEqual([])
    expect(() => h.record(-1)).toThrow(RangeError)
    expect(() => h.record(NaN)).toThrow(RangeError)
    expect(() => h.record(Infinity)).toThrow(RangeError)
  })

  it('merges as if both had been recorded in one', () => {
    const a = new LatencyHistogram()
    const b = new LatencyHistogram()
    const both = new LatencyHistogram()
    for (let i = 0; i < 5000; i++) {
      const x = (i * 7919) % 100_003
      const y = 50_000 + ((i * 104_729) % 10_000_000)
      a.record(x)
      b.record(y)
      both.record(x)
      both.record(y)
    }
    a.merge(b)
    expect(a.toJSON()).toEqual(both.toJSON())
    for (const p of [1, 50, 90, 99, 99.9]) expect(a.percentile(p)).toBe(both.percentile(p))
    expect(a.merge(new LatencyHistogram()).toJSON()).toEqual(both.toJSON())
  })

  it('round-trips through JSON', () => {
    const h = uniformMicros(10_000)
    h.record(0)
    h.record(3_600_000 * MS)
    const json = JSON.parse(JSON.stringify(h)) as ReturnType<LatencyHistogram['toJSON']>
    expect(json.bucketsPerPow2).toBe(64)
    expect(json.counts.length).toBeLessThan(1000)
    const back = LatencyHistogram.fromJSON(json)
    expect(back.toJSON()).toEqual(h.toJSON())
    expect(back.count).toBe(h.count)
    expect(back.min).toBe(h.min)
    expect(back.max).toBe(h.max)
    expect(back.mean).toBe(h.mean)
    expect(back.percentile(99)).toBe(h.percentile(99))
    const empty = LatencyHistogram.fromJSON(new LatencyHistogram().toJSON())
    expect(empty.count).toBe(0)
    expect(empty.min).toBeNaN()
    expect(() => LatencyHistogram.fromJSON({ ...json, bucketsPerPow2: 32 })).toThrow()
    expect(() => LatencyHistogram.fromJSON({ ...json, count: json.count + 1 })).toThrow()
  })

  it('gives a monotone CDF ending at (max, 1)', () => {
    const h = uniformMicros(100_000)
    for (const maxPoints of [1, 2, 50, 10_000]) {
      const cdf = h.cdf(maxPoints)
      expect(cdf.length).toBeGreaterThan(0)
      expect(cdf.length).toBeLessThanOrEqual(maxPoints)
      for (let i = 1; i < cdf.length; i++) {
        expect(cdf[i].valueNs).toBeGreaterThan(cdf[i - 1].valueNs)
        expect(cdf[i].fraction).toBeGreaterThan(cdf[i - 1].fraction)
      }
      expect(cdf[cdf.length - 1]).toEqual({ valueNs: h.max, fraction: 1 })
      if (maxPoints > 1) expect(cdf[0].valueNs).toBeLessThan(2 * US)
    }
    // The fraction at each point is exact: the share of values ≤ valueNs.
    for (const { valueNs, fraction } of h.cdf(100)) {
      expect(fraction).toBeCloseTo(Math.min(100_000, Math.floor(valueNs / US)) / 100_000, 12)
    }
  })

  it('summarizes in milliseconds', () => {
    const s = summarizeLatency(uniformMicros(100_000))
    expect(s.max).toBe(100)
    expect(s.mean).toBeCloseTo(50.0005, 9)
    expect(Math.abs(s.p50 - 50) / 50).toBeLessThan(0.016)
    expect(Math.abs(s.p90 - 90) / 90).toBeLessThan(0.016)
    expect(Math.abs(s.p99 - 99) / 99).toBeLessThan(0.016)
    expect(s.p999).toBeGreaterThanOrEqual(99.9)
    expect(s.p999).toBeLessThanOrEqual(100)
  })
})
