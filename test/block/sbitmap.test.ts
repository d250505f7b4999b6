import { describe, expect, it } from 'vitest'
import { sbitmapShift, shallowShares, shallowSlots, TokenBitmap } from '../../src/shared/block/sbitmap'
import { Rng } from '../../src/shared/sim/rng'

describe('sbitmap geometry', () => {
  it('picks words so that a map of 4 or more bits has at least four of them (sbitmap_calculate_shift)', () => {
    for (const depth of [4, 5, 31, 32, 64, 100, 128, 255, 256, 1000, 4096]) {
      const shift = sbitmapShift(depth)
      expect(Math.ceil(depth / (1 << shift))).toBeGreaterThanOrEqual(4)
      if (shift < 6) expect(4 << (shift + 1)).toBeGreaterThan(depth) // one step wider: fewer than four full words
    }
    expect(sbitmapShift(3)).toBe(6) // below 4 bits: one word of BITS_PER_LONG
  })

  it('a per-word shallow depth takes at most that many bits of every word', () => {
    // 128 tags: four words of 32
    expect(shallowShares(128, sbitmapShift(128), 8, 'per-word')).toEqual([8, 8, 8, 8])
    expect(shallowSlots(128, 96, 'per-word')).toBe(128) // 3/4 of the map, per word: no limit at all
  })

  it('the 6.17 whole-map rule shares the depth out as the kernel commit tabulates it', () => {
    // commit 42e6c6ce03fd's example: words of 32 + 32 + 32 + 16 bits
    const rows: [number, number[]][] = [
      [1, [1, 0, 0, 0]],
      [4, [1, 1, 1, 1]],
      [5, [2, 1, 1, 1]],
      [8, [3, 2, 2, 1]],
      [11, [3, 3, 3, 2]],
      [18, [5, 5, 5, 3]],
      [25, [7, 7, 7, 4]],
      [53, [15, 15, 15, 8]],
    ]
    for (const [shallow, shares] of rows) expect(shallowShares(112, 5, shallow, 'whole')).toEqual(shares)
    for (let d = 1; d <= 112; d++) {
      const s = shallowShares(112, 5, d, 'whole').reduce((a, b) => a + b, 0)
      expect(Math.abs(s - d)).toBeLessThanOrEqual(1)
    }
  })
})

describe('TokenBitmap (an sbitmap_queue of tokens)', () => {
  const full = (n: number): TokenBitmap => {
    const t = new TokenBitmap(n, new Rng(7))
    for (let i = 0; i < n; i++) expect(t.get()).toBeGreaterThanOrEqual(0)
    expect(t.get()).toBe(-1)
    return t
  }

  it('hands out every token once, then none', () => {
    const t = new TokenBitmap(128, new Rng(3))
    const got = new Set<number>()
    for (let i = 0; i < 128; i++) got.add(t.get())
    expect(got.size).toBe(128)
    expect(t.held).toBe(128)
  })

  it('reuses a freed token once its word is full (deferred clear), starting from the hint it left', () => {
    const t = full(128) // words of 32
    t.clear(10)
    t.clear(20) // the hint is now 20
    expect(t.get()).toBe(20) // word 0 looked full: its cleared bits come back, search from 20
    expect(t.get()).toBe(10) // hint moved past 20; nothing free up to 31: wrap within the word
    expect(t.get()).toBe(-1)
  })

  it('after a cut, takes no token at or past the new depth but one below it at once', () => {
    const t = full(128)
    t.resize(32)
    t.clear(100) // a holder from before the cut finishes: nothing to give out
    expect(t.get()).toBe(-1)
    expect(t.heldAbove()).toBe(127 - 32)
    t.clear(5) // a holder of a low token finishes: a new request gets in while 126 are held
    expect(t.get()).toBe(5)
    expect(t.held).toBe(127)
    expect(t.depth).toBe(32)
  })
})
