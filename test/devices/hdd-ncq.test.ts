import { describe, expect, it } from 'vitest'
import { READ, Request, WRITE } from '../../src/shared/block/types'
import { SegmentCache } from '../../src/shared/devices/hdd-cache'
import { modPos } from '../../src/shared/devices/hdd-mechanics'
import { ANGLE_BUCKETS, CYLINDER_SLOTS, NcqQueue, Ranker, soonest } from '../../src/shared/devices/hdd-ncq'
import { Rng } from '../../src/shared/sim/rng'
import { sataMechanics } from './driver'

const mech = sataMechanics()
const OVERHEAD = 200_000

function request(sector: number, write: boolean): Request {
  const rq = new Request()
  rq.sector = sector
  rq.nsect = 8
  rq.op = write ? WRITE : READ
  return rq
}

/** The ranking by definition: every command's cost, the lowest cost, ties to the lower slot. */
function exhaustive(q: NcqQueue, r: Ranker): number {
  let best = 0
  for (let i = 1; i < q.length; i++) if (r.mechanical(q, i) < r.mechanical(q, best)) best = i
  return best
}

/**
 * The rotational index holds each slot once, in the arc of its own sector, and nothing else; the
 * per-cylinder counts match the slots.
 */
function indexProblem(q: NcqQueue): string | null {
  for (let b = 0; b < ANGLE_BUCKETS; b++) {
    for (let i = 0; i < 32 * q.words; i++) {
      const set = (q.bits[b * q.words + (i >> 5)] >>> (i & 31)) & 1
      const want = i < q.length && q.bucket[i] === b ? 1 : 0
      if (set !== want) return `arc ${b}, slot ${i}: bit ${set}, expected ${want}`
    }
  }
  for (let i = 0; i < q.length; i++)
    if (q.bucket[i] !== q.bucketOf(q.angle[i])) return `slot ${i} is filed under a stale arc`
  const counts = new Uint16Array(CYLINDER_SLOTS)
  for (let i = 0; i < q.length; i++) counts[q.cyl[i] & (CYLINDER_SLOTS - 1)]++
  const k = counts.findIndex((c, x) => c !== q.onCylinder[x])
  if (k >= 0) return `cylinder count ${k}: ${q.onCylinder[k]}, expected ${counts[k]}`
  return null
}

describe('NCQ shortest-positioning-time-first over the rotational order', () => {
  // A file's extent (short seeks, rotation decides), the whole disk (seeks decide), and a handful
  // of sectors on a few tracks (many ties and same-track candidates), and two cylinders.
  const spreads = [
    { name: 'a 1 GB extent', pick: (rng: Rng) => 1e7 + Math.floor(rng.next() * 2e6) },
    { name: 'the whole disk', pick: (rng: Rng) => Math.floor(rng.next() * (mech.capacitySectors - 8)) },
    { name: 'a few tracks', pick: (rng: Rng) => 5e6 + 8 * Math.floor(rng.next() * 600) },
    // moves of 0, a head switch or a one-cylinder seek: costs close together, bounds tight
    { name: 'two cylinders', pick: (rng: Rng) => 1e5 + Math.floor(rng.next() * 23_000) },
  ]
  // SATA NCQ's 32 tags (one word of the index), and a deeper SCSI TCQ queue (several words)
  for (const [spread, depth] of spreads.flatMap((x) => [[x, 32] as const, [x, 100] as const])) {
    it(`picks what ranking every command picks (${spread.name}, ${depth} deep)`, () => {
      const rng = new Rng(11)
      const q = new NcqQueue(depth, 0, new SegmentCache(mech, 8, 2048), mech.revNs)
      const r = new Ranker(mech.seekTable, mech.writeSettleNs, mech.headSwitchNs, mech.revNs, OVERHEAD)
      let now = 5e9 // past 2^31 ns, where times are no longer small integers
      let ties = 0
      for (let round = 0; round < 1500; round++) {
        while (q.length < depth - 1) q.push(request(spread.pick(rng), rng.next() < 0.3), now, mech)
        expect(indexProblem(q)).toBeNull()
        now += Math.floor(rng.next() * 2e7)
        // some commands arrived so recently that their overhead is not over yet
        if (round % 7 === 0) q.push(request(spread.pick(rng), false), now - OVERHEAD / 2, mech)
        mech.locate(spread.pick(rng))
        r.from(mech.cyl, mech.head, now + Math.floor(rng.next() * 1e6))
        const want = exhaustive(q, r)
        const got = soonest(q, r)
        expect(got, `round ${round}`).toBe(want)
        for (let i = 0; i < q.length; i++)
          if (i !== want && r.mechanical(q, i) === r.mechanical(q, want)) ties++
        q.take(round % 3 === 0 ? Math.floor(rng.next() * q.length) : got)
        if (round % 5 === 0) q.take(0)
      }
      if (spread.name === 'a few tracks') expect(ties).toBeGreaterThan(0) // equal costs did occur
      expect(indexProblem(q)).toBeNull()
    })
  }

  it('keeps the oldest arrival and the count of cached writes as commands come and go', () => {
    const q = new NcqQueue(8, 16, new SegmentCache(mech, 8, 2048), mech.revNs)
    q.push(request(100, true), 10, mech)
    q.push(request(900, false), 20, mech)
    q.push(request(500, true), 30, mech)
    expect(q.oldestArrival).toBe(10)
    expect(q.cachedWrites).toBe(2)
    q.take(0)
    expect(q.oldestArrival).toBe(20)
    expect(q.cachedWrites).toBe(1)
    q.take(0)
    q.take(0)
    expect(q.length).toBe(0)
    expect(q.oldestArrival).toBe(Infinity)
    expect(q.cachedWrites).toBe(0)
  })
})

describe('modPos', () => {
  it('is the remainder `%` gives, for small, large and fractional times', () => {
    const rng = new Rng(3)
    const rev = mech.revNs
    for (let k = 0; k < 20000; k++) {
      const x = k % 2 ? Math.floor(rng.next() * 2 ** (10 + (k % 43))) : rng.next() * 1e13
      expect(modPos(x, rev)).toBe(x % rev)
    }
    for (const x of [0, rev - 1, rev, rev + 1, 2 * rev, 2 ** 53 - 1]) expect(modPos(x, rev)).toBe(x % rev)
  })
})
