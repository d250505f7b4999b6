import { describe, expect, it } from 'vitest'
import {
  IOPRIO_BE,
  IOPRIO_IDLE,
  IOPRIO_NONE,
  IOPRIO_RT,
  READ,
  Request,
  WRITE,
} from '../../src/shared/block/types'
import type { IoContext, IoPrioClass } from '../../src/shared/block/types'
import { MqDeadline, mqDeadline, mqDeadlineTunables } from '../../src/shared/schedulers/mq-deadline'
import type { Handler } from '../../src/shared/sim/engine'
import { MS, SECOND } from '../../src/shared/sim/time'
import { resolveParams } from '../../src/shared/util/params'
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

function proc(pid: number, ioClass: IoPrioClass, ioLevel = 4): IoContext {
  const c = ctx(pid)
  c.ioClass = ioClass
  c.ioLevel = ioLevel
  return c
}

describe('mq-deadline: priority levels', () => {
  it('serves RT before BE (and class-less) before IDLE', () => {
    const r = makeRig(mqDeadline, {}, { queueDepth: 1, completionUs: 100 })
    const idle = proc(3, IOPRIO_IDLE)
    const be = proc(2, IOPRIO_BE)
    const none = proc(4, IOPRIO_NONE)
    const rt = proc(1, IOPRIO_RT)
    for (let i = 0; i < 8; i++) {
      r.submit(i * 1000, 8, READ, idle)
      r.submit(100_000 + i * 1000, 8, READ, be)
      r.submit(200_000 + i * 1000, 8, WRITE, none, false)
      r.submit(300_000 + i * 1000, 8, READ, rt)
    }
    r.engine.run()
    const pids = r.dispatches.map((d) => d.pid)
    expect(pids.slice(0, 8)).toEqual(Array(8).fill(1))
    expect(new Set(pids.slice(8, 24))).toEqual(new Set([2, 4])) // IOPRIO_NONE counts as BE
    expect(pids.slice(24)).toEqual(Array(8).fill(3))
  })

  it('holds lower levels back while a higher level has requests in flight', () => {
    const r = makeRig(mqDeadline, {}, { queueDepth: 4, completionUs: 1000 })
    r.submit(0, 8, READ, proc(1, IOPRIO_RT))
    for (let i = 0; i < 6; i++) r.submit(100_000 + i * 1000, 8, READ, proc(2, IOPRIO_BE))
    r.engine.run()
    // a free device slot is not enough: the BE requests wait until the RT request completes (1 ms),
    // and then for the queue's next run — its completion runs nothing under mq-deadline, so it is
    // blk-mq's delayed run, armed when the inserts were declined at 0: 3 jiffies at HZ 1000
    expect(r.dispatches.filter((d) => d.t === 0).map((d) => d.pid)).toEqual([1])
    expect(r.dispatches.filter((d) => d.t > 0 && d.t < 3 * MS)).toHaveLength(0)
    expect(r.dispatches.filter((d) => d.t === 3 * MS)).toHaveLength(4)
  })

  for (const agingMs of [10_000, 2000]) {
    it(`serves an IDLE request waiting ${agingMs} ms (prio_aging_expire) ahead of newer BE requests`, () => {
      const r = makeRig(mqDeadline, { prio_aging_expire: agingMs }, { queueDepth: 1, completionUs: 1000 })
      const be = proc(2, IOPRIO_BE)
      r.submit(5_000_000, 8, READ, proc(3, IOPRIO_IDLE))
      // a BE reader keeps a few requests queued all the time, so strict priority alone starves IDLE
      const submittedAt = new Map<number, number>()
      let sector = 0
      const feeder: Handler = {
        onEvent: () => {
          while (r.queue.queued < 4) {
            submittedAt.set(sector, r.engine.now)
            r.submit(sector, 8, READ, be)
            sector += 1000
          }
          if (r.engine.now < agingMs * MS + SECOND) r.engine.at(r.engine.now + MS / 4, feeder, 0)
        },
      }
      feeder.onEvent(0, null)
      r.engine.run()
      const i = r.dispatches.findIndex((d) => d.pid === 3)
      const idleAt = r.dispatches[i].t
      expect(idleAt).toBeGreaterThanOrEqual(agingMs * MS)
      expect(idleAt).toBeLessThanOrEqual(agingMs * MS + MS)
      // BE requests already waiting when the IDLE one went first are served after it
      const overtaken = r.dispatches.slice(i + 1).filter((d) => submittedAt.get(d.sector)! <= idleAt)
      expect(overtaken.length).toBeGreaterThanOrEqual(2)
      expect(r.dispatches.slice(0, i).every((d) => d.pid === 2)).toBe(true)
    })
  }

  it('never merges requests of different I/O priorities', () => {
    const r = makeRig(mqDeadline, {}, { queueDepth: 1 })
    const rt = proc(1, IOPRIO_RT)
    r.submit(50_000, 8)
    r.submit(1000, 8, READ, rt)
    r.submit(1008, 8, READ, proc(2, IOPRIO_BE)) // contiguous, other class: no merge
    r.submit(1016, 8, READ, proc(3, IOPRIO_RT, 2)) // same class, other level: no merge
    r.submit(2000, 8, READ, rt)
    r.submit(2008, 8, READ, rt) // same priority: merges
    r.engine.run()
    expect(r.dispatches.map((d) => [d.sector, d.nsect])).toEqual([
      [1000, 8],
      [1016, 8],
      [2000, 16],
      [50_000, 8],
      [1008, 8],
    ])
  })

  it('forgets a request absorbed by a merge, so lower levels are not held back by it', () => {
    const r = makeRig(mqDeadline, {}, { queueDepth: 1, completionUs: 100 })
    const rt = proc(1, IOPRIO_RT)
    r.submit(1000, 8, READ, rt)
    r.submit(1016, 8, READ, rt)
    r.submit(1008, 8, READ, rt) // fills the gap: 1016+8 is absorbed into 1000+24
    r.submit(5000, 8, READ, proc(2, IOPRIO_BE))
    r.engine.run()
    expect(r.dispatches.map((d) => [d.sector, d.nsect])).toEqual([
      [1000, 24],
      [5000, 8],
    ])
    expect(r.queue.sched.hasWork()).toBe(false)
  })

  it('serves the at-head list first, newest first, then the sorted requests', () => {
    const s = new MqDeadline(resolveParams(mqDeadlineTunables, {}, 't', []), 128)
    const mk = (id: number, sector: number, ioClass: IoPrioClass): Request => {
      const rq = new Request()
      rq.id = id
      rq.sector = sector
      rq.nsect = 8
      rq.ioClass = ioClass
      return rq
    }
    s.insert(mk(1, 500, IOPRIO_BE), 0)
    s.insert(mk(2, 100, IOPRIO_BE), 0)
    s.insert(mk(3, 900, IOPRIO_BE), 0, true)
    s.insert(mk(4, 700, IOPRIO_BE), 0, true)
    s.insert(mk(5, 300, IOPRIO_RT), 0)
    const order: number[] = []
    for (let rq = s.dispatch(0); rq !== undefined; rq = s.dispatch(0)) {
      order.push(rq.id)
      s.completed(rq, 0)
    }
    // RT first; then BE's at-head list (last inserted first); then BE from its FIFO head (1, the
    // oldest), whose sector successor is none, so the FIFO head again (2)
    expect(order).toEqual([5, 4, 3, 1, 2])
    expect(s.hasWork()).toBe(false)
  })
})

describe('mq-deadline: one priority level behaves as deadline', () => {
  it('serves 16-request batches in sector order, two read batches per write batch', () => {
    const r = makeRig(mqDeadline, {}, { queueDepth: 1, completionUs: 100 })
    for (let i = 0; i < 64; i++) {
      r.submit(i * 1000, 8, READ, ctx(1))
      r.submit(((i * 53) % 64) * 1000 + 500_000, 8, WRITE, ctx(2), false)
    }
    r.engine.run()
    expect(runs(r.dispatches.map((d) => d.op))).toEqual([
      [READ, 32],
      [WRITE, 16],
      [READ, 32],
      [WRITE, 48],
    ])
    const w = r.dispatches.filter((d) => d.op === WRITE).map((d) => d.sector)
    // the first write batch sweeps up from the oldest write
    expect(w.slice(0, 16)).toEqual(Array.from({ length: 16 }, (_, i) => 500_000 + i * 1000))
    // unlike legacy deadline, the read batches do not clear the write successor: the next write
    // batch resumes the sweep where it stopped instead of restarting at the oldest write (553 000)
    expect(w[16]).toBe(516_000)
    expect(r.dispatches.slice(0, 16).map((d) => d.sector)).toEqual(
      Array.from({ length: 16 }, (_, i) => i * 1000),
    )
  })

  it('uses writes_starved and fifo_batch as tuned', () => {
    const r = makeRig(mqDeadline, { writes_starved: 1, fifo_batch: 4 }, { queueDepth: 1, completionUs: 100 })
    for (let i = 0; i < 24; i++) {
      r.submit(i * 1000, 8, READ, ctx(1))
      r.submit(i * 1000 + 500_000, 8, WRITE, ctx(2), false)
    }
    r.engine.run()
    expect(runs(r.dispatches.map((d) => d.op))).toEqual(
      Array.from({ length: 12 }, (_, i) => [i % 2 === 0 ? READ : WRITE, 4]),
    )
  })

  it('serves an expired read at the next batch boundary although the sweep moves away', () => {
    const r = makeRig(mqDeadline, {}, { queueDepth: 1, completionUs: 1000 })
    let next = 100_000
    const feeder: Handler = {
      onEvent: () => {
        r.submit(next, 8, READ, ctx(1))
        next += 1000
        if (r.engine.now > 0 && r.engine.now < 800 * MS) r.engine.at(r.engine.now + MS / 2, feeder, 0)
      },
    }
    for (let i = 0; i < 20; i++) feeder.onEvent(0, null)
    r.submit(10, 8, READ, ctx(2))
    r.engine.at(MS / 2, feeder, 0)
    r.engine.run(900 * MS)
    const low = r.dispatches.find((d) => d.sector === 10)!
    expect(low.t).toBeGreaterThanOrEqual(500 * MS)
    expect(low.t).toBeLessThanOrEqual(500 * MS + 17 * MS)
  })
})

/** A random mix of processes of every class; returns what the contract checks need. */

describe('mq-deadline: contract', () => {
  for (const qd of [1, 32]) {
    it(`dispatches every request exactly once, in bounded time, with hasWork exact (queue depth ${qd})`, () => {
      const o = driveMix(mqDeadline, 21, { queueDepth: qd, rotational: qd === 1 })
      expect(o.submitted).toBeGreaterThan(500)
      expect(o.completed).toBe(o.submitted)
      expect([o.dispatchedTwice, o.notInserted, o.hasWorkMismatches]).toEqual([[], [], []])
      // the worst wait is bounded by the aging of the lowest class plus the write expiry
      expect(o.maxWaitMs).toBeLessThan(15 * 1000)
    })

    it(`gives identical logs for identical inputs (queue depth ${qd})`, () => {
      const a = driveMix(mqDeadline, 22, { queueDepth: qd, rotational: qd === 1 }).log
      expect(driveMix(mqDeadline, 22, { queueDepth: qd, rotational: qd === 1 }).log).toEqual(a)
      expect(driveMix(mqDeadline, 23, { queueDepth: qd, rotational: qd === 1 }).log).not.toEqual(a)
    })
  }
})
