import { describe, expect, it } from 'vitest'
import { RaState, initRaSize, nextRaSize, ondemand } from '../../src/shared/host/readahead'

const noHole = (): number => -1

describe('read-ahead window sizing (mm/readahead.c)', () => {
  it('sizes the first window from the request', () => {
    // max = 32 pages (128 KiB)
    expect(initRaSize(1, 32)).toBe(4) // small read: ×4
    expect(initRaSize(4, 32)).toBe(8) // ≤ max/4: ×2
    expect(initRaSize(8, 32)).toBe(16)
    expect(initRaSize(9, 32)).toBe(32) // rounds up to 16 > max/4: max
    expect(initRaSize(32, 32)).toBe(32)
  })

  it('grows ×4 while small, then ×2, up to the maximum', () => {
    expect(nextRaSize(4, 32)).toBe(8) // 4 ≥ 32/16: ×2
    expect(nextRaSize(1, 32)).toBe(4) // 1 < 2: ×4
    expect(nextRaSize(16, 32)).toBe(32)
    expect(nextRaSize(32, 32)).toBe(32)
    expect(nextRaSize(4, 128)).toBe(16) // 4 < 128/16: ×4
    expect(nextRaSize(8, 128)).toBe(16) // 8 = 128/16: ×2
  })
})

describe('on-demand read-ahead', () => {
  it('starts at the first read and pushes the window forward on sequential hits', () => {
    const ra = new RaState()
    const max = 32
    // 4 KiB reads from page 0
    let w = ondemand(ra, max, 0, 1, false, noHole)!
    expect(w).toEqual({ start: 0, size: 4, marker: 1 }) // init 4, async 3 → marker at page 1
    // reaching the marker: the next window, grown, read asynchronously
    w = ondemand(ra, max, 1, 1, true, noHole)!
    expect(w.start).toBe(4)
    expect(w.size).toBe(8)
    expect(w.marker).toBe(4)
    w = ondemand(ra, max, 4, 1, true, noHole)!
    expect([w.start, w.size]).toEqual([12, 16])
    w = ondemand(ra, max, 12, 1, true, noHole)!
    expect([w.start, w.size]).toEqual([28, 32])
    w = ondemand(ra, max, 28, 1, true, noHole)!
    expect([w.start, w.size]).toEqual([60, 32]) // capped at read_ahead_kb
  })

  it('reads a lone random read as it is, without disturbing the state', () => {
    const ra = new RaState()
    ondemand(ra, 32, 0, 1, false, noHole)
    ra.prevPage = 0
    const w = ondemand(ra, 32, 5000, 2, false, noHole)!
    expect(w).toEqual({ start: 5000, size: 2, marker: -1 })
    expect(ra.start).toBe(0)
  })

  it('treats a miss right after the previous read as sequential', () => {
    const ra = new RaState()
    ra.prevPage = 99
    const w = ondemand(ra, 32, 100, 1, false, noHole)!
    expect(w.start).toBe(100)
    expect(w.size).toBe(4)
  })

  it('does nothing when read-ahead is off', () => {
    expect(ondemand(new RaState(), 0, 0, 1, false, noHole)).toBeNull()
  })
})
