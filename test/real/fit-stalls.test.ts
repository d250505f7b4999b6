// The host's stalls read off a deep queue's tail (fit-stalls.ts): the quantiles of how far beyond
// the median the slow requests were. fp45 on this machine (2026-12-06): among QD32 random reads,
// the requests beyond twice the median were all just beyond it but one, at 16 ms; with knots at
// 0/25/50/75/100 % the table rose straight from the 75 % knot to that one, so a quarter of the
// simulated stalls lasted 0.2–16 ms, and the re-simulated QD32 reads' p99 was 6.2× the measured.
import { describe, expect, it } from 'vitest'
import { correctStalls, initialStalls, stallTail } from '../../src/main/services/real/fit-stalls'
import { LatencyHistogram } from '../../src/shared/metrics/histogram'
import { parseQuantileTable } from '../../src/shared/devices/quantile-table'

/** 100 000 QD32 reads about 280 µs, 3 % of them 600 µs, one at 16 ms. */
function deepReads(): LatencyHistogram {
  const h = new LatencyHistogram()
  for (let i = 0; i < 97_000; i++) h.record(260_000 + (i % 41) * 1_000)
  for (let i = 0; i < 2_999; i++) h.record(600_000 + (i % 7) * 10_000)
  h.record(16_000_000)
  return h
}

/** 100 000 reads as deepReads() but for a tail of `slow` reads at `slowNs` and no outlier. */
function shortTail(slow: number, slowNs: number): LatencyHistogram {
  const h = new LatencyHistogram()
  for (let i = 0; i < 100_000 - slow; i++) h.record(260_000 + (i % 41) * 1_000)
  for (let i = 0; i < slow; i++) h.record(slowNs)
  return h
}

describe('the stalls read off a deep queue’s tail', () => {
  it('keeps one outlier in the top per cent of the stalls, not the top quarter', () => {
    const tail = stallTail(deepReads().toJSON())
    expect(tail.share).toBeGreaterThan(0.02)
    expect(tail.share).toBeLessThan(0.04)
    const excess = tail.excessMs
    // up to the 99th percentile of the stalled requests: about 0.3–0.4 ms beyond the median
    for (const ms of excess.slice(0, -1)) expect(ms).toBeLessThan(0.5)
    expect(excess[excess.length - 1]).toBeGreaterThan(15)
    const fit = initialStalls({ iops: 100_000, latency: deepReads().toJSON() }, 32)
    const table = parseQuantileTable(fit.values.stallMs as string, 'stallMs', [])!
    // the simulated stalls: 99 in 100 of them short, as the measured ones were; the longest as long
    expect(table.draw(0.99)).toBeLessThan(0.5)
    expect(table.draw(0.9)).toBeLessThan(0.5)
    expect(table.draw(1)).toBeGreaterThan(15)
  })

  it('never corrects a stall past the longest wait the deep reads had beyond their median', () => {
    // the simulated tail short of the measured at every knot, step after step (fp62 over its
    // span: 0.2 → 126 ms, where its reads never waited 21 ms beyond the median)
    const measured = deepReads().toJSON()
    const short = shortTail(3_000, 580_000)
    let v: Record<string, unknown> = {
      stallEveryMs: 10,
      stallMs: '0:0.2, 25:0.2, 50:0.3, 75:0.3, 90:0.3, 95:0.4, 99:0.4, 100:16',
    }
    for (let k = 0; k < 20; k++) v = { ...v, ...correctStalls(v as never, measured, short.toJSON()) }
    const table = parseQuantileTable(v.stallMs as string, 'stallMs', [])!
    const longest = stallTail(measured).excessMs.at(-1)!
    expect(Math.max(...table.v)).toBeLessThanOrEqual(longest + 0.001)
    expect(table.draw(1)).toBeGreaterThan(15)
  })

  it('never has the host stall more often than the deep reads had requests held beyond twice the median', () => {
    // a simulated tail that stays short (its median rising with the stalls) asks for ever more
    // stalls, step after step (fp63: every 0.1 ms, the old floor, with 0.7 µs of contention)
    const measured = deepReads().toJSON()
    const short = shortTail(100, 900_000)
    const iops = 100_000
    let v: Record<string, unknown> = { stallEveryMs: 10, stallMs: '0:0.2, 50:0.3, 100:16' }
    for (let k = 0; k < 40; k++) v = { ...v, ...correctStalls(v as never, measured, short.toJSON(), iops) }
    // each stall held at least one of the 3 % of requests beyond twice the median: ≤ 3 000 a second
    const soonest = 1000 / (stallTail(measured).share * iops)
    expect(v.stallEveryMs as number).toBeGreaterThanOrEqual(soonest - 0.001)
    expect(v.stallEveryMs as number).toBeLessThan(soonest + 0.01)
  })
})
