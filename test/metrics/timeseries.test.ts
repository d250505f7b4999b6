import { describe, expect, it } from 'vitest'
import { READ, WRITE } from '../../src/shared/block/types'
import { TimeSeries } from '../../src/shared/metrics'
import { MS, SECOND } from '../../src/shared/sim/time'

const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0)

describe('TimeSeries', () => {
  it('integrates a level that first appears inside the bin a transfer already found', () => {
    // the bin a transfer found is remembered (no division for the next time in it), and the level
    // arrays exist only once a level is integrated: the first level inside that bin must count
    const ts = new TimeSeries()
    ts.addTransfer(10 * MS, READ, 4096)
    ts.setLevels(20 * MS, 2, 1)
    ts.setLevels(30 * MS, 0, 0)
    ts.addTransfer(40 * MS, READ, 4096)
    const out = ts.finish(100 * MS)
    // 2 queued and 1 in flight for 10 of the bin's 100 ms
    expect(out.queued[0]).toBeCloseTo(0.2, 9)
    expect(out.inFlight[0]).toBeCloseTo(0.1, 9)
  })

  it('bins a known transfer pattern', () => {
    const ts = new TimeSeries()
    // 1 s of 4 KiB reads every ms, and one 1 MB write every 250 ms.
    for (let t = 0; t < SECOND; t += MS) ts.addTransfer(t, READ, 4096)
    for (let t = 0; t < SECOND; t += 250 * MS) ts.addTransfer(t, WRITE, 1_000_000)
    const out = ts.finish(SECOND)
    expect(out.intervalMs).toBe(100)
    expect(out.tMs).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900])
    for (let i = 0; i < 10; i++) {
      expect(out.readIops[i]).toBeCloseTo(1000, 9)
      expect(out.readMBps[i]).toBeCloseTo(4.096, 9)
    }
    // Writes at 0, 250, 500, 750 ms: bins 0, 2, 5, 7, each 1 MB in 0.1 s.
    expect(out.writeMBps).toEqual([10, 0, 10, 0, 0, 10, 0, 10, 0, 0])
    expect(out.writeIops).toEqual([10, 0, 10, 0, 0, 10, 0, 10, 0, 0])
    expect(ts.totalBytes(READ)).toBe(1000 * 4096)
    expect(ts.totalBytes(WRITE)).toBe(4_000_000)
    expect(ts.totalRequests(READ)).toBe(1000)
    expect(ts.totalRequests(WRITE)).toBe(4)
  })

  it('averages a partial last bin over the part covered and counts completions at the very end', () => {
    const ts = new TimeSeries()
    ts.addTransfer(120 * MS, READ, 1_000_000)
    ts.addTransfer(150 * MS, READ, 1_000_000)
    ts.setLevels(100 * MS, 4, 2)
    const out = ts.finish(150 * MS)
    expect(out.tMs).toEqual([0, 100])
    expect(out.readMBps).toEqual([0, 40])
    expect(out.readIops).toEqual([0, 40])
    expect(out.queued).toEqual([0, 4])
    expect(out.inFlight).toEqual([0, 2])

    const edge = new TimeSeries()
    edge.addTransfer(200 * MS, WRITE, 500_000)
    expect(edge.finish(200 * MS).writeMBps).toEqual([0, 5])
    expect(new TimeSeries().finish(0).tMs).toEqual([])
  })

  it('gives rates alone as finish gives them, a completion at the very end in the last bin', () => {
    const at = (t: number): TimeSeries => {
      const ts = new TimeSeries()
      ts.addTransfer(120 * MS, READ, 1_000_000)
      ts.addTransfer(200 * MS, WRITE, 500_000)
      ts.addTransfer(t, READ, 250_000)
      return ts
    }
    for (const end of [200 * MS, 250 * MS, 7 * SECOND]) {
      const { intervalMs, readMBps, writeMBps } = at(end).finish(end)
      expect(at(end).rates(end)).toEqual({ intervalMs, readMBps, writeMBps })
    }
    expect(at(200 * MS).rates(200 * MS)).toEqual({ intervalMs: 100, readMBps: [0, 12.5], writeMBps: [0, 5] })
  })

  it('integrates levels across bin boundaries', () => {
    const ts = new TimeSeries()
    ts.setLevels(50 * MS, 3, 1) // 0 before 50 ms
    ts.setLevels(250 * MS, 1, 1) // 3 queued from 50 to 250 ms
    ts.setLevels(250 * MS, 2, 1) // instantly superseded
    ts.setLevels(330 * MS, 0, 0) // 2 queued from 250 to 330 ms
    const out = ts.finish(400 * MS)
    expect(out.queued[0]).toBeCloseTo(1.5, 12) // 3 × 50 ms / 100 ms
    expect(out.queued[1]).toBeCloseTo(3, 12)
    expect(out.queued[2]).toBeCloseTo(3 * 0.5 + 2 * 0.5, 12)
    expect(out.queued[3]).toBeCloseTo(2 * 0.3, 12)
    expect(out.inFlight).toEqual([0.5, 1, 1, 0.3])
    expect(() => ts.setLevels(399 * MS, 1, 1)).toThrow(RangeError)
  })

  it('merges pairs of bins when full, keeping totals and doubling the interval', () => {
    const ts = new TimeSeries({ intervalNs: 100 * MS, maxBins: 8 })
    let bytes = 0
    for (let t = 0; t < 0.8 * SECOND; t += 10 * MS) {
      ts.addTransfer(t, READ, 1000)
      bytes += 1000
    }
    ts.setLevels(0, 2, 1)
    expect(ts.intervalNs).toBe(100 * MS)
    ts.addTransfer(0.8 * SECOND, READ, 1000) // bin 8 of 8: merge
    bytes += 1000
    expect(ts.intervalNs).toBe(200 * MS)
    expect(ts.totalBytes(READ)).toBe(bytes)
    const out = ts.finish(1.6 * SECOND)
    expect(out.intervalMs).toBe(200)
    expect(out.tMs).toEqual([0, 200, 400, 600, 800, 1000, 1200, 1400])
    expect(out.readIops.slice(0, 4)).toEqual([100, 100, 100, 100])
    expect(out.readIops[4]).toBe(5)
    expect(out.queued).toEqual([2, 2, 2, 2, 2, 2, 2, 2])
    expect(out.inFlight).toEqual([1, 1, 1, 1, 1, 1, 1, 1])
    expect(ts.totalBytes(READ)).toBe(bytes)
    expect(ts.totalRequests(READ)).toBe(81)
  })

  it('keeps levels that first rise after the bins grew and merged', () => {
    // transfers only (as the collector's per-process series): levels come after growth and merging
    const ts = new TimeSeries({ intervalNs: 100 * MS, maxBins: 4 })
    for (let t = 0; t < 0.6 * SECOND; t += 100 * MS) ts.addTransfer(t, READ, 1000)
    expect(ts.intervalNs).toBe(200 * MS)
    ts.setLevels(500 * MS, 4, 2)
    ts.setLevels(700 * MS, 0, 0)
    const out = ts.finish(800 * MS)
    expect(out.readIops).toEqual([10, 10, 10, 0])
    expect(out.queued).toEqual([0, 0, 4 * 0.5, 4 * 0.5])
    expect(out.inFlight).toEqual([0, 0, 1, 1])
    const none = new TimeSeries()
    none.addTransfer(150 * MS, READ, 1000)
    expect(none.finish(300 * MS).queued).toEqual([0, 0, 0])
  })

  it('stays within maxBins over 10^6 s of simulated time', () => {
    const ts = new TimeSeries()
    const end = 1e6 * SECOND
    let bytes = 0
    let requests = 0
    let q = 0
    // One completion and one level change every ~7.3 s of simulated time.
    for (let t = 0; t < end; t += 7_300 * MS + 13) {
      ts.addTransfer(t, requests % 3 === 0 ? WRITE : READ, 4096)
      bytes += 4096
      requests++
      q = (q + 1) % 5
      ts.setLevels(t, q, q > 0 ? 1 : 0)
    }
    const out = ts.finish(end)
    expect(out.tMs.length).toBeLessThanOrEqual(4096)
    expect(out.tMs.length).toBeGreaterThan(2048)
    expect(ts.intervalNs).toBe(100 * MS * 2 ** 12)
    expect(out.intervalMs).toBe(409_600)
    expect(ts.totalBytes(READ) + ts.totalBytes(WRITE)).toBe(bytes)
    expect(ts.totalRequests(READ) + ts.totalRequests(WRITE)).toBe(requests)
    const span = (i: number): number => Math.min(out.intervalMs, end / MS - out.tMs[i]) / 1000
    const mb = sum(out.readMBps.map((r, i) => r * span(i))) + sum(out.writeMBps.map((w, i) => w * span(i)))
    expect(mb * 1e6).toBeCloseTo(bytes, 0)
    for (const level of out.queued) expect(level).toBeGreaterThanOrEqual(0)
    for (const level of out.queued) expect(level).toBeLessThanOrEqual(4)
  })
})
