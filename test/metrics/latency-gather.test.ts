// Every process's latencies go through one gather and into their histograms a batch at a time,
// grouped by histogram: what is read is what recording each value one by one into its own
// histogram gives, pending values included, whatever the batch boundaries and the interleaving.
import { expect, it } from 'vitest'
import { LatencyHistogram } from '../../src/shared/metrics/histogram'
import { LatencyGather } from '../../src/shared/metrics/latency-gather'

it('reads as the values recorded one by one into each histogram, at any point', () => {
  const g = new LatencyGather()
  const hs = [g.open(), g.open(), g.open()]
  const ones = hs.map(() => new LatencyHistogram())
  let x = 7
  // more values than the gather holds, so it flushes on its own as well as when read
  for (let i = 0; i < 30000; i++) {
    x = (x * 48271) % 2147483647
    // latencies wandering over several powers of two, so the histograms' windows widen
    const v = Math.floor((x % 1000) * 2 ** (i % 17))
    const k = x % 5 === 0 ? 2 : x % 2 // the processes' values interleaved, unevenly
    g.record(hs[k], v)
    ones[k].record(v)
    if (i % 9973 === 0 || i === 29999)
      for (const k of [0, 1, 2]) expect(g.histogram(hs[k]).toJSON()).toEqual(ones[k].toJSON())
  }
  expect(hs.reduce((a, h) => a + g.histogram(h).count, 0)).toBe(30000)
})

it('forgets pending and recorded values of one histogram on reset, and only of that one', () => {
  const g = new LatencyGather()
  const [a, b] = [g.open(), g.open()]
  for (let i = 0; i < 10000; i++) g.record(i % 2 === 0 ? a : b, 1000 + i) // some flushed, some pending
  g.reset(a)
  g.record(a, 5)
  const h = g.histogram(a)
  expect([h.count, h.min, h.max, h.sum]).toEqual([1, 5, 5, 5])
  expect(g.histogram(b).count).toBe(5000)
})
