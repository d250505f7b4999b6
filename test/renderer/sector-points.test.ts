// The sector pictures' points: thinned per direction, so that reads coming at a regular period
// among many writes are not all dropped by a stride that the period divides.
import { describe, expect, it } from 'vitest'
import { emptyRun } from '../../src/shared/import/empty-run'
import { sectorPoints } from '../../src/renderer/src/lib/series'

/** A run whose dispatches are writes with one read every `period`, from `first` on. */
function periodic(n: number, period: number, first: number) {
  const run = emptyRun({ label: 'noop', tool: 'test', file: 'x', repetition: 0, seconds: n / 1000 })
  const d = run.dispatches
  for (let k = 0; k < n; k++) {
    const read = k >= first && (k - first) % period === 0
    d.tMs.push(k)
    d.sector.push(read ? 1_300_000 + k : 250_000 + k * 8)
    d.nsect.push(8)
    d.op.push(read ? 0 : 1)
    d.pid.push(read ? 101 : 100)
  }
  return run
}

describe('sector-over-time points', () => {
  it('keep the sparse reads among 13,433 dispatches: one read per 65, 3,000 points', () => {
    const run = periodic(13_433, 65, 497)
    const reads = run.dispatches.op.filter((o) => o === 0).length // 200
    const { reads: r, writes: w, maxGiB } = sectorPoints(run, 3000)
    // every read, where every 5th dispatch kept none of them
    expect(r).toHaveLength(reads)
    expect(w.length).toBeGreaterThan(2000)
    expect(r.length + w.length).toBeLessThanOrEqual(3000)
    expect(maxGiB).toBe((Math.max(...run.dispatches.sector) * 512) / 2 ** 30)
  })

  it('give each direction at least half the points when both are many', () => {
    const run = periodic(20_000, 2, 0) // half reads, half writes
    const { reads, writes } = sectorPoints(run, 3000)
    expect(reads.length).toBeGreaterThanOrEqual(1000)
    expect(writes.length).toBeGreaterThanOrEqual(1000)
    expect(reads.length + writes.length).toBeLessThanOrEqual(3000)
    // spread over the whole run, not its start
    expect(reads.at(-1)!.x).toBeGreaterThan(19)
    expect(writes.at(-1)!.x).toBeGreaterThan(19)
  })
})
