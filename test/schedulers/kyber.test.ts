import { describe, expect, it } from 'vitest'
import { READ, WRITE } from '../../src/shared/block/types'
import { kyber, KYBER_READ, KYBER_WRITE } from '../../src/shared/schedulers/kyber/kyber'
import type { Kyber } from '../../src/shared/schedulers/kyber/kyber'
import { LatencyHistograms, IO_LATENCY, TOTAL_LATENCY } from '../../src/shared/schedulers/kyber/latency'
import type { Handler } from '../../src/shared/sim/engine'
import { MS, SECOND } from '../../src/shared/sim/time'
import { ctx, makeRig } from '../helpers/rig'
import { driveMix } from '../helpers/contract'

/** Run lengths of consecutive equal values: [[value, count], …]. */
function runs<T>(xs: T[]): [T, number][] {
  const out: [T, number][] = []
  for (const x of xs) {
    const last = out[out.length - 1]
    if (last && last[0] === x) last[1]++
    else out.push([x, 1])
  }
  return out
}

describe('kyber: dispatch', () => {
  it('alternates 16 reads and 8 writes when both domains have requests', () => {
    const r = makeRig(kyber, {}, { queueDepth: 1, completionUs: 100 })
    for (let i = 0; i < 64; i++) {
      r.submit(i * 1000, 8, READ, ctx(1))
      r.submit(500_000 + ((i * 37) % 64) * 1000, 8, WRITE, ctx(2), false)
    }
    r.engine.run()
    expect(runs(r.dispatches.map((d) => d.op))).toEqual([
      [READ, 16],
      [WRITE, 8],
      [READ, 16],
      [WRITE, 8],
      [READ, 16],
      [WRITE, 8],
      [READ, 16],
      [WRITE, 40], // reads are exhausted; the round robin wraps back to writes
    ])
    // no sorting: each domain is served in arrival order
    const w = r.dispatches.filter((d) => d.op === WRITE).map((d) => d.sector)
    expect(w).toEqual(Array.from({ length: 64 }, (_, i) => 500_000 + ((i * 37) % 64) * 1000))
  })

  it('holds async writes to 75 % of the request slots; sync requests still get in', () => {
    const r = makeRig(kyber, {}, { queueDepth: 4, completionUs: 10_000 }, 128)
    for (let i = 0; i < 200; i++) r.submit(i * 1000, 8, WRITE, ctx(1), false)
    expect((r.queue.sched as Kyber).debugState().asyncDepth).toBe(96)
    expect(128 - r.queue.freeSlots(WRITE)).toBe(96)
    expect(r.queue.waiting(WRITE)).toBe(104)
    expect(r.submit(900_000_000, 8, READ, ctx(2))).toBe(true)
    expect(r.submit(950_000_000, 8, WRITE, ctx(3), true)).toBe(true) // sync write: not limited
  })

  it('merges bios only into requests not yet moved to the dispatch list', () => {
    const r = makeRig(kyber, {}, { queueDepth: 1, completionUs: 1000 })
    r.submit(0, 8)
    r.submit(1000, 8)
    r.engine.run(MS / 2) // the first dispatch moves both to the ready list
    r.submit(1008, 8) // would back-merge into 1000+8, which is no longer mergeable
    r.submit(5000, 8)
    r.submit(5008, 8) // merges: 5000+8 is still staged
    r.engine.run()
    expect(r.dispatches.map((d) => [d.sector, d.nsect])).toEqual([
      [0, 8],
      [1000, 8],
      [1008, 8],
      [5000, 16],
    ])
  })

  it('merges bios into queued requests but never joins two requests, as the kernel', () => {
    const r = makeRig(kyber, {}, { queueDepth: 1, completionUs: 100 })
    r.submit(1000, 8)
    r.submit(1016, 8)
    r.submit(1008, 8) // back-merges into 1000+8, which now touches 1016: left apart under kyber
    r.engine.run()
    expect(r.dispatches.map((d) => [d.sector, d.nsect])).toEqual([
      [1000, 16],
      [1016, 8],
    ])
    expect(r.queue.sched.hasWork()).toBe(false)
  })
})

describe('kyber: latency histograms', () => {
  it('buckets by quarters of the target and reads percentiles once 500 samples or 1 s', () => {
    const h = new LatencyHistograms(3)
    const target = 2 * MS
    for (let i = 0; i < 98; i++) h.add(0, IO_LATENCY, target, MS / 2) // bucket 0 (≤ 1/4 target)
    h.add(0, IO_LATENCY, target, MS / 2 + 1) // bucket 1
    h.add(0, IO_LATENCY, target, 10 * MS) // bucket 7 (> 1 3/4 target)
    expect(h.percentile(0, IO_LATENCY, 90, 0)).toBe(-1) // 100 samples: the 1 s window opens
    expect(h.percentile(0, IO_LATENCY, 90, SECOND - 1)).toBe(-1)
    expect(h.percentile(0, IO_LATENCY, 99, SECOND)).toBe(1)
    expect(h.percentile(0, IO_LATENCY, 99, SECOND)).toBe(-1) // read empties the histogram
    for (let i = 0; i < 500; i++) h.add(1, TOTAL_LATENCY, 10 * MS, 9 * MS) // bucket 3
    expect(h.percentile(1, TOTAL_LATENCY, 99, 5 * SECOND)).toBe(3) // 500 samples: no waiting
  })
})

/**
 * A slow null_blk (3 ms per command, more than the 2 ms read target): read device latency is
 * always "bad", which kyber reads as congestion. Writes arrive at a rate the device serves well
 * within their 10 ms target. Returns the WRITE domain's state sampled every 10 ms.
 */
function congestion(withReads: boolean) {
  const end = 3 * SECOND
  const r = makeRig(kyber, {}, { queueDepth: 64, completionUs: 3000 }, 256)
  const k = r.queue.sched as Kyber
  let sector = 0
  const load: Handler = {
    onEvent: () => {
      const now = r.engine.now
      if (withReads) r.submit(100_000_000 + now / 1000, 8, READ, ctx(1))
      for (let i = 0; i < 4; i++, sector += 16) r.submit(sector, 8, WRITE, ctx(2), false)
      if (now < end) r.engine.at(now + MS, load, 0)
    },
  }
  const samples: { t: number; read: number; write: number; inFlight: number; queued: number }[] = []
  const sampler: Handler = {
    onEvent: () => {
      const s = k.debugState()
      const [read, write] = [s.depth[KYBER_READ], s.depth[KYBER_WRITE]]
      samples.push({
        t: r.engine.now,
        read,
        write,
        inFlight: s.inUse[KYBER_WRITE],
        queued: s.queued[KYBER_WRITE],
      })
      if (r.engine.now < end) r.engine.at(r.engine.now + 10 * MS, sampler, 0)
    },
  }
  r.engine.at(0, load, 0)
  r.engine.at(0, sampler, 0)
  r.engine.run()
  return samples
}

describe('kyber: depth control', () => {
  it('shrinks the WRITE domain while read latency is over its target, and grows it back', () => {
    const samples = congestion(true)
    const minWrite = Math.min(...samples.map((s) => s.write))
    const minAt = samples.findIndex((s) => s.write === minWrite)
    // halved at each congested timer run, well below the device's 64 commands
    expect(minWrite).toBeLessThanOrEqual(16)
    // and there the tokens, not the device, hold writes back
    expect(samples.some((s) => s.write < 64 && s.queued > 0 && s.inFlight === s.write)).toBe(true)
    // the held-back writes then miss their own 10 ms target: kyber grows the domain again
    expect(Math.max(...samples.slice(minAt).map((s) => s.write))).toBeGreaterThanOrEqual(8 * minWrite)
    // reads miss their target themselves, so their domain is never throttled
    expect(samples.every((s) => s.read === 256)).toBe(true)
  })

  it('leaves the WRITE depth alone without the reads (no congestion, writes meet their target)', () => {
    const samples = congestion(false)
    expect(samples.every((s) => s.write === 128)).toBe(true)
  })
})

describe('kyber: contract', () => {
  for (const qd of [1, 32]) {
    it(`dispatches every request exactly once, in bounded time, with hasWork exact (queue depth ${qd})`, () => {
      const o = driveMix(kyber, 31, { queueDepth: qd, rotational: qd === 1 })
      expect(o.submitted).toBeGreaterThan(500)
      expect(o.completed).toBe(o.submitted)
      expect([o.dispatchedTwice, o.notInserted, o.hasWorkMismatches]).toEqual([[], [], []])
      expect(o.maxWaitMs).toBeLessThan(5 * 1000)
    })

    it(`gives identical logs for identical inputs (queue depth ${qd})`, () => {
      const a = driveMix(kyber, 32, { queueDepth: qd, rotational: qd === 1 }).log
      expect(driveMix(kyber, 32, { queueDepth: qd, rotational: qd === 1 }).log).toEqual(a)
      expect(driveMix(kyber, 33, { queueDepth: qd, rotational: qd === 1 }).log).not.toEqual(a)
    })
  }
})
