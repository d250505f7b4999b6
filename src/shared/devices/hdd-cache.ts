import type { SimTime } from '../sim/time'
import type { HddMechanics } from './hdd-mechanics'

/** Slots of the segment filter (a power of two). */
const MARK_SLOTS = 4096
export const MARK_MASK = MARK_SLOTS - 1

/**
 * The drive's read buffer: a few segments, each holding a contiguous run of LBAs, and at most one
 * active prefetch stream. After a read from the media the drive keeps reading ahead into that
 * read's segment (a ring of `segSectors`) until it is a full segment ahead of what the host has
 * asked for, or until another command needs the mechanism. Nothing here is evaluated eagerly:
 * the stream is a start point (time, LBA) and a limit, and where it has got to at time t is
 * computed by walking the media from that point (`HddMechanics.walk`), so a prefetch costs no
 * events at all.
 */
export class SegmentCache {
  private readonly lo: Float64Array
  private readonly hi: Float64Array
  /** Segments from least to most recently used: a doubly linked list over the indices. */
  private readonly lruNext: Int32Array
  private readonly lruPrev: Int32Array
  private lruHead = 0
  private lruTail = 0
  /**
   * A coarse filter over the segments, kept up to date as they change: slot `slotOf(s)` counts the
   * segments that have LBAs in s's bucket of `1 / markScale` sectors, plus the prefetch stream's
   * reach (from its segment's start to its limit). Zero means neither can serve a read at s, so
   * the NCQ picker skips the exact look-up for nearly every random read.
   */
  readonly marks = new Uint16Array(MARK_SLOTS)
  /** Sectors → buckets: 1 / (a power of two at least one segment long), so exact. */
  readonly markScale: number
  /** Queued reads per slot (`watch`), and how many of them are in marked slots. */
  private readonly watched = new Uint16Array(MARK_SLOTS)
  /** Queued reads in marked slots: when 0, no queued read can be served from the buffer. */
  watchedMarked = 0
  /** The extent marked for the stream's reach (empty when none). */
  private reachLo = 0
  private reachHi = 0

  /** Segment the stream fills, or −1 when no prefetch is running. */
  streamSeg = -1
  /** Exact point the stream can be walked from: the head is at `streamLba`'s start at `streamT`. */
  private streamT: SimTime = 0
  private streamLba = 0
  /** The last `streamPos` answer and its time (−1: none), until the stream changes. */
  private posAt: SimTime = -1
  private pos = 0
  /** The stream stops when it reaches this LBA (a segment ahead of the host's last request). */
  private limit = 0

  constructor(
    private readonly mech: HddMechanics,
    readonly count: number,
    readonly segSectors: number,
  ) {
    this.lo = new Float64Array(count)
    this.hi = new Float64Array(count)
    this.lruNext = new Int32Array(count)
    this.lruPrev = new Int32Array(count)
    for (let i = 0; i < count; i++) {
      this.lruPrev[i] = i - 1
      this.lruNext[i] = i + 1 < count ? i + 1 : -1
    }
    this.lruTail = count - 1
    this.markScale = 1 / 2 ** Math.ceil(Math.log2(Math.max(1, segSectors)))
  }

  /** The LBA the prefetch has reached at time t (re-anchors the stream so walks stay short). */
  streamPos(t: SimTime): number {
    // asked two or three times per command at the same time: the picker, the read, the abort
    if (t === this.posAt) return this.pos
    const m = this.mech
    m.walk(this.streamLba, this.limit - this.streamLba, this.streamT, t)
    const pos = m.walkLba
    if (m.anchorT <= t) {
      this.streamT = m.anchorT
      this.streamLba = m.anchorLba
    }
    this.posAt = t
    this.pos = pos
    return pos
  }

  /** Stop prefetching at time t: the segment keeps what was read. Returns the head's LBA, or −1. */
  abort(t: SimTime): number {
    const seg = this.streamSeg
    if (seg < 0) return -1
    const pos = this.streamPos(t)
    this.setSegment(seg, Math.max(this.lo[seg], pos - this.segSectors), pos)
    this.streamSeg = -1
    this.markReach(0, 0)
    return Math.max(0, pos - 1)
  }

  /**
   * Can the stream serve [s, e)? −1 if not; else the time at which the stream has read all of
   * it (≤ t when it already has).
   */
  private streamReach(s: number, e: number, t: SimTime): number {
    const seg = this.streamSeg
    if (seg < 0 || s < this.lo[seg] || s > this.limit) return -1
    const pos = this.streamPos(t)
    if (s < Math.max(this.lo[seg], pos - this.segSectors)) return -1
    if (e <= pos) return t
    if (pos >= this.limit) return -2 // stopped at its limit: must restart
    return this.mech.walk(this.streamLba, e - this.streamLba, this.streamT)
  }

  /**
   * A read of [s, e) arriving at `now` (the drive ready to act at `tCmd`): returns the time the
   * data is all in the buffer (≤ now for a plain hit, later when it waits for the prefetch
   * stream), or −1 for a miss. A read served by the stream pushes the stream's limit on.
   */
  read(s: number, e: number, now: SimTime, tCmd: SimTime): number {
    let reach = this.streamReach(s, e, now)
    if (reach !== -1) {
      const seg = this.streamSeg
      if (reach === -2) {
        // The prefetch had stopped a segment ahead; resume where it stopped (a rotational wait).
        this.streamT = tCmd
        this.streamLba = this.limit
      }
      this.limit = Math.min(this.mech.capacitySectors, Math.max(this.limit, e + this.segSectors))
      this.posAt = -1
      this.markReach(this.lo[seg], this.limit + 1)
      if (reach === -2) reach = this.mech.walk(this.streamLba, e - this.streamLba, this.streamT)
      this.touch(seg)
      return reach
    }
    if (this.marks[this.slotOf(s)] === 0) return -1 // no segment near s
    for (let i = 0; i < this.count; i++) {
      if (i !== this.streamSeg && s >= this.lo[i] && e <= this.hi[i]) {
        this.touch(i)
        return now
      }
    }
    return -1
  }

  /**
   * Positioning cost of a read for shortest-positioning-time ordering — the wait until its first
   * sector is in the buffer, like a media access's seek + rotation — or −1 on a miss.
   */
  cost(s: number, e: number, t: SimTime): number {
    const reach = this.streamReach(s, Math.min(e, s + 1), t)
    if (reach >= 0) return reach - t
    if (reach === -2) return this.mech.revNs / 2
    return this.holds(s, e) ? 0 : -1
  }

  /** First and last LBA a read may start at to be served by the prefetch stream (empty: 1 > 0). */
  get streamFrom(): number {
    return this.streamSeg < 0 ? 1 : this.lo[this.streamSeg]
  }
  get streamTo(): number {
    return this.streamSeg < 0 ? 0 : this.limit
  }

  /** Segment i now holds [lo, hi) (empty when hi ≤ lo): the filter's counts follow. */
  private setSegment(i: number, lo: number, hi: number): void {
    this.mark(this.lo[i], this.hi[i], -1)
    this.lo[i] = lo
    this.hi[i] = hi
    this.mark(lo, hi, 1)
  }

  /** The stream can now serve reads starting in [lo, hi). */
  private markReach(lo: number, hi: number): void {
    this.mark(this.reachLo, this.reachHi, -1)
    this.reachLo = lo
    this.reachHi = hi
    this.mark(lo, hi, 1)
  }

  private mark(lo: number, hi: number, delta: number): void {
    if (hi <= lo) return
    const first = Math.floor(lo * this.markScale)
    const span = Math.min(Math.floor((hi - 1) * this.markScale) - first + 1, MARK_SLOTS)
    const { marks, watched } = this
    for (let b = 0; b < span; b++) {
      const x = ((first + b) | 0) & MARK_MASK
      const was = marks[x]
      marks[x] = was + delta
      if (was === 0 || marks[x] === 0) this.watchedMarked += delta * watched[x]
    }
  }

  /** Segment i was just used: it goes to the most recently used end. */
  private touch(i: number): void {
    if (i === this.lruTail) return
    const { lruNext, lruPrev } = this
    const p = lruPrev[i]
    const n = lruNext[i]
    if (p >= 0) lruNext[p] = n
    else this.lruHead = n
    lruPrev[n] = p
    lruPrev[i] = this.lruTail
    lruNext[i] = -1
    lruNext[this.lruTail] = i
    this.lruTail = i
  }

  /** Whether any slot of [s, e) is marked (else no segment overlaps it). */
  private anyMarked(s: number, e: number): boolean {
    const first = Math.floor(s * this.markScale)
    const span = Math.min(Math.floor((e - 1) * this.markScale) - first + 1, MARK_SLOTS)
    for (let b = 0; b < span; b++) if (this.marks[((first + b) | 0) & MARK_MASK] !== 0) return true
    return false
  }

  /** The filter's slot for LBA s. */
  slotOf(s: number): number {
    return ((s * this.markScale) | 0) & MARK_MASK
  }

  /** A read at s joins (+1) or leaves (−1) the drive's queue: `watchedMarked` follows. */
  watch(s: number, delta: number): void {
    const x = this.slotOf(s)
    this.watched[x] += delta
    if (this.marks[x] !== 0) this.watchedMarked += delta
  }

  /** A segment other than the stream's holds all of [s, e). */
  holds(s: number, e: number): boolean {
    const lo = this.lo
    const hi = this.hi
    const skip = this.streamSeg
    for (let i = 0, n = this.count; i < n; i++) if (s >= lo[i] && e <= hi[i] && i !== skip) return true
    return false
  }

  /**
   * A media read of [s, e) has just finished; (anchorT, anchorLba) is an exact point of it. Start
   * prefetching from there into the least recently used segment.
   */
  startStream(s: number, e: number, anchorT: SimTime, anchorLba: number): void {
    if (this.count === 0) return
    this.invalidate(s, e + this.segSectors)
    const seg = this.lruHead
    this.setSegment(seg, s, e)
    this.touch(seg)
    this.streamSeg = seg
    this.streamT = anchorT
    this.streamLba = anchorLba
    this.limit = Math.min(this.mech.capacitySectors, e + this.segSectors)
    this.posAt = -1
    this.markReach(s, this.limit + 1)
  }

  /** Drop every segment that overlaps [s, e) (a write made it stale). Call with no stream running. */
  invalidate(s: number, e: number): void {
    if (!this.anyMarked(s, e)) return // nothing buffered near [s, e): nearly every random read
    for (let i = 0; i < this.count; i++) {
      if (s < this.hi[i] && e > this.lo[i]) this.setSegment(i, 0, 0)
    }
  }
}

/**
 * The write-back cache: dirty extents in arrival order (a write that continues the newest extent
 * extends it). `used` counts dirty sectors including a chunk being destaged, whose room frees only
 * when it is on the media.
 */
export class WriteCache {
  used = 0
  private starts: number[] = []
  private ends: number[] = []
  /**
   * Where each extent's first sector lies — cylinder, head, rotational offset (NaN: not located
   * since its start last moved) — so ranking the window locates each start once, not per look.
   */
  private cyls: number[] = []
  private heads: number[] = []
  private angles: number[] = []
  /** The chunk chosen by `take`. */
  chunkStart = 0
  chunkSectors = 0

  constructor(readonly capSectors: number) {}

  get extents(): number {
    return this.starts.length
  }

  fits(n: number): boolean {
    return this.used + n <= this.capSectors
  }

  add(s: number, e: number): void {
    this.used += e - s
    const last = this.starts.length - 1
    if (last >= 0 && this.ends[last] === s) this.ends[last] = e
    else {
      this.starts.push(s)
      this.ends.push(e)
      this.cyls.push(0)
      this.heads.push(0)
      this.angles.push(NaN)
    }
  }

  /**
   * Choose the next chunk to destage: among the oldest `window` extents, the one with the
   * shortest positioning time from the head (the drive reorders its cache), at most `maxSectors`.
   */
  take(mech: HddMechanics, fromLba: number, t: SimTime, maxSectors: number, window = 16): void {
    let best = 0
    const n = Math.min(this.starts.length, window)
    if (n > 1) {
      let bestCost = Infinity
      mech.locate(fromLba)
      const c0 = mech.cyl
      const h0 = mech.head
      const { cyls, heads, angles } = this
      for (let i = 0; i < n; i++) {
        if (Number.isNaN(angles[i])) {
          mech.locate(this.starts[i])
          cyls[i] = mech.cyl
          heads[i] = mech.head
          angles[i] = mech.locatedAngleNs
        }
        // the positioning time is the move plus a rotational wait ≥ 0: a move no shorter than
        // the best so far cannot beat it (ties go to the older extent)
        const move = mech.moveTo(c0, h0, cyls[i], heads[i], true)
        if (move >= bestCost) continue
        const c = move + mech.waitAngle(angles[i], t + move)
        if (c < bestCost) {
          bestCost = c
          best = i
        }
      }
    }
    const s = this.starts[best]
    const len = Math.min(this.ends[best] - s, maxSectors)
    this.starts[best] = s + len
    this.angles[best] = NaN
    if (this.starts[best] >= this.ends[best]) {
      this.starts.splice(best, 1)
      this.ends.splice(best, 1)
      this.cyls.splice(best, 1)
      this.heads.splice(best, 1)
      this.angles.splice(best, 1)
    }
    this.chunkStart = s
    this.chunkSectors = len
  }

  /** A destaged chunk is on the media: its room is free again. */
  release(n: number): void {
    this.used -= n
  }
}
