import { describe, expect, it } from 'vitest'
import { IOPRIO_BE, IOPRIO_IDLE, IOPRIO_RT, READ, WRITE } from '../../src/shared/block/types'
import type { IoContext, Op, Request } from '../../src/shared/block/types'
import { cfq } from '../../src/shared/schedulers/cfq'
import { MS, US } from '../../src/shared/sim/time'
import { ctx, makeRig } from '../helpers/rig'
import type { Dispatch } from '../helpers/rig'

type Rig = ReturnType<typeof makeRig>

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

function prio(pid: number, ioClass: 1 | 2 | 3, ioLevel = 4): IoContext {
  const c = ctx(pid)
  c.ioClass = ioClass
  c.ioLevel = ioLevel
  return c
}

/** Call `fn` after every completion (the rig's observer keeps its own log). */
function onComplete(r: Rig, fn: (rq: Request, now: number) => void): void {
  const obs = r.queue.observer!
  const prev = obs.completed
  obs.completed = (rq, now) => {
    prev(rq, now)
    fn(rq, now)
  }
}

/** At `t`, run `fn` (an engine event). */
function at(r: Rig, t: number, fn: () => void): void {
  r.engine.at(t, { onEvent: fn }, 0)
}

/**
 * A process doing dependent reads: one at a time, the next `think` after the previous completed
 * (a synchronous reader: cat, a database without read-ahead).
 */
function reader(r: Rig, c: IoContext, sectors: number[], think: number, start = 0): void {
  let i = 0
  const next = (): void => void r.submit(sectors[i++], 8, READ, c)
  onComplete(r, (rq, now) => {
    if (rq.ctx === c && i < sectors.length) at(r, now + think, next)
  })
  at(r, start, next)
}

const seq = (n: number, from = 0, step = 8): number[] => Array.from({ length: n }, (_, i) => from + i * step)
const of = (r: Rig, pid: number): Dispatch[] => r.dispatches.filter((d) => d.pid === pid)
const ms = (x: number): number => Math.round(x * MS)

describe('cfq v3 (time slices)', () => {
  it('idles slice_idle after a sync queue empties: the same process goes next, another waits', () => {
    const r = makeRig(cfq, {}, { queueDepth: 1, completionUs: 100 })
    reader(r, ctx(1), seq(5), MS) // think time 1 ms < slice_idle
    at(r, ms(0.5), () => r.submit(1_000_000, 8, READ, ctx(2)))
    r.engine.run()
    // the device stays idle through each 1 ms think time: p1's reads go back to back
    expect(of(r, 1).map((d) => d.t)).toEqual([0, 1.1, 2.2, 3.3, 4.4].map(ms))
    // p2 (waiting since 0.5 ms) gets the disk only when the idle after p1's last read runs out
    expect(of(r, 2)[0].t).toBe(ms(4.5 + 8))
    expect(r.dispatches.map((d) => d.pid)).toEqual([1, 1, 1, 1, 1, 2])
  })

  it('honours slice_idle as tuned, and slice_idle = 0 turns idling off', () => {
    const tuned = makeRig(cfq, { slice_idle: 3 }, { queueDepth: 1, completionUs: 100 })
    reader(tuned, ctx(1), seq(3), MS)
    at(tuned, ms(0.5), () => tuned.submit(1_000_000, 8, READ, ctx(2)))
    tuned.engine.run()
    expect(of(tuned, 2)[0].t).toBe(ms(2.3 + 3))
    const off = makeRig(cfq, { slice_idle: 0 }, { queueDepth: 1, completionUs: 100 })
    reader(off, ctx(1), seq(3), MS)
    at(off, ms(0.5), () => off.submit(1_000_000, 8, READ, ctx(2)))
    off.engine.run()
    expect(of(off, 2)[0].t).toBe(ms(0.5))
  })

  it('idles at most 2 ms for a seeky process, the full slice_idle for a sequential one', () => {
    const far = (i: number): number => (i % 2) * 3_000_000 + i * 64 // 3 M sectors back and forth
    const seeky = makeRig(cfq, {}, { queueDepth: 1, completionUs: 100 })
    reader(
      seeky,
      ctx(1),
      Array.from({ length: 10 }, (_, i) => far(i)),
      3 * MS,
    )
    at(seeky, ms(20), () => seeky.submit(400_000_000, 8, READ, ctx(2)))
    seeky.engine.run()
    // p1 reads at 0, 3.1, 6.2 … ms; its seek mean is valid from the third request on; the idle
    // after the completion at 18.7 ms lasts 2 ms, shorter than its 3 ms think time: p2 goes
    const p1 = of(seeky, 1).map((d) => d.t)
    expect(p1.slice(0, 7)).toEqual([0, 3.1, 6.2, 9.3, 12.4, 15.5, 18.6].map(ms))
    expect(of(seeky, 2)[0].t).toBe(ms(18.7 + 2))

    const sequential = makeRig(cfq, {}, { queueDepth: 1, completionUs: 100 })
    reader(sequential, ctx(1), seq(10), 3 * MS)
    at(sequential, ms(20), () => sequential.submit(400_000_000, 8, READ, ctx(2)))
    sequential.engine.run()
    // same think time, no seeks: the disk waits for p1 until it stops, then 8 ms more
    const last = of(sequential, 1)[9].t
    expect(last).toBe(ms(27.9))
    expect(of(sequential, 2)[0].t).toBe(last + ms(0.1 + 8))
  })

  it('does not idle at all for a seeky process once the device is seen queueing (> 4 in flight)', () => {
    const far = (i: number): number => (i % 2) * 3_000_000 + i * 64
    const p2At = (depth: number): number => {
      const r = makeRig(cfq, {}, { queueDepth: depth, completionUs: 100 })
      for (let i = 0; i < 8; i++) r.submit(200_000_000 + i * 64, 8, READ, ctx(9)) // 8 at once if the device takes them
      reader(
        r,
        ctx(1),
        Array.from({ length: 10 }, (_, i) => far(i)),
        MS,
        5 * MS,
      )
      at(r, ms(9), () => r.submit(400_000_000, 8, READ, ctx(2)))
      r.engine.run()
      return of(r, 2)[0].t
    }
    expect(p2At(32)).toBe(ms(9)) // NCQ and seeky: p1 gets no idle window, p2 is served on arrival
    expect(p2At(1)).toBeGreaterThan(ms(15)) // one at a time: p1 keeps its 2 ms idles (think time 1 ms)
  })

  it('does not idle for a process whose think time exceeds slice_idle', () => {
    const r = makeRig(cfq, {}, { queueDepth: 1, completionUs: 100 })
    reader(r, ctx(1), seq(6), 12 * MS)
    // p1 reads at 0, 12.1, 24.2, 36.3 …; from its third read its mean think time (> 8 ms) is valid
    at(r, ms(37), () => r.submit(1_000_000, 8, READ, ctx(2)))
    r.engine.run()
    expect(of(r, 2)[0].t).toBe(ms(37)) // served on arrival: the disk was not held for p1
  })

  it('stops idling for a process that exits', () => {
    const r = makeRig(cfq, {}, { queueDepth: 1, completionUs: 100 })
    const c1 = ctx(1)
    reader(r, c1, seq(2), MS)
    at(r, ms(0.5), () => r.submit(1_000_000, 8, READ, ctx(2)))
    at(r, ms(1.5), () => {
      c1.exited = true
      r.queue.sched.contextExited?.(1, r.engine.now)
    })
    r.engine.run()
    // p1's last read completes at 1.2 ms and the disk idles for it; its exit at 1.5 ms ends that
    expect(of(r, 2)[0].t).toBe(ms(1.5))
  })

  it('lets a sync request preempt an active async queue', () => {
    const r = makeRig(cfq, {}, { queueDepth: 1, completionUs: 1000 })
    const w = ctx(2)
    for (let i = 0; i < 60; i++) r.submit(10_000_000 + i * 100, 8, WRITE, w, false)
    at(r, ms(5.5), () => r.submit(0, 8, READ, ctx(1)))
    r.engine.run()
    // without preemption the read would wait for the writer's 40 ms slice
    const read = of(r, 1)[0]
    expect(read.t).toBe(ms(6))
    expect(r.dispatches.findIndex((d) => d.pid === 1)).toBe(6)
  })

  it('serves RT before BE before IDLE, the idle class only after 100 ms of grace', () => {
    const r = makeRig(cfq, {}, { queueDepth: 1, completionUs: 100 })
    // arrival order is IDLE, BE, RT: the service tree, not arrival, decides
    for (const [pid, cls] of [
      [3, IOPRIO_IDLE],
      [2, IOPRIO_BE],
      [1, IOPRIO_RT],
    ] as const) {
      const c = prio(pid, cls)
      for (let i = 0; i < 20; i++) r.submit(pid * 10_000_000 + i * 64, 8, READ, c)
    }
    r.engine.run()
    expect(runs(r.dispatches.map((d) => d.pid))).toEqual([
      [1, 20],
      [2, 20],
      [3, 20],
    ])
    const lastBe = of(r, 2)[19].t
    const firstIdle = of(r, 3)[0].t
    expect(firstIdle).toBe(lastBe + ms(0.1) + 100 * MS)
    // the idle class gets one request at a time and no idling in between
    expect(of(r, 3)[19].t - firstIdle).toBe(19 * ms(0.1))
  })

  it('serves an IDLE-class process once the disk has been otherwise idle for the grace period', () => {
    const r = makeRig(cfq, {}, { queueDepth: 1, completionUs: 100 })
    const be = ctx(2)
    for (let i = 0; i < 5; i++) r.submit(i * 64, 8, READ, be)
    const idle = prio(3, IOPRIO_IDLE)
    for (let i = 0; i < 5; i++) r.submit(50_000_000 + i * 64, 8, READ, idle)
    r.engine.run()
    expect(of(r, 3)).toHaveLength(5)
    expect(of(r, 3)[0].t).toBe(ms(0.5) + 100 * MS)
    expect(r.done).toHaveLength(10)
  })

  it('gives BE/0 longer slices than BE/7 (180 ms against 40 ms)', () => {
    const r = makeRig(cfq, {}, { queueDepth: 1, completionUs: 1000 }, 2000)
    const hi = prio(1, IOPRIO_BE, 0)
    const lo = prio(2, IOPRIO_BE, 7)
    for (let i = 0; i < 600; i++) {
      r.submit(i * 64, 8, READ, hi)
      r.submit(100_000_000 + i * 64, 8, READ, lo)
    }
    r.engine.run(600 * MS)
    // a slice is timed from the queue's first completion: 180 ms of 1 ms reads is 180 + 1
    expect(runs(r.dispatches.map((d) => d.pid)).slice(0, 4)).toEqual([
      [1, 181],
      [2, 41],
      [1, 181],
      [2, 41],
    ])
    // over two whole rounds (442 ms) the disk time divides 180 : 40
    const n1 = of(r, 1).filter((d) => d.t < ms(442)).length
    const n2 = of(r, 2).filter((d) => d.t < ms(442)).length
    expect(n1).toBeGreaterThan(4 * n2)
    expect(n2).toBeGreaterThan(0)
  })

  it('puts a queue with a shorter slice further back on the service tree', () => {
    // key = now + (busy − 1)·(slice(BE/0) − slice(own)): with three busy queues BE/7 starts 280 ms back
    const r = makeRig(cfq, {}, { queueDepth: 1, completionUs: 1000 }, 3000)
    const cs = [prio(1, IOPRIO_BE, 0), prio(2, IOPRIO_BE, 0), prio(3, IOPRIO_BE, 7)]
    for (let i = 0; i < 700; i++) cs.forEach((c, k) => r.submit(k * 100_000_000 + i * 64, 8, READ, c))
    r.engine.run(1000 * MS)
    expect(
      runs(r.dispatches.map((d) => d.pid))
        .slice(0, 6)
        .map(([pid]) => pid),
    ).toEqual([1, 2, 1, 3, 2, 1])
  })

  it('looks at the FIFO once per slice: an expired request waits for the next slice start', () => {
    const r = makeRig(cfq, {}, { queueDepth: 1, completionUs: 100 }, 4000)
    const c = ctx(1)
    r.submit(10_000_000, 8, READ, c) // the head moves up to 10 M
    at(r, ms(0.05), () => {
      r.submit(0, 8, READ, c) // the oldest request, far behind the head: next_rq never picks it
      for (let i = 1; i <= 2500; i++) r.submit(10_000_000 + i * 16, 8, READ, c)
    })
    r.engine.run()
    const behind = r.dispatches.find((d) => d.sector === 0)!
    // it expires at 125.05 ms; the slice that began at 100.1 ms looked before that, so the next
    // slice (from 200.2 ms, the lone queue slices again) is the first to serve it
    expect(behind.t).toBe(ms(200.2))
    expect(of(r, 1).filter((d) => d.t < behind.t && d.sector < 10_000_000)).toHaveLength(0)
  })

  it('dispatches no async request while sync requests are at the device', () => {
    // slice_idle 0: the reader's queue is expired as soon as it is empty, its reads still in flight
    const r = makeRig(cfq, { slice_idle: 0 }, { queueDepth: 8, completionUs: 1000 })
    for (let i = 0; i < 4; i++) r.submit(i * 64, 8, READ, ctx(1))
    for (let i = 0; i < 8; i++) r.submit(50_000_000 + i * 64, 8, WRITE, ctx(2), false)
    r.engine.run()
    expect(of(r, 1).map((d) => d.t)).toEqual([0, 0, 0, 0])
    expect(of(r, 2)[0].t).toBe(MS) // the device had room at 0, but four reads were in flight
  })

  it('caps the active queue at quantum in flight, 4× quantum when it is alone', () => {
    const inFlight = (busy: boolean): number => {
      const r = makeRig(cfq, { quantum: 3 }, { queueDepth: 64, completionUs: 1000 })
      let max = 0
      const obs = r.queue.observer!
      obs.levels = (_now, _q, f) => void (max = Math.max(max, f))
      for (let i = 0; i < 40; i++) r.submit(i * 64, 8, READ, ctx(1))
      if (busy) for (let i = 0; i < 40; i++) r.submit(50_000_000 + i * 64, 8, READ, ctx(2))
      r.engine.run(10 * MS)
      return max
    }
    expect(inFlight(false)).toBe(12)
    expect(inFlight(true)).toBe(3)
  })
})

describe('cfq v1 (2003 round robin)', () => {
  it('serves busy processes round robin, quantum requests per round, and never idles', () => {
    for (const [quantum, round] of [
      [4, 6], // one pass over three queues gives 3 < 4: a second pass
      [8, 9],
      [1, 3],
    ]) {
      const r = makeRig(cfq, { version: 'v1', quantum }, { queueDepth: 1, completionUs: 100 })
      for (let i = 0; i < 36; i++)
        for (const pid of [1, 2, 3]) r.submit(pid * 10_000_000 + i * 64, 8, READ, ctx(pid))
      r.engine.run()
      expect(r.dispatches).toHaveLength(108)
      // every round holds the same number of requests of each process
      for (let s = 0; s + round <= 108; s += round) {
        const block = r.dispatches.slice(s, s + round).map((d) => d.pid)
        for (const pid of [1, 2, 3]) expect(block.filter((p) => p === pid)).toHaveLength(round / 3)
      }
      // no gaps: the device is never left idle while requests wait
      expect(r.dispatches.map((d) => d.t)).toEqual(r.dispatches.map((_, i) => i * 100 * US))
    }
  })

  it('gathers the first pass of a round only from queues with nothing in flight', () => {
    // A's requests take 2.6 ms, B's 0.05 ms; two at the device at once; one request per round
    const r = makeRig(
      cfq,
      { version: 'v1', quantum: 1 },
      { queueDepth: 2, completionUs: 10, bandwidthMBps: 100 },
      1000,
    )
    for (let i = 0; i < 10; i++) r.submit(i * 4096, 512, READ, ctx(1))
    for (let i = 0; i < 200; i++) r.submit(50_000_000 + i * 64, 8, READ, ctx(2))
    r.engine.run()
    const pids = r.dispatches.map((d) => d.pid)
    expect(pids.slice(0, 2)).toEqual([1, 2])
    // while A's first request is at the device, rounds are gathered from B alone
    const secondA = pids.indexOf(1, 1)
    expect(secondA).toBeGreaterThan(40)
    expect(r.dispatches[secondA].t).toBeGreaterThanOrEqual(r.dispatches[0].t + 2 * MS)
  })

  it('does not idle for a dependent reader: another process is served during its think time', () => {
    const r = makeRig(cfq, { version: 'v1' }, { queueDepth: 1, completionUs: 100 })
    reader(r, ctx(1), seq(5), MS)
    at(r, ms(0.5), () => r.submit(1_000_000, 8, READ, ctx(2)))
    r.engine.run()
    expect(of(r, 2)[0].t).toBe(ms(0.5))
  })

  it('serves a request behind the head once its FIFO expiry (fifo_expire_r) has passed', () => {
    const r = makeRig(cfq, { version: 'v1' }, { queueDepth: 1, completionUs: 1000 }, 4000)
    const c = ctx(1)
    // a stream ahead of the head, growing faster than it is served: the sweep never comes back
    let next = 5_000_000
    const feed = (): void => {
      r.submit(next, 8, READ, c)
      next += 100
      if (r.engine.now < 900 * MS) at(r, r.engine.now + MS / 2, feed)
    }
    at(r, 0, feed)
    at(r, 10 * MS, () => r.submit(0, 8, READ, c)) // behind the head by more than back_seek_max
    r.engine.run(1000 * MS)
    const behind = r.dispatches.find((d) => d.sector === 0)!
    expect(behind.t).toBeGreaterThan(510 * MS)
    expect(behind.t).toBeLessThanOrEqual(516 * MS) // taken at the first round after expiry
  })
})

describe('cfq allowMerge', () => {
  const mergeCase = (
    version: string,
    first: [number, Op, IoContext, boolean],
    second: [number, Op, IoContext, boolean],
  ) => {
    const r = makeRig(cfq, { version }, { queueDepth: 1, completionUs: 100 })
    r.submit(first[0], 8, first[1], first[2], first[3])
    r.submit(second[0], 8, second[1], second[2], second[3])
    r.engine.run()
    return r.dispatches.length
  }
  const p1 = ctx(1)
  const p2 = ctx(2)

  it('v3 merges only within one process queue, never a sync bio into an async request', () => {
    expect(mergeCase('v3', [0, READ, p1, true], [8, READ, p1, true])).toBe(1) // back merge, same process
    expect(mergeCase('v3', [8, READ, p1, true], [0, READ, p1, true])).toBe(1) // front merge, same process
    expect(mergeCase('v3', [0, READ, p1, true], [8, READ, p2, true])).toBe(2) // another process
    expect(mergeCase('v3', [8, READ, p1, true], [0, READ, p2, true])).toBe(2)
    expect(mergeCase('v3', [0, WRITE, p1, false], [8, WRITE, p1, true])).toBe(2) // sync into async
    expect(mergeCase('v3', [0, WRITE, p1, true], [8, WRITE, p1, false])).toBe(2) // async joins the async queue
    expect(mergeCase('v3', [0, WRITE, p1, false], [8, WRITE, p2, false])).toBe(1) // one async queue per priority
  })

  it('v1 back-merges across processes (one global hash) but front-merges only in the own queue', () => {
    expect(mergeCase('v1', [0, READ, p1, true], [8, READ, p2, true])).toBe(1)
    expect(mergeCase('v1', [8, READ, p1, true], [0, READ, p2, true])).toBe(2)
    expect(mergeCase('v1', [8, READ, p1, true], [0, READ, p1, true])).toBe(1)
  })
})

/** A seeded mix: dependent readers, async writers, sync writers, RT/BE/IDLE, at QD 1 and 8. */
function mixedRun(version: string, depth: number, seed: number) {
  const r = makeRig(cfq, { version }, { queueDepth: depth, completionUs: 150 })
  let s = seed
  const rand = (n: number): number => {
    s = (s * 1103515245 + 12345) % 2147483648
    return s % n
  }
  const inserted = new Set<number>()
  const dispatched = new Set<number>()
  let mergedAway = 0
  let hasWorkWrong = 0
  const sched = r.queue.sched
  const ins = sched.insert.bind(sched)
  sched.insert = (rq, now) => {
    inserted.add(rq.id)
    ins(rq, now)
  }
  const mr = sched.mergedRequests?.bind(sched)
  sched.mergedRequests = (rq, next, now) => {
    mergedAway++
    inserted.delete(next.id)
    mr?.(rq, next, now)
  }
  const obs = r.queue.observer!
  const prevDispatched = obs.dispatched
  obs.dispatched = (rq, now) => {
    if (dispatched.has(rq.id) || !inserted.has(rq.id))
      throw new Error(`request ${rq.id} dispatched twice or never inserted`)
    dispatched.add(rq.id)
    prevDispatched(rq, now)
  }
  obs.levels = (_now, queued) => {
    if (sched.hasWork() !== queued > 0) hasWorkWrong++
  }
  let submitted = 0
  const classes = [IOPRIO_BE, IOPRIO_RT, IOPRIO_IDLE, IOPRIO_BE, IOPRIO_BE, IOPRIO_BE] as const
  for (let p = 1; p <= 6; p++) {
    const c = prio(p, classes[p - 1], rand(8))
    const base = rand(400) * 1_000_000
    if (p <= 3) {
      // dependent readers, partly sequential
      reader(
        r,
        c,
        Array.from({ length: 60 }, (_, i) => (rand(4) === 0 ? rand(500) * 1_000_000 : base + i * 8)),
        rand(5) * MS,
        rand(20) * MS,
      )
      submitted += 60
    } else {
      // writers: bursts of async (or sync) writes, some contiguous so they merge
      const sync = p === 6
      for (let b = 0; b < 10; b++)
        at(r, rand(800) * MS, () => {
          const start = base + rand(1000) * 64
          // every other block first, then the gaps: the gap bios join two requests into one
          for (const i of [0, 2, 4, 6, 1, 3, 5, 7]) r.submit(start + i * 8, 8, WRITE, c, sync)
        })
      submitted += 80
    }
  }
  r.engine.run()
  return { r, inserted, dispatched, mergedAway, hasWorkWrong, submitted }
}

describe.each(['v1', 'v3'])('cfq %s conformance', (version) => {
  it.each([1, 8])('dispatches every inserted request exactly once, hasWork exact (QD %i)', (depth) => {
    const m = mixedRun(version, depth, 7)
    expect(m.r.done).toHaveLength(m.submitted) // every bio completed
    expect(m.mergedAway).toBeGreaterThan(0)
    expect([...m.dispatched].sort((a, b) => a - b)).toEqual([...m.inserted].sort((a, b) => a - b))
    expect(m.hasWorkWrong).toBe(0)
    expect(m.r.queue.sched.hasWork()).toBe(false)
  })

  it('gives identical logs for identical inputs', () => {
    const a = mixedRun(version, 4, 11)
    const b = mixedRun(version, 4, 11)
    expect(a.r.dispatches).toEqual(b.r.dispatches)
    expect(mixedRun(version, 4, 12).r.dispatches).not.toEqual(a.r.dispatches)
  })

  it('lets no request wait without bound under a mix of processes', () => {
    const r = makeRig(cfq, { version }, { queueDepth: 1, completionUs: 200 })
    const waits: number[] = []
    const obs = r.queue.observer!
    const prev = obs.dispatched
    obs.dispatched = (rq, now) => {
      waits.push(now - rq.insertedAt)
      prev(rq, now)
    }
    // a streaming async writer, a sync writer and two readers with think time, all for 2 s
    const w = ctx(10)
    const sw = ctx(11)
    let k = 0
    const flood = (): void => {
      for (let i = 0; i < 16; i++) r.submit(300_000_000 + (k++ % 100_000) * 64, 8, WRITE, w, false)
      r.submit(200_000_000 + k * 64, 8, WRITE, sw, true)
      if (r.engine.now < 2000 * MS) at(r, r.engine.now + 2 * MS, flood)
    }
    at(r, 0, flood)
    reader(r, ctx(1), seq(400, 0, 8), 2 * MS)
    reader(r, ctx(2), seq(400, 100_000_000, 4096), 20 * MS)
    r.engine.run(2500 * MS)
    const max = Math.max(...waits)
    // v1: every busy queue gives one request to every round, so a request waits at most its queue's
    // length in rounds (measured: 30 ms). v3: async writes lose every slice to the readers' sync
    // requests (preemption) and wait for slices of 100–180 ms, FIFO checked once per slice
    // (measured: 0.94 s), still bounded
    expect(max).toBeLessThan(version === 'v3' ? 1500 * MS : 500 * MS)
    expect(of(r, 1).length).toBeGreaterThan(50)
    expect(of(r, 2).length).toBeGreaterThan(20)
    expect(of(r, 10).length).toBeGreaterThan(100)
  })
})
