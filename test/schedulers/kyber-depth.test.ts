import { describe, expect, it } from 'vitest'
import { READ, WRITE } from '../../src/shared/block/types'
import { kyber, KYBER_DEPTH, KYBER_READ, KYBER_WRITE } from '../../src/shared/schedulers/kyber/kyber'
import type { Kyber, KyberEvent } from '../../src/shared/schedulers/kyber/kyber'
import type { Handler } from '../../src/shared/sim/engine'
import { MS, SECOND } from '../../src/shared/sim/time'
import { ctx, makeRig } from '../helpers/rig'

/**
 * A slow null_blk (3 ms per command, over the 2 ms read target: reads' device latency is "bad",
 * which kyber reads as congestion) with a reader (one read per ms) until `readsUntil` and a writer
 * (four writes per ms, well within what the device serves) until `writesUntil`.
 */
function run(readsUntil: number, writesUntil: number, end = 4 * SECOND) {
  const r = makeRig(kyber, {}, { queueDepth: 64, completionUs: 3000 }, 256)
  const k = r.queue.sched as Kyber
  let sector = 0
  const load: Handler = {
    onEvent: () => {
      const now = r.engine.now
      if (now < readsUntil) r.submit(100_000_000 + now / 1000, 8, READ, ctx(1))
      if (now < writesUntil)
        for (let i = 0; i < 4; i++, sector += 16) r.submit(sector, 8, WRITE, ctx(2), false)
      if (now < end) r.engine.at(now + MS, load, 0)
    },
  }
  // a write dispatched while the domain holds at least its depth in tokens (holders from before a cut)
  let overDepthDispatches = 0
  const observer = r.queue.observer!
  r.queue.observer = {
    ...observer,
    dispatched: (rq, now) => {
      observer.dispatched(rq, now)
      const s = k.debugState()
      if (rq.op === WRITE && s.inUse[KYBER_WRITE] > s.depth[KYBER_WRITE]) overDepthDispatches++
    },
  }
  r.engine.at(0, load, 0)
  r.engine.run()
  return { events: k.eventLog().events, state: k.debugState(), overDepthDispatches }
}

const adjusts = (ev: readonly KyberEvent[], d: number) =>
  ev.filter((e): e is Extract<KyberEvent, { kind: 'adjust' }> => e.kind === 'adjust' && e.domain === d)

/** Replays kyber_timer_fn from the latency events of each timer run and checks every adjust event. */
function checkArithmetic(ev: readonly KyberEvent[]): number {
  const depth = KYBER_DEPTH.slice()
  const remembered = [-1, -1, -1]
  const times = [...new Set(ev.map((e) => e.t))]
  let checked = 0
  for (const t of times) {
    const at = ev.filter((e) => e.t === t)
    const lat = at.filter((e): e is Extract<KyberEvent, { kind: 'latency' }> => e.kind === 'latency')
    const congested = lat.some((e) => e.type === 'I/O' && e.percentile === 90 && e.bucket >= 4)
    for (let d = 0; d < 3; d++) {
      let p99 = lat.find((e) => e.domain === d && e.type === 'total' && e.percentile === 99)?.bucket ?? -1
      if (congested) {
        if (p99 < 0) p99 = remembered[d]
        remembered[d] = -1
      } else if (p99 >= 0) remembered[d] = p99
      let want = depth[d]
      if (p99 >= 0 && (congested || p99 >= 4))
        want = Math.min(Math.max((depth[d] * (p99 + 1)) >> 2, 1), KYBER_DEPTH[d])
      const got = at.find((e) => e.kind === 'adjust' && e.domain === d)
      if (want !== depth[d]) {
        expect(got).toEqual({ t, kind: 'adjust', domain: d, depth: want })
        depth[d] = want
        checked++
      } else expect(got).toBeUndefined()
    }
  }
  return checked
}

describe('kyber: depth scaling follows kyber_timer_fn', () => {
  it('cuts the WRITE depth in proportion to its p99 while reads congest the device, by the logged numbers', () => {
    const { events } = run(4 * SECOND, 4 * SECOND)
    const w = adjusts(events, KYBER_WRITE)
    expect(w.length).toBeGreaterThan(0)
    expect(Math.min(...w.map((e) => e.depth))).toBeLessThanOrEqual(16)
    // every depth change is depth·(p99 bucket + 1) / 4 of the run's own latency events, nothing else
    expect(checkArithmetic(events)).toBe(events.filter((e) => e.kind === 'adjust').length)
    // reads miss their own target: never cut (a cut READ domain would show an adjust below 256)
    expect(adjusts(events, KYBER_READ).every((e) => e.depth === 256)).toBe(true)
  })

  it('regrows a WRITE domain cut below its load, and cuts it no more once the reads are gone', () => {
    const readsUntil = 2.05 * SECOND
    const { events, state } = run(readsUntil, 6 * SECOND, 6 * SECOND)
    const w = adjusts(events, KYBER_WRITE)
    const low = Math.min(...w.map((e) => e.depth))
    const lowAt = w.findIndex((e) => e.depth === low)
    // cut below what 4 writes per ms on a 3 ms device need (Little: 12 in flight), the writes back
    // up, miss their own 10 ms target, and the domain grows again
    expect(low).toBeLessThan(12)
    expect(w.slice(lowAt + 1).some((e) => e.depth > low)).toBe(true)
    // congestion is some domain's p90 I/O latency over target: after the reads stop, their last
    // device latencies are read within one 1 s window; after that WRITE is never cut again
    const congestion = events.filter(
      (e) => e.kind === 'latency' && e.type === 'I/O' && e.percentile === 90 && e.bucket >= 4,
    )
    const lastCongestion = congestion[congestion.length - 1].t
    expect(congestion.every((e) => e.domain === KYBER_READ)).toBe(true)
    expect(lastCongestion).toBeLessThanOrEqual(readsUntil + 1200 * MS)
    const later = w.filter((e) => e.t > lastCongestion)
    expect(
      later.every((e, i) => e.depth > (i === 0 ? w[w.indexOf(later[0]) - 1].depth : later[i - 1].depth)),
    ).toBe(true)
    expect(state.depth[KYBER_WRITE]).toBeGreaterThanOrEqual(12)
    expect(checkArithmetic(events)).toBe(events.filter((e) => e.kind === 'adjust').length)
  })

  it('leaves the WRITE depth where it is once the writer stops (no samples, no change — the 6.x rule)', () => {
    const { events, state } = run(6 * SECOND, 1.5 * SECOND, 6 * SECOND)
    const w = adjusts(events, KYBER_WRITE)
    expect(w[w.length - 1].depth).toBeLessThan(128)
    // the writer's last samples are read within two 1 s windows (the domain's window is shared by
    // its two histograms); after that WRITE has no latency to act on and is never touched again
    const lat = events.filter((e) => e.kind === 'latency' && e.domain === KYBER_WRITE)
    const lastLat = lat[lat.length - 1].t
    expect(lastLat).toBeLessThanOrEqual(1.5 * SECOND + 2 * SECOND + 200 * MS)
    expect(w.filter((e) => e.t > lastLat)).toEqual([])
    expect(state.depth[KYBER_WRITE]).toBe(w[w.length - 1].depth)
    expect(checkArithmetic(events)).toBe(events.filter((e) => e.kind === 'adjust').length)
  })

  it('lets writes in after a cut as soon as a low token is freed, while older holders drain', () => {
    const { overDepthDispatches } = run(4 * SECOND, 4 * SECOND)
    // a count-based limit would never dispatch a write while more than the depth are in flight
    expect(overDepthDispatches).toBeGreaterThan(0)
  })
})
