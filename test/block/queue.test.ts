import { describe, expect, it } from 'vitest'
import { READ, WRITE } from '../../src/shared/block/types'
import type { Request } from '../../src/shared/block/types'
import { noop } from '../../src/shared/schedulers/noop'
import { deadline } from '../../src/shared/schedulers/deadline'
import { ctx, makeRig } from '../helpers/rig'
import { RequestFifo } from '../../src/shared/block/fifo'
import { Idle } from '../../src/shared/schedulers/scheduler'
import type { SchedulerType } from '../../src/shared/schedulers/scheduler'
import { MS } from '../../src/shared/sim/time'

describe('block layer merging', () => {
  it('back-merges a bio that starts where a queued request ends', () => {
    const r = makeRig(noop)
    r.submit(1000, 8)
    r.submit(1008, 8)
    r.submit(1016, 8)
    r.engine.run()
    expect(r.dispatches).toHaveLength(1)
    expect(r.dispatches[0]).toMatchObject({ sector: 1000, nsect: 24 })
    expect(r.done.map((b) => b.sector)).toEqual([1000, 1008, 1016])
  })

  it('front-merges only where the scheduler allows it', () => {
    const withFront = makeRig(deadline)
    withFront.submit(1008, 8)
    withFront.submit(1000, 8)
    withFront.engine.run()
    expect(withFront.dispatches.map((d) => [d.sector, d.nsect])).toEqual([[1000, 16]])

    const without = makeRig(deadline, { front_merges: false })
    without.submit(1008, 8)
    without.submit(1000, 8)
    without.engine.run()
    expect(without.dispatches).toHaveLength(2)
  })

  it('joins two requests when a bio fills the gap between them, keeping the earlier deadline', () => {
    const r = makeRig(deadline)
    r.submit(1000, 8)
    r.engine.run(1) // first one dispatched to the (idle) device
    r.submit(2000, 8)
    r.submit(2016, 8)
    r.submit(2008, 8) // back-merges into 2000 and then touches 2016
    r.engine.run()
    expect(r.dispatches.map((d) => [d.sector, d.nsect])).toEqual([
      [1000, 8],
      [2000, 24],
    ])
    expect(r.done).toHaveLength(4)
  })

  it('never merges reads with writes or past the maximum transfer', () => {
    const r = makeRig(noop, {}, { maxTransferKiB: 8 })
    r.submit(1000, 8, READ)
    r.submit(1008, 8, WRITE)
    r.submit(1016, 8, WRITE)
    r.submit(1024, 8, WRITE) // would make 24 sectors > 16
    r.engine.run()
    expect(r.dispatches.map((d) => [d.sector, d.nsect, d.op])).toEqual([
      [1000, 8, READ],
      [1008, 16, WRITE],
      [1024, 8, WRITE],
    ])
  })

  it('rejects a bio larger than the maximum transfer', () => {
    const r = makeRig(noop, {}, { maxTransferKiB: 64 })
    expect(() => r.submit(0, 256)).toThrow(/split/)
  })
})

describe('nr_requests', () => {
  it('puts a submitter to sleep when no request slot is free and wakes it when one is', () => {
    const r = makeRig(noop, {}, { queueDepth: 1, completionUs: 1000 }, 4)
    const accepted: boolean[] = []
    for (let i = 0; i < 6; i++) accepted.push(r.submit(i * 100, 8, WRITE, ctx(1), false))
    // 4 slots: the fifth and sixth must wait
    expect(accepted).toEqual([true, true, true, true, false, false])
    expect(r.queue.waiting(WRITE)).toBe(2)
    // reads have their own pool on the legacy layer
    expect(r.submit(50_000, 8, READ)).toBe(true)
    r.engine.run()
    expect(r.waiter.granted).toBe(2)
    expect(r.done).toHaveLength(7)
  })

  it('shares one pool between reads and writes on blk-mq', () => {
    const mq = { ...noop, layer: 'mq' as const }
    const r = makeRig(mq, {}, { queueDepth: 1 }, 2)
    expect(r.submit(0, 8, WRITE)).toBe(true)
    expect(r.submit(100, 8, WRITE)).toBe(true)
    expect(r.submit(200, 8, READ)).toBe(false)
  })

  it('hands a freed slot to the first waiter in order', () => {
    const r = makeRig(noop, {}, { queueDepth: 1, completionUs: 100 }, 1)
    r.submit(0, 8, WRITE)
    r.submit(100, 8, WRITE)
    r.submit(200, 8, WRITE)
    r.engine.run()
    expect(r.dispatches.map((d) => d.sector)).toEqual([0, 100, 200])
  })
})

describe('device queue depth', () => {
  it('keeps at most queueDepth requests at the device', () => {
    const r = makeRig(noop, {}, { queueDepth: 4, completionUs: 100 })
    for (let i = 0; i < 20; i++) r.submit(i * 1000, 8)
    r.engine.run()
    // dispatch times come in waves of four, 100 µs apart
    const waves = new Map<number, number>()
    for (const d of r.dispatches) waves.set(d.t, (waves.get(d.t) ?? 0) + 1)
    expect([...waves.values()]).toEqual([4, 4, 4, 4, 4])
  })
})

describe('a scheduler that deliberately idles', () => {
  // A one-queue scheduler that, after each completion, keeps the device idle for 5 ms unless a
  // request from the same process arrives — the shape of anticipation, to test the block layer.
  const idler: SchedulerType = {
    name: 'idler',
    aliases: [],
    era: 'test',
    layer: 'legacy',
    summary: '',
    explanation: '',
    tunables: [],
    usesIoPriority: false,
    create: (_t, ctx) => {
      const fifo = new RequestFifo()
      const idle = new Idle()
      let waitFor = -1
      let until = 0
      return {
        frontMerges: false,
        insert: (rq) => fifo.push(rq),
        hasWork: () => fifo.size > 0,
        completed: (rq, now) => {
          waitFor = rq.ctx.pid
          until = now + 5 * MS
        },
        dispatch: (now) => {
          if (fifo.head === null) return undefined
          for (let rq: Request | null = fifo.head; rq !== null; rq = rq.fifoNext) {
            if (rq.ctx.pid === waitFor) {
              fifo.remove(rq)
              return rq
            }
          }
          if (now < until && ctx.inFlight() === 0) {
            idle.until = until
            return idle
          }
          return fifo.shift()!
        },
      }
    },
  }

  it('leaves the device idle until the time the scheduler names, then dispatches', () => {
    const r = makeRig(idler, {}, { queueDepth: 1, completionUs: 1000 })
    r.submit(0, 8, READ, ctx(1))
    r.engine.run(2 * MS) // completes at 1 ms: idling for pid 1 until 6 ms
    r.submit(100_000, 8, READ, ctx(2))
    r.engine.run()
    expect(r.dispatches.map((d) => [d.pid, d.t / MS])).toEqual([
      [1, 0],
      [2, 6],
    ])
  })

  it('re-runs dispatch early when a request arrives during the idle period', () => {
    const r = makeRig(idler, {}, { queueDepth: 1, completionUs: 1000 })
    r.submit(0, 8, READ, ctx(1))
    r.engine.run(2 * MS)
    r.submit(100_000, 8, READ, ctx(2)) // idles for pid 1 …
    r.engine.run(3 * MS)
    r.submit(8, 8, READ, ctx(1)) // … which arrives at 3 ms: dispatched at once, ahead of pid 2
    r.engine.run()
    expect(r.dispatches.map((d) => [d.pid, d.t / MS])).toEqual([
      [1, 0],
      [1, 3],
      [2, 9], // after pid 1's second completion at 4 ms the idler waits again, until 9 ms
    ])
  })
})

describe('scheduler depth limits (limit_depth)', () => {
  it('holds async writes to their share of the tags while sync reads pass them', () => {
    const limited: SchedulerType = {
      ...noop,
      layer: 'mq',
      create: (t, c) =>
        Object.assign(noop.create(t, c), {
          limitDepth: (op: number, sync: boolean) => (sync ? undefined : 3),
        }),
    }
    const r = makeRig(limited, {}, { queueDepth: 1, completionUs: 100 }, 8)
    const w = Array.from({ length: 5 }, (_, i) => r.submit(i * 1000, 8, WRITE, ctx(1), false))
    expect(w).toEqual([true, true, true, false, false]) // 3 of 8 tags for async
    expect(r.submit(90_000, 8, READ, ctx(2))).toBe(true) // a sync read passes the waiting writes
    r.engine.run()
    expect(r.waiter.granted).toBe(2)
    expect(r.done).toHaveLength(6)
  })
})

describe('a submitter’s plug', () => {
  it('runs the queue from the submitter’s context when it unplugs, before it goes on (or sleeps)', () => {
    // blk_mq_submit_bio issues in the submitter's context — directly under none
    // (blk_mq_try_issue_directly), through a queue run under an elevator — so the driver has the
    // request (and a loop device's worker is woken) while the submitter still holds its CPU
    const r = makeRig(noop)
    r.queue.plug()
    r.submit(1000, 8)
    r.submit(1008, 8)
    expect(r.dispatches).toHaveLength(0) // under the plug: in the scheduler, the run still owed
    r.queue.unplug(0)
    // at once, no event run: the two bios went down as one request
    expect(r.dispatches.map((d) => [d.sector, d.nsect])).toEqual([[1000, 16]])
  })

  it('runs it later when the submitter owes the scheduler’s CPU first', () => {
    const r = makeRig(noop)
    r.queue.plug()
    r.submit(1000, 8)
    r.queue.unplug(5000)
    expect(r.dispatches).toHaveLength(0)
    r.engine.run()
    expect(r.dispatches).toEqual([expect.objectContaining({ t: 5000, sector: 1000 })])
  })
})
