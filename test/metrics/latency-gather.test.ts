// A process's latencies recorded a batch at a time: what is read is what recording each value
// one by one gives, pending values included, whatever the batch boundaries.
import { expect, it } from 'vitest'
import { LatencyHistogram } from '../../src/shared/metrics/histogram'
import { LatencyGather } from '../../src/shared/metrics/latency-gather'

it('reads as the values recorded one by one, at any point', () => {
  const g = new LatencyGather()
  const one = new LatencyHistogram()
  let x = 7
  for (let i = 0; i < 1000; i++) {
    x = (x * 48271) % 2147483647
    // latencies wandering over several powers of two, so the histogram's window widens
    const v = Math.floor((x % 1000) * 2 ** (i % 17))
    g.record(v)
    one.record(v)
    if (i % 97 === 0 || i === 999) expect(g.histogram().toJSON()).toEqual(one.toJSON())
  }
  expect(g.histogram().count).toBe(1000)
})

it('forgets pending and recorded values on reset', () => {
  const g = new LatencyGather()
  for (let i = 0; i < 100; i++) g.record(1000 + i) // 64 recorded, 36 pending
  g.reset()
  g.record(5)
  const h = g.histogram()
  expect([h.count, h.min, h.max, h.sum]).toEqual([1, 5, 5, 5])
})
