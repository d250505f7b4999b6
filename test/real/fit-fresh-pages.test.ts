import { describe, expect, it } from 'vitest'
import { LatencyHistogram } from '../../src/shared/metrics/histogram'
import { correctFreshPage, freshWrites, warmPoolMiB } from '../../src/main/services/real/fit-fresh-pages'
import { medianPercentiles, medianResidual } from '../../src/main/services/real/fingerprint-sweep'

/** A buffered-write point's histogram: `fast` writes of about `baseUs`, `slow` ones `extraUs` later. */
function point(fast: number, slow: number, baseUs = 140, extraUs = 2560) {
  const h = new LatencyHistogram()
  for (let i = 0; i < fast; i++) h.record((baseUs + (i % 7)) * 1000)
  for (let i = 0; i < slow; i++) h.record((baseUs + extraUs + (i % 5) * 10) * 1000)
  return h.toJSON()
}

// Free page reporting read off the writes that touched reported memory, however few: the
// fingerprint of 2026-12-05 (fp34) had 2–3 of its 128 writes at 2.6–2.9 ms beside a median of
// 0.14 ms, where its first pass's median (p75) saw none of them and fitted 0.05 µs a page.
describe('reported pages and the warm pool, from a buffered write point', () => {
  it('with the probe’s price of a MiB of reported memory, does not take writes slow for another reason for fresh ones', () => {
    // fp40: two writes of 0.6 ms beside a median of 0.14 ms, read as fresh pages at 1.7 µs a page
    const hiccups = point(126, 2, 140, 460)
    expect(freshWrites(hiccups).count).toBe(2)
    expect(freshWrites(hiccups, 256 * 10.75 * 1000).count).toBe(0)
    expect(warmPoolMiB(hiccups, 64, 1, 256 * 10.75 * 1000)).toBe(64)
    // real ones still count
    expect(freshWrites(point(125, 3, 140, 2750), 256 * 10.75 * 1000).count).toBe(3)
  })

  it('finds the slow writes and their distance from the others, however few they are', () => {
    const few = freshWrites(point(125, 3))
    expect(few.count).toBe(3)
    expect(few.excessNs / 1000).toBeGreaterThan(2500)
    expect(few.excessNs / 1000).toBeLessThan(2650)
    // the whole first pass (fp33): the same distance
    const half = freshWrites(point(64, 64))
    expect(half.count).toBe(64)
    expect(half.excessNs / 1000).toBeGreaterThan(2500)
    expect(half.excessNs / 1000).toBeLessThan(2650)
    expect(freshWrites(point(128, 0)).count).toBe(0)
  })

  it('corrects the per-page cost by the measured distance against the simulated one', () => {
    // simulated without the cost: the whole distance, over 256 pages a MiB
    expect(correctFreshPage(0, point(125, 3), point(128, 0), 256)).toBeCloseTo(10, 0)
    // simulated with it already: nothing left to correct
    expect(correctFreshPage(10, point(125, 3), point(64, 64), 256)).toBeCloseTo(10, 0)
    // simulated too dear: back down
    expect(correctFreshPage(20, point(125, 3), point(64, 64, 140, 5120), 256)).toBeCloseTo(10, 0)
    // no write into reported memory measured: its cost was not seen, the value stays
    expect(correctFreshPage(7, point(128, 0), point(64, 64), 256)).toBe(7)
  })

  it('takes the first pass’s warm writes as the memory the guest never reports', () => {
    expect(warmPoolMiB(point(125, 3), 64)).toBe(61)
    expect(warmPoolMiB(point(64, 64), 64)).toBe(0)
    // none slow: at least the whole pass
    expect(warmPoolMiB(point(128, 0), 64)).toBe(64)
  })

  it('judges the re-simulated point at the median of each kind of write, in the shares measured', () => {
    // fp35: 15 % of the writes into reported pages. The passes' medians (p25, p75) both fell
    // among the warm writes, p75 in their spread (164–283 µs against a median of 147 µs)
    const measured = new LatencyHistogram()
    for (let i = 0; i < 70; i++) measured.record((135 + (i % 10)) * 1000)
    for (let i = 0; i < 20; i++) measured.record((170 + i * 6) * 1000)
    for (let i = 0; i < 18; i++) measured.record(2720_000)
    const [warm, fresh] = medianPercentiles('buffered-write', measured.toJSON())
    expect(warm).toBeCloseTo(50 * (1 - 18 / 108), 1)
    expect(fresh).toBeCloseTo(100 - 50 * (18 / 108), 1)
    // the model's two kinds, in the measured shares: the warm spread is not held against it
    expect(
      Math.abs(medianResidual('buffered-write', measured.toJSON(), point(90, 18, 138, 2582))),
    ).toBeLessThan(0.05)
    // the share of fresh writes wrong: the fresh writes' median falls among the warm ones
    expect(medianResidual('buffered-write', measured.toJSON(), point(105, 3, 138, 2582))).toBeLessThan(-0.5)
    // no fresh write: one kind, its median; other points: p50
    expect(medianPercentiles('buffered-write', point(128, 0))).toEqual([50])
    expect(medianPercentiles('qd1-randread', measured.toJSON())).toEqual([50])
  })
})
