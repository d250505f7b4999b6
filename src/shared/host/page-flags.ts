/**
 * A file's page-cache flags as bitmaps: one bit per page for each flag (the PG_* bits below, 1 to
 * 64), so that questions and changes over a range of pages go 32 pages at a time — the way
 * the kernel walks an xarray's marks (xas_find_marked, PAGECACHE_TAG_DIRTY / _WRITEBACK) rather
 * than each page. A page's state is the byte its flags make; 0 means not cached.
 *
 * The bitmaps of a word of pages lie side by side (word w's flag k at `w * 8 + k`), so one look
 * at a page touches one cache line. Bit 7 is a scratch mark, not part of any state.
 */
export class PageFlags {
  private readonly bits: Uint32Array

  constructor(
    /** Pages covered. */
    readonly count: number,
  ) {
    this.bits = new Uint32Array(((count + 31) >>> 5) * SLOTS)
  }

  /** The page's state: its flags as one byte (0: not cached). */
  state(p: number): number {
    const b = this.bits
    const i = (p >>> 5) * SLOTS
    const s = p & 31
    return (
      ((b[i] >>> s) & 1) |
      (((b[i + 1] >>> s) & 1) << 1) |
      (((b[i + 2] >>> s) & 1) << 2) |
      (((b[i + 3] >>> s) & 1) << 3) |
      (((b[i + 4] >>> s) & 1) << 4) |
      (((b[i + 5] >>> s) & 1) << 5) |
      (((b[i + 6] >>> s) & 1) << 6)
    )
  }

  /** Give page p exactly the flags of `state`. */
  setState(p: number, state: number): void {
    const i = (p >>> 5) * SLOTS
    const bit = 1 << (p & 31)
    for (let k = 0; k < FLAG_COUNT; k++) {
      if ((state >>> k) & 1) this.bits[i + k] |= bit
      else this.bits[i + k] &= ~bit
    }
  }

  /** Word w's pages that have any of `flags` (bit j: page 32w + j). */
  any(w: number, flags: number): number {
    const b = this.bits
    const i = w * SLOTS
    if (flags === PG_ANY) return b[i] | b[i + 1] | b[i + 2] | b[i + 3] | b[i + 4] | b[i + 5] | b[i + 6]
    let m = 0
    if (flags & 1) m |= b[i]
    if (flags & 2) m |= b[i + 1]
    if (flags & 4) m |= b[i + 2]
    if (flags & 8) m |= b[i + 3]
    if (flags & 16) m |= b[i + 4]
    if (flags & 32) m |= b[i + 5]
    if (flags & 64) m |= b[i + 6]
    if (flags & SCRATCH) m |= b[i + 7]
    return m
  }

  /**
   * Word w's pages for which "has any of `a`" is `wantA` and "has any of `b`" is `wantB` (`b` = 0
   * has none, so `wantB` = false holds everywhere).
   */
  private where(w: number, a: number, wantA: boolean, b: number, wantB: boolean): number {
    const x = wantA ? this.any(w, a) : ~this.any(w, a)
    if (b === 0) return wantB ? 0 : x
    return x & (wantB ? this.any(w, b) : ~this.any(w, b))
  }

  /**
   * The first page of [p, end) for which "has any of `a`" is `wantA` and "has any of `b`" is
   * `wantB`; `end` if none.
   */
  seek(p: number, end: number, a: number, wantA: boolean, b = 0, wantB = false): number {
    return this.scan(p, end, a, wantA, b, wantB, 0)
  }

  /** The first page of [p, end) where that condition (as `seek`) fails: the end of p's run. */
  runEnd(p: number, end: number, a: number, wantA: boolean, b = 0, wantB = false): number {
    return this.scan(p, end, a, wantA, b, wantB, -1)
  }

  private scan(
    p: number,
    end: number,
    a: number,
    wantA: boolean,
    b: number,
    wantB: boolean,
    flip: number,
  ): number {
    if (p >= end) return end
    let w = p >>> 5
    const last = (end - 1) >>> 5
    let m = -1 << (p & 31)
    for (;;) {
      if (w === last) m &= -1 >>> (31 - ((end - 1) & 31))
      const c = (this.where(w, a, wantA, b, wantB) ^ flip) & m
      if (c !== 0) return (w << 5) + ctz(c)
      if (w === last) return end
      w++
      m = -1
    }
  }

  /** How many pages of [first, end) have any of `flags` (`has`), or none of them (`!has`). */
  countWhere(first: number, end: number, flags: number, has: boolean): number {
    let n = 0
    for (let w = first >>> 5, last = (end - 1) >>> 5; first < end && w <= last; w++) {
      const m = rangeMask(w, first, end)
      n += popcount((has ? this.any(w, flags) : ~this.any(w, flags)) & m)
    }
    return n
  }

  /** Set the flags `set` and clear the flags `clear` of each page of [first, end) that has none of `unless`. */
  update(first: number, end: number, set: number, clear: number, unless = 0): void {
    const b = this.bits
    for (let w = first >>> 5, last = (end - 1) >>> 5; first < end && w <= last; w++) {
      let m = rangeMask(w, first, end)
      if (unless !== 0) m &= ~this.any(w, unless)
      if (m === 0) continue
      const i = w * SLOTS
      for (let todo = set | clear; todo !== 0; todo &= todo - 1) {
        const bit = todo & -todo
        const k = 31 - Math.clz32(bit)
        if (set & bit) b[i + k] |= m
        else b[i + k] &= ~m
      }
    }
  }
}

/** The page cache's page flags (pagecache.ts): a page's state is the byte they make. */
export const PG_UPTODATE = 1
export const PG_DIRTY = 2
/** Locked for a read in flight. */
export const PG_LOCKED = 4
export const PG_WRITEBACK = 8
/** Read-ahead marker: reaching this page starts the next asynchronous window. */
export const PG_READAHEAD = 16
/** Accessed since it was last looked at by reclaim (second chance). */
export const PG_REFERENCED = 32
/** Written by reclaim (PG_reclaim): when the write completes it goes to the LRU tail, to be freed next. */
export const PG_RECLAIM = 64

/** The state bits (the PG_* above, 1 to 64). */
const FLAG_COUNT = 7
/** Bitmaps per word of pages: the seven flags and the scratch mark. */
const SLOTS = 8
/** Every flag: a page with any of them is cached. */
export const PG_ANY = (1 << FLAG_COUNT) - 1
/** A mark for one pass over pages (the LRU's compaction), never part of a state. */
export const SCRATCH = 1 << FLAG_COUNT

/** Bits of word w that lie in [first, end). */
function rangeMask(w: number, first: number, end: number): number {
  const lo = w === first >>> 5 ? first & 31 : 0
  const hi = w === (end - 1) >>> 5 ? (end - 1) & 31 : 31
  return (-1 >>> (31 - hi)) & (-1 << lo)
}

/** Index of the lowest set bit of a non-zero word. */
function ctz(x: number): number {
  return 31 - Math.clz32(x & -x)
}

export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333)
  x = (x + (x >>> 4)) & 0x0f0f0f0f
  return Math.imul(x, 0x01010101) >>> 24
}
