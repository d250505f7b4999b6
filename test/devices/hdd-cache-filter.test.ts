import { describe, expect, it } from 'vitest'
import { MARK_MASK, SegmentCache } from '../../src/shared/devices/hdd-cache'
import { Rng } from '../../src/shared/sim/rng'
import { sataMechanics } from './driver'

const mech = sataMechanics()

describe('the read buffer’s segment filter (what lets the NCQ picker skip the look-up)', () => {
  it('never says "not held" of an LBA a segment holds, marks only a few slots, and clears them', () => {
    const cache = new SegmentCache(mech, 8, 2048)
    const rng = new Rng(7)
    const slot = (s: number): number => ((s * cache.markScale) | 0) & MARK_MASK
    let held = 0
    for (let round = 0; round < 300; round++) {
      // a media read somewhere (near a few hot spots, so segments cluster and overlap), prefetching
      // for a while, then stopped by the next command: the buffer keeps what was read
      const base = [0, 1e6, 5e8, mech.capacitySectors - 1e5][round % 4]
      const s = Math.floor(base + rng.next() * 8e3)
      const t0 = round * 1e8
      cache.startStream(s, s + 8, t0, s)
      cache.abort(t0 + rng.next() * 4e6)
      // a segment of at most one bucket touches at most two slots
      const marked = cache.marks.reduce((a, v) => a + (v ? 1 : 0), 0)
      expect(marked).toBeLessThanOrEqual(2 * cache.count)
      for (let k = 0; k < 200; k++) {
        const probe = Math.floor(base + rng.next() * 1e4)
        if (cache.holds(probe, probe + 1)) {
          held++
          expect(cache.marks[slot(probe)], `LBA ${probe} is held`).not.toBe(0)
        }
      }
    }
    expect(held).toBeGreaterThan(100) // the probes did hit segments
    // the counts follow every change: with the buffer emptied, no slot is marked
    cache.invalidate(0, mech.capacitySectors)
    expect(cache.marks.every((v) => v === 0)).toBe(true)
  })
  it('counts the queued reads in marked slots as segments and the stream’s reach change', () => {
    const cache = new SegmentCache(mech, 4, 2048)
    const rng = new Rng(9)
    const queued: number[] = []
    const inMarked = (): number => queued.filter((s) => cache.marks[cache.slotOf(s)] !== 0).length
    let stayed = 0
    for (let round = 0; round < 400; round++) {
      const base = [0, 3e6, mech.capacitySectors - 1e5][round % 3]
      // reads join and leave the drive's queue
      if (queued.length < 32 || rng.next() < 0.5) {
        const s = Math.floor(base + rng.next() * 3e4)
        queued.push(s)
        cache.watch(s, 1)
      }
      if (rng.next() < 0.5) cache.watch(queued.splice(Math.floor(rng.next() * queued.length), 1)[0], -1)
      const s = Math.floor(base + rng.next() * 3e4)
      const t0 = round * 1e8
      cache.startStream(s, s + 8, t0, s)
      expect(cache.watchedMarked).toBe(inMarked())
      // while the stream runs, every LBA it could serve is marked
      for (const probe of [cache.streamFrom, cache.streamTo, (cache.streamFrom + cache.streamTo) >> 1])
        expect(cache.marks[cache.slotOf(probe)], `LBA ${probe} is in the stream's reach`).not.toBe(0)
      // a read the stream serves pushes its limit on
      if (round % 2 && cache.read(s + 8, s + 16, t0 + 3e6, t0 + 3e6) >= 0) {
        stayed++
        expect(cache.marks[cache.slotOf(cache.streamTo)]).not.toBe(0)
      }
      expect(cache.watchedMarked).toBe(inMarked())
      cache.abort(t0 + rng.next() * 4e6)
      expect(cache.watchedMarked).toBe(inMarked())
    }
    expect(stayed).toBeGreaterThan(100)
    expect(cache.watchedMarked).toBeGreaterThan(0)
    for (const s of queued) cache.watch(s, -1)
    expect(cache.watchedMarked).toBe(0)
  })
})
