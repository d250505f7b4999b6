import { describe, expect, it } from 'vitest'
import { IOPRIO_BE, READ, WRITE } from '../../src/shared/block/types'
import type { Bio } from '../../src/shared/block/types'
import type { Handler } from '../../src/shared/sim/engine'
import type { SimTime } from '../../src/shared/sim/time'
import { MS, SECOND, US } from '../../src/shared/sim/time'
import { bfq } from '../../src/shared/schedulers/bfq'
import { makeRig } from '../helpers/rig'
import { Proc, pctx, queueOf, sched } from '../helpers/bfq-procs'
import type { Rig } from '../helpers/bfq-procs'

// The Linux 6.x additions to BFQ's idling decisions: plugging for a lone queue, preemption when
// plugging stops paying, injection into the idle time (inject limit), and waker detection.

/** The device's requests in flight at each dispatch, with the in-service queue's inject limit then. */
function watchDispatches(r: Rig) {
  const seen: {
    t: SimTime
    pid: number
    inFlight: number
    limit: number
    baseline: number
    inService: number | null
  }[] = []
  const obs = r.queue.observer!
  r.queue.observer = {
    ...obs,
    dispatched: (rq, now) => {
      obs.dispatched(rq, now)
      const s = sched(r).debugState()
      const inServ = s.inServicePid === null ? null : queueOf(s, s.inServicePid)
      seen.push({
        t: now,
        pid: rq.ctx.pid,
        inFlight: r.queue.inFlight(),
        limit: inServ?.injectLimit ?? -1,
        baseline: inServ?.lastServTime ?? 0,
        inService: s.inServicePid,
      })
    },
  }
  return seen
}

describe('bfq 6.x: plugging for a lone queue', () => {
  it('keeps a lone sync queue in service while it thinks, and a newcomer ends the plugging', () => {
    // flash with command queueing, symmetric weights: idling pays neither for throughput nor for
    // guarantees — except that the queue is the only busy one (idling_needed_for_service_guarantees)
    const r = makeRig(bfq, { low_latency: false }, { queueDepth: 32, completionUs: 100 })
    new Proc(r, pctx(1), { count: 1e9, depth: 1, thinkNs: 1 * MS, sector: (i) => i * 72 })
    // the reader's requests take 0.1 ms, then it thinks 1 ms: at 50.05 ms it is in a think window
    r.engine.run(50 * MS + 50 * US)
    const s = sched(r).debugState()
    expect(s.inServicePid).toBe(1)
    expect(queueOf(s, 1).queued + queueOf(s, 1).dispatched).toBe(0)
    // a second process arrives in the window: plugging no longer pays, so it is served at once
    const arrive = r.engine.now
    const p2 = new Proc(r, pctx(2), { count: 1, depth: 1, sector: () => 9e7, startAt: arrive })
    r.engine.run(arrive + 10 * US)
    expect(p2.sent).toBe(1)
    const d2 = r.dispatches.find((d) => d.pid === 2)!
    expect(d2.t).toBe(arrive)
  })
})

describe('bfq 6.x: injection while idling', () => {
  /**
   * A BE/0 reader (weight 80) next to a BE/4 greedy reader (40): asymmetric weights, so BFQ idles
   * (slice_idle, 8 ms) for the BE/0 reader whenever it runs dry. The reader thinks `thinkNs`
   * between its requests; the device takes `serviceUs` per request and `depth` at a time.
   */
  function run(thinkNs: SimTime, serviceUs: number, depth: number, length = SECOND) {
    const r = makeRig(bfq, { low_latency: false }, { queueDepth: depth, completionUs: serviceUs })
    const seen = watchDispatches(r)
    const reader = new Proc(r, pctx(1, IOPRIO_BE, 0), {
      count: 1e9,
      depth: 1,
      thinkNs,
      sector: (i) => i * 72,
    })
    new Proc(r, pctx(2, IOPRIO_BE, 4), {
      count: 1e9,
      depth: 16,
      nsect: 8,
      sector: (i) => 5e7 + i * 8,
      startAt: 20 * MS,
    })
    r.engine.run(length)
    // the reader's idle windows while in service: from a completion to its next dispatch
    const windows: [SimTime, SimTime][] = []
    for (const from of reader.doneAt) {
      const next = seen.find((d) => d.pid === 1 && d.t > from)
      if (next !== undefined && next.inService === 1 && from >= 20 * MS) windows.push([from, next.t])
    }
    const inWindow = (t: SimTime) => windows.some(([a, b]) => t >= a && t < b)
    const injected = seen.filter((d) => d.pid === 2 && d.inService === 1 && inWindow(d.t))
    return { r, seen, windows, injected }
  }

  it('injects another queue’s request into a slow thinker’s idle time, within its inject limit', () => {
    // think 11 ms > slice_idle: the idle timer ends each window, the reader is expired, and its
    // next arrival is sampled — a long think time, so its inject limit starts at 1
    const { r, windows, injected } = run(11 * MS, 6000, 32)
    const q1 = queueOf(sched(r).debugState(), 1)
    expect(q1.shortThinkTime).toBe(false)
    expect(q1.wakerPid).toBeNull() // the greedy reader's completions do not precede its arrivals
    expect(windows.length).toBeGreaterThan(20)
    // one injected request per window (limit 1): the first ~6 ms of the 8 ms idle time are used
    expect(injected.length).toBeGreaterThan(windows.length * 0.8)
    for (const d of injected) expect(d.inFlight).toBeLessThanOrEqual(d.limit)
    for (const [a, b] of windows)
      expect(injected.filter((d) => d.t >= a && d.t < b).length).toBeLessThanOrEqual(2)
  })

  it('learns a quick thinker’s limit: none before a baseline, then more while service times hold', () => {
    // think 2 ms: the limit starts at 0. A first request arriving with nothing in flight gives the
    // baseline (its arrival-to-completion time); then the limit is ≥ 1 and rises while the
    // reader's requests complete within 1.5 × the baseline — on a device taking 32 at a time they do
    const { seen, injected } = run(2 * MS, 6000, 32)
    const firstBaseline = seen.find((d) => d.baseline > 0)!
    expect(firstBaseline).toBeDefined()
    expect(injected.filter((d) => d.t < firstBaseline.t).length).toBe(0)
    expect(injected.length).toBeGreaterThan(20)
    for (const d of injected) expect(d.inFlight).toBeLessThanOrEqual(d.limit)
    expect(Math.max(...injected.map((d) => d.limit))).toBeGreaterThan(1)
    expect(firstBaseline.baseline).toBe(6 * MS) // the device's 6 ms, nothing else in flight
  })

  it('lowers the limit when injected requests delay the reader’s (a device taking one at a time)', () => {
    // one command at a time: the reader's request waits for the injected one, ≥ 1.5 × baseline,
    // so the limit drops back to 0; the once-a-second reset lets one more try
    const { seen, injected } = run(2 * MS, 6000, 1, 3 * SECOND)
    expect(injected.length).toBeGreaterThan(0)
    const limits = seen.filter((d) => d.inService === 1).map((d) => d.limit)
    expect(Math.max(...limits)).toBe(1)
    // the limit went back to 0 after injection had delayed the reader: 1 → 0 transitions
    let drops = 0
    for (let i = 1; i < limits.length; i++) if (limits[i - 1] === 1 && limits[i] === 0) drops++
    expect(drops).toBeGreaterThan(0)
  })
})

describe('bfq 6.x: waker detection', () => {
  /**
   * A "caller" that reads one block, then waits for a "journal" thread to write 4 blocks, and
   * reads again once all 4 completed — an fsync waiting for a commit, in miniature. The caller is
   * at the default weight (BE/4), so low_latency raises it as a new queue; the journal is at BE/5,
   * never raised, so it cannot preempt the raised caller: BFQ idles for the caller (≥ 20 ms for a
   * raised queue) while the journal's writes, which the caller waits for, are queued.
   */
  function commitChain(cycles: number) {
    const r = makeRig(bfq, {}, { queueDepth: 32, completionUs: 100 })
    const caller = pctx(1, IOPRIO_BE, 4)
    const journal = pctx(2, IOPRIO_BE, 5)
    const readDone: SimTime[] = []
    const writes: { t: SimTime; inFlight: number; limit: number }[] = []
    let n = 0
    let left = 0
    const read = (): void => {
      if (n++ < cycles)
        r.queue.submit(r.queue.makeBio(n * 72, 64, READ, true, caller, afterRead, null, 0), null)
    }
    const afterRead = {
      bioDone: (_b: Bio, now: SimTime) => {
        readDone.push(now)
        left = 4
        for (let k = 0; k < 4; k++)
          r.queue.submit(
            r.queue.makeBio(9e7 + n * 64 + k * 16, 8, WRITE, true, journal, afterWrite, null, 0),
            null,
          )
      },
    }
    const afterWrite = { bioDone: () => void (--left === 0 && read()) }
    const seen = watchDispatches(r)
    const start: Handler = { onEvent: () => read() }
    r.engine.at(0, start, 0)
    r.engine.run(5 * SECOND)
    for (const d of seen) if (d.pid === 2) writes.push(d)
    /** The journal's writes of cycle i: dispatched between the i-th read completion and the next. */
    const cycle = (i: number) =>
      writes.filter((w) => w.t >= readDone[i] && (i + 1 >= readDone.length || w.t < readDone[i + 1]))
    return { r, readDone, cycle }
  }

  it('finds the queue whose completions the caller waits for, and serves all its I/O at once', () => {
    const { r, readDone, cycle } = commitChain(100)
    expect(readDone.length).toBe(100)
    // 1. a fresh caller counts as a quick thinker (inject limit 0): the commit waits for the end
    //    of the raised caller's idle time, 20 ms
    expect(cycle(0).every((w) => w.t === readDone[0] + 20 * MS)).toBe(true)
    // 2. once its think time is known to be long, its inject limit is 1: the writes are injected
    //    one at a time, never more in flight than the limit
    const oneByOne = Array.from({ length: 20 }, (_, i) => i).find(
      (i) => new Set(cycle(i).map((w) => w.t)).size === 4,
    )
    expect(oneByOne).toBeDefined()
    for (const w of cycle(oneByOne!)) expect(w.inFlight).toBeLessThanOrEqual(w.limit)
    // 3. three arrivals right after the journal's completions make the journal the caller's waker:
    //    from then on every commit is injected whole, the moment the caller's read completes
    expect(queueOf(sched(r).debugState(), 1).wakerPid).toBe(2)
    for (let i = 20; i < 100; i++) {
      const ws = cycle(i)
      expect(ws.length).toBe(4)
      for (const w of ws) expect(w.t).toBe(readDone[i])
      expect(Math.max(...ws.map((w) => w.inFlight))).toBeGreaterThan(ws[0].limit)
    }
    // 100 commits take far less than 100 idle timeouts
    expect(readDone[99]).toBeLessThan(100 * MS)
  })
})
