import { WRITE, type Request } from '../block/types'
import type { SimTime } from '../sim/time'
import type { SegmentCache } from './hdd-cache'
import { modPos, ROT_TOLERANCE_NS, type HddMechanics } from './hdd-mechanics'

// A drive's command queue (NCQ/TCQ) and the shortest-positioning-time-first ranking over it.

/**
 * The mechanical positioning cost of a queued command from one starting point (cylinder, head,
 * time): what the NCQ picker compares. Holds the drive's constants and the point in fields, so
 * the cost of one candidate is a seek-table look-up and a phase step — no calls, no allocation.
 */
export class Ranker {
  c0 = 0
  h0 = 0
  t: SimTime = 0
  /** t modulo the revolution. */
  phase = 0
  readonly rev: number
  private readonly revTol: number
  /** The shortest seek (to any other cylinder). */
  readonly seekMin: number

  constructor(
    private readonly seekTable: Int32Array,
    private readonly settle: number,
    readonly headSwitch: number,
    revNs: number,
    private readonly overhead: number,
  ) {
    this.rev = revNs | 0
    this.revTol = this.rev - ROT_TOLERANCE_NS
    let least = Infinity
    for (let d = 1; d < seekTable.length; d++) least = Math.min(least, seekTable[d])
    this.seekMin = least === Infinity ? 0 : least
  }

  from(c0: number, h0: number, t: SimTime): void {
    this.c0 = c0
    this.h0 = h0
    this.t = t
    this.phase = modPos(t, this.rev) | 0
  }

  /** Wait for the command's overhead, seek (+ write settle) or head switch, rotational wait. */
  mechanical(q: NcqQueue, i: number): number {
    const t = this.t
    const ready = q.arrival[i] + this.overhead
    const wait = ready > t ? ready - t : 0
    const c = q.cyl[i]
    const c0 = this.c0
    const d = c > c0 ? c - c0 : c0 - c
    const move =
      wait +
      (d > 0
        ? this.seekTable[d] + (q.write[i] === 1 ? this.settle : 0)
        : q.head[i] !== this.h0
          ? this.headSwitch
          : 0)
    // rotational wait, branch-free in int32: where the platter will be, and how far to go
    const rev = this.rev
    const at = ((this.phase + move) | 0) % rev
    let rot = q.angle[i] - at
    rot += (rot >> 31) & rev
    return move + (rot > this.revTol ? 0 : rot)
  }
}

/** Buckets of the revolution for the rotational index (a power of two). */
export const ANGLE_BUCKETS = 64
/** Slots of the per-cylinder count (a power of two). */
export const CYLINDER_SLOTS = 4096

/**
 * The drive's command queue, with each command's target decoded on arrival (cylinder, head,
 * rotational offset) into typed arrays, so ranking the queue at every pick is a tight loop; and a
 * rotational index for visiting them in the order the platter brings them round: the revolution
 * cut into `ANGLE_BUCKETS` arcs, each with a bit set per slot whose sector starts in it (words of
 * 32 slots), so a command joins or leaves the index in O(1).
 */
export class NcqQueue {
  length = 0
  /** Queued writes that will go to the write cache (they cost nothing to serve). */
  cachedWrites = 0
  /** The earliest arrival among the queued commands (Infinity when empty). */
  oldestArrival = Infinity
  private readonly rqs: (Request | null)[]
  readonly sector: Float64Array
  readonly nsect: Float64Array
  readonly write: Uint8Array
  readonly arrival: Float64Array
  readonly cyl: Int32Array
  readonly head: Int32Array
  readonly angle: Int32Array
  /** The read buffer filter's slot for the command's first sector. */
  readonly markSlot: Int32Array
  /** Queued commands per cylinder, hashed by its low bits: 0 means none on that cylinder. */
  readonly onCylinder = new Uint16Array(CYLINDER_SLOTS)
  /** The arc each slot's sector starts in. */
  readonly bucket: Int32Array
  /** Bit i % 32 of word `b · words + ⌊i / 32⌋` is set when slot i is in arc b. */
  readonly bits: Int32Array
  readonly words: number
  private readonly bucketScale: number

  constructor(
    depth: number,
    private readonly wcCap: number,
    private readonly buffer: SegmentCache,
    revNs: number,
  ) {
    this.rqs = new Array<Request | null>(depth).fill(null)
    this.sector = new Float64Array(depth)
    this.nsect = new Float64Array(depth)
    this.write = new Uint8Array(depth)
    this.arrival = new Float64Array(depth)
    this.cyl = new Int32Array(depth)
    this.head = new Int32Array(depth)
    this.angle = new Int32Array(depth)
    this.markSlot = new Int32Array(depth)
    this.bucket = new Int32Array(depth)
    this.words = (depth + 31) >> 5
    this.bits = new Int32Array(ANGLE_BUCKETS * this.words)
    this.bucketScale = ANGLE_BUCKETS / revNs
  }

  /** The arc a rotational offset (0 ≤ angle < rev) falls in. */
  bucketOf(angle: number): number {
    return Math.min(ANGLE_BUCKETS - 1, Math.floor(angle * this.bucketScale))
  }

  push(rq: Request, now: SimTime, m: HddMechanics): void {
    const i = this.length++
    const w = rq.op === WRITE
    this.rqs[i] = rq
    this.sector[i] = rq.sector
    this.nsect[i] = rq.nsect
    this.write[i] = w ? 1 : 0
    this.arrival[i] = now
    this.oldestArrival = Math.min(this.oldestArrival, now)
    this.markSlot[i] = this.buffer.slotOf(rq.sector)
    if (!w) this.buffer.watch(rq.sector, 1)
    else if (this.wcCap >= rq.nsect) this.cachedWrites++
    m.locate(rq.sector)
    this.cyl[i] = m.cyl
    this.onCylinder[m.cyl & (CYLINDER_SLOTS - 1)]++
    this.head[i] = m.head
    const angle = m.locatedAngleNs
    this.angle[i] = angle
    const b = this.bucketOf(angle)
    this.bucket[i] = b
    this.bits[b * this.words + (i >> 5)] |= 1 << (i & 31)
  }

  /** Remove entry i; the last entry takes its place (ranking does not depend on queue order). */
  take(i: number): Request {
    const rq = this.rqs[i]!
    const n = --this.length
    if (this.write[i] === 0) this.buffer.watch(this.sector[i], -1)
    else if (this.wcCap >= this.nsect[i]) this.cachedWrites--
    const arrived = this.arrival[i]
    this.onCylinder[this.cyl[i] & (CYLINDER_SLOTS - 1)]--
    const { bits, bucket, words } = this
    bits[bucket[i] * words + (i >> 5)] &= ~(1 << (i & 31))
    if (i < n) {
      // slot n moves to i: in its arc, bit n goes and bit i comes
      const b = bucket[n]
      bits[b * words + (n >> 5)] &= ~(1 << (n & 31))
      bits[b * words + (i >> 5)] |= 1 << (i & 31)
      bucket[i] = b
      this.rqs[i] = this.rqs[n]
      this.sector[i] = this.sector[n]
      this.nsect[i] = this.nsect[n]
      this.write[i] = this.write[n]
      this.arrival[i] = this.arrival[n]
      this.cyl[i] = this.cyl[n]
      this.head[i] = this.head[n]
      this.angle[i] = this.angle[n]
      this.markSlot[i] = this.markSlot[n]
    }
    this.rqs[n] = null
    if (arrived === this.oldestArrival) {
      let least = Infinity
      for (let k = 0; k < n; k++) least = Math.min(least, this.arrival[k])
      this.oldestArrival = least
    }
    return rq
  }
}

/**
 * The cheapest of all-mechanical commands. A command's cost is its move (at least `least`: no
 * command is closer than that) plus the rotational wait after it, so the cost is congruent, modulo
 * a revolution, to how far the platter turns from now to the command's sector, and at least
 * `least`. Hence, measuring the turn `g` from `least` past now, the cost is at least `g + least`
 * (less a tolerance for rounding). Visit the arcs in that order — the order the platter brings
 * them under the head once it could be there — and stop once an arc's bound exceeds the best cost
 * found: with the short seeks of a file's extent, a fraction of a turn is looked at.
 */
export function soonest(q: NcqQueue, r: Ranker): number {
  const n = q.length
  const { cyl, head, angle, bits, words } = q
  const rev = r.rev
  // the least move any queued command needs: none on this track, usually none on this cylinder
  const c0 = r.c0
  let least = r.seekMin
  if (q.onCylinder[c0 & (CYLINDER_SLOTS - 1)] !== 0) {
    for (let i = 0; i < n; i++) {
      if (cyl[i] !== c0) continue
      if (head[i] === r.h0) {
        least = 0
        break
      }
      if (r.headSwitch < least) least = r.headSwitch
    }
  }
  const from = modPos(r.phase + least - 2 * ROT_TOLERANCE_NS + rev, rev)
  const slack = least - 3 * ROT_TOLERANCE_NS
  const b0 = q.bucketOf(from)
  const arc = rev / ANGLE_BUCKETS
  let best = -1
  let bestCost = Infinity
  for (let j = 0; j < ANGLE_BUCKETS; j++) {
    const b = (b0 + j) & (ANGLE_BUCKETS - 1)
    if (j > 0) {
      // every sector in this arc is at least this far round from `from`
      let g = b * arc - from
      if (g < 0) g += rev
      if (g + slack > bestCost) break
    }
    for (let w = 0; w < words; w++) {
      let m = bits[b * words + w]
      while (m !== 0) {
        const low = m & -m
        m ^= low
        const i = (w << 5) + 31 - Math.clz32(low)
        let g = angle[i] - from
        if (g < 0) g += rev
        if (g + slack > bestCost) continue
        const cost = r.mechanical(q, i)
        if (cost < bestCost || (cost === bestCost && i < best)) {
          bestCost = cost
          best = i
        }
      }
    }
  }
  return best
}

/**
 * No queued command is aged (arrived before `oldest`), and none can be served from the read
 * buffer: every one costs a seek, a head switch or nothing, plus the rotational wait — so the
 * picker may use `soonest`.
 */
export function allMechanical(q: NcqQueue, cache: SegmentCache, oldest: SimTime): boolean {
  if (q.oldestArrival < oldest) return false
  if (cache.watchedMarked === 0) return true // no queued read near the buffer's contents
  const sFrom = cache.streamFrom
  const sTo = cache.streamTo
  const { sector, nsect, write, markSlot } = q
  const marks = cache.marks
  for (let i = 0, n = q.length; i < n; i++) {
    if (write[i] === 1) continue
    const s = sector[i]
    if (s >= sFrom && s <= sTo) return false
    if (marks[markSlot[i]] !== 0 && cache.holds(s, s + nsect[i])) return false
  }
  return true
}

/**
 * Every queued command's cost, including aged ones (arrived before `oldest`), buffer hits and
 * writes that go to the write cache (`wcCap` sectors); returns the cheapest one's slot.
 */
export function rankAll(
  q: NcqQueue,
  r: Ranker,
  cache: SegmentCache,
  wcCap: number,
  now: SimTime,
  oldest: SimTime,
): number {
  const n = q.length
  const t = r.t
  const sFrom = cache.streamFrom
  const sTo = cache.streamTo
  const { sector, nsect, write, arrival, markSlot } = q
  const marks = cache.marks
  let best = 0
  let bestCost = Infinity
  for (let i = 0; i < n; i++) {
    let cost: number
    const arr = arrival[i]
    const w = write[i] === 1
    if (arr < oldest)
      cost = arr - now - 1e15 // aged: oldest first
    else if (w && wcCap >= nsect[i])
      cost = 0 // goes to the cache, in order
    else {
      cost = -1
      if (!w) {
        const s = sector[i]
        if (s >= sFrom && s <= sTo)
          cost = cache.cost(s, s + nsect[i], t) // the prefetch stream (rare)
        else if (marks[markSlot[i]] !== 0 && cache.holds(s, s + nsect[i])) cost = 0
      }
      if (cost < 0) cost = r.mechanical(q, i)
    }
    if (cost < bestCost) {
      bestCost = cost
      best = i
    }
  }
  return best
}
