import { describe, expect, it } from 'vitest'
import { PG_ANY, PageFlags, SCRATCH, popcount } from '../../src/shared/host/page-flags'
import { Rng } from '../../src/shared/sim/rng'

// The page-cache flags as bitmaps, a word of 32 pages at a time, against a byte per page.

/** The same questions asked of a plain array of states. */
class PerPage {
  readonly s: Uint8Array
  constructor(n: number) {
    this.s = new Uint8Array(n)
  }
  cond(p: number, a: number, wantA: boolean, b: number, wantB: boolean): boolean {
    return ((this.s[p] & a) !== 0) === wantA && ((this.s[p] & b) !== 0) === wantB
  }
  seek(p: number, end: number, a: number, wantA: boolean, b: number, wantB: boolean): number {
    for (; p < end; p++) if (this.cond(p, a, wantA, b, wantB)) return p
    return Math.max(p, end)
  }
  runEnd(p: number, end: number, a: number, wantA: boolean, b: number, wantB: boolean): number {
    for (; p < end; p++) if (!this.cond(p, a, wantA, b, wantB)) return p
    return Math.max(p, end)
  }
  count(first: number, end: number, flags: number, has: boolean): number {
    let n = 0
    for (let p = first; p < end; p++) if (((this.s[p] & flags) !== 0) === has) n++
    return n
  }
  update(first: number, end: number, set: number, clear: number, unless: number): void {
    for (let p = first; p < end; p++) if (!(this.s[p] & unless)) this.s[p] = (this.s[p] & ~clear) | set
  }
}

describe('page flags', () => {
  it('sets and reads single pages, at word edges too', () => {
    const f = new PageFlags(70)
    for (const p of [0, 31, 32, 33, 63, 64, 69]) f.setState(p, 0b1010101)
    expect(f.state(31)).toBe(0b1010101)
    expect(f.state(30)).toBe(0)
    expect(f.countWhere(0, 70, PG_ANY, true)).toBe(7)
    f.setState(32, 2)
    expect([f.state(31), f.state(32), f.state(33)]).toEqual([0b1010101, 2, 0b1010101])
  })

  it('changes a range crossing words, only where none of `unless` is set', () => {
    const f = new PageFlags(100)
    f.update(30, 70, 4, 0)
    f.update(40, 50, 2, 0)
    f.update(20, 90, 1, 0, 2)
    const states = Array.from({ length: 100 }, (_, p) => f.state(p))
    expect(states.slice(18, 22)).toEqual([0, 0, 1, 1])
    expect([states[29], states[30], states[39], states[40], states[49], states[50]]).toEqual([
      1, 5, 5, 6, 6, 5,
    ])
    expect(states.slice(88, 92)).toEqual([1, 1, 0, 0])
    // runs: a run ends where the flags change, whichever word it is in
    expect(f.runEnd(30, 100, 4, true)).toBe(70)
    expect(f.runEnd(30, 100, 4, true, 2, false)).toBe(40)
    expect(f.seek(0, 100, 2, true)).toBe(40)
    expect(f.seek(50, 100, 2, true)).toBe(100)
    expect(f.seek(0, 35, 1, false)).toBe(0)
    expect(f.seek(20, 100, PG_ANY, false)).toBe(90)
    // empty and inverted ranges
    expect(f.seek(60, 60, 4, true)).toBe(60)
    expect(f.countWhere(60, 50, 4, true)).toBe(0)
    f.update(60, 50, 8, 0)
    expect(f.countWhere(0, 100, 8, true)).toBe(0)
  })

  it('keeps the scratch mark out of every state', () => {
    const f = new PageFlags(40)
    f.update(0, 40, SCRATCH, 0)
    expect(f.state(5)).toBe(0)
    expect(f.seek(0, 40, PG_ANY, true)).toBe(40)
    expect(f.any(1, SCRATCH)).toBe(0xff)
    f.setState(5, 3)
    expect(f.any(0, SCRATCH) >>> 0).toBe(0xffffffff)
  })

  it('counts bits', () => {
    expect([0, 1, 0xff, -1, 0x80000001].map(popcount)).toEqual([0, 1, 8, 32, 2])
  })

  it('answers as a byte per page would, for random changes and questions', () => {
    const rng = new Rng(7)
    for (const n of [1, 31, 32, 33, 64, 97, 300]) {
      const f = new PageFlags(n)
      const ref = new PerPage(n)
      const flags = () => (1 << rng.int(7)) | (rng.int(3) === 0 ? 1 << rng.int(7) : 0)
      for (let k = 0; k < 3000; k++) {
        const a = rng.int(n + 1)
        const b = Math.min(n, a + (rng.int(3) === 0 ? rng.int(n + 1) : rng.int(40)))
        switch (rng.int(5)) {
          case 0: {
            const set = flags()
            const clear = flags() & ~set
            const unless = rng.int(2) === 0 ? 0 : flags()
            f.update(a, b, set, clear, unless)
            ref.update(a, b, set, clear, unless)
            break
          }
          case 1: {
            const p = rng.int(n)
            const s = rng.int(128)
            f.setState(p, s)
            ref.s[p] = s
            break
          }
          default: {
            const fa = flags()
            const fb = rng.int(2) === 0 ? 0 : flags()
            const wa = rng.int(2) === 0
            const wb = fb !== 0 && rng.int(2) === 0
            expect(f.seek(a, b, fa, wa, fb, wb)).toBe(ref.seek(a, b, fa, wa, fb, wb))
            expect(f.runEnd(a, b, fa, wa, fb, wb)).toBe(ref.runEnd(a, b, fa, wa, fb, wb))
            expect(f.countWhere(a, b, fa, wa)).toBe(ref.count(a, b, fa, wa))
          }
        }
      }
      expect(Array.from({ length: n }, (_, p) => f.state(p))).toEqual(Array.from(ref.s))
    }
  })
})
