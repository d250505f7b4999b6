// Conformance of every registered scheduler to the ops-table contract, under a random mix of
// processes (priorities, reads and writes, sync and async, sequential runs that merge and random
// requests), on a rotational single-command device and on a deep non-rotational one.
import { describe, expect, it } from 'vitest'
import { schedulers } from '../../src/shared/schedulers/registry'
import type { SchedulerType } from '../../src/shared/schedulers/scheduler'
import { IOPRIO_BE, IOPRIO_IDLE, IOPRIO_NONE, IOPRIO_RT, READ, WRITE } from '../../src/shared/block/types'
import type { IoContext, IoPrioClass, Op } from '../../src/shared/block/types'
import type { Handler } from '../../src/shared/sim/engine'
import { Rng } from '../../src/shared/sim/rng'
import { MS } from '../../src/shared/sim/time'
import { ctx, makeRig } from '../helpers/rig'

interface Outcome {
  log: string[]
  submitted: number
  completed: number
  inserted: Set<number>
  dispatchedTwice: number[]
  notInserted: number[]
  hasWorkMismatches: string[]
  maxWaitMs: number
}

export function drive(
  type: SchedulerType,
  seed: number,
  device: { queueDepth: number; rotational: boolean },
): Outcome {
  const r = makeRig(type, {}, { ...device, completionUs: device.rotational ? 2000 : 50 }, 64)
  const rng = new Rng(seed)
  const classes: IoPrioClass[] = [IOPRIO_NONE, IOPRIO_BE, IOPRIO_RT, IOPRIO_IDLE]
  const procs: IoContext[] = Array.from({ length: 6 }, (_, i) => {
    const c = ctx(i + 1)
    c.ioClass = classes[i % classes.length]
    c.ioLevel = i % 8
    return c
  })
  const inserted = new Set<number>()
  const dispatched = new Set<number>()
  const out: Outcome = {
    log: [],
    submitted: 0,
    completed: 0,
    inserted,
    dispatchedTwice: [],
    notInserted: [],
    hasWorkMismatches: [],
    maxWaitMs: 0,
  }
  const sched = r.queue.sched
  const insert = sched.insert.bind(sched)
  sched.insert = (rq, now) => {
    inserted.add(rq.id)
    insert(rq, now)
  }
  const observer = r.queue.observer!
  r.queue.observer = {
    dispatched: (rq, now) => {
      if (dispatched.has(rq.id)) out.dispatchedTwice.push(rq.id)
      if (!inserted.has(rq.id)) out.notInserted.push(rq.id)
      dispatched.add(rq.id)
      out.log.push(`${now}:${rq.id}:${rq.sector}+${rq.nsect}:${rq.op}`)
      out.maxWaitMs = Math.max(out.maxWaitMs, (now - rq.insertedAt) / MS)
      observer.dispatched(rq, now)
    },
    completed: (rq, now) => observer.completed(rq, now),
    levels: (now, queued, inFlight) => {
      if (sched.hasWork() !== queued > 0 && out.hasWorkMismatches.length < 5)
        out.hasWorkMismatches.push(`t=${now}: hasWork()=${sched.hasWork()} with ${queued} queued`)
      observer.levels(now, queued, inFlight)
    },
  }
  // Each process submits bursts: sequential runs (which merge) or scattered requests, then pauses.
  const next = new Map<number, number>()
  const burst: Handler = {
    onEvent: (_k, data) => {
      const c = data as IoContext
      const op: Op = rng.next() < 0.6 ? READ : WRITE
      const sync = op === READ || rng.next() < 0.3
      const sequential = rng.next() < 0.5
      let sector = sequential ? (next.get(c.pid) ?? c.pid * 10_000_000) : rng.int(50_000_000) * 8
      const n = 1 + rng.int(12)
      for (let i = 0; i < n; i++) {
        const nsect = 8 * (1 + rng.int(8))
        // a submitter that finds no free slot is held by the block layer and resumed later
        r.submit(sector, nsect, op, c, sync)
        out.submitted++
        sector = sequential ? sector + nsect : rng.int(50_000_000) * 8
      }
      next.set(c.pid, sector)
      if (r.engine.now < 4000 * MS) r.engine.at(r.engine.now + rng.int(40 * MS), burst, 0, c)
    },
  }
  for (const c of procs) r.engine.at(rng.int(10 * MS), burst, 0, c)
  r.engine.run(60_000 * MS)
  out.completed = r.done.length
  return out
}

/**
 * Where the algorithm bounds how long a request can wait, the longest wait (insertion to dispatch)
 * under this overload on the single-command disk, in seconds — from each algorithm's own limits:
 * FIFO order; deadline's 5 s write_expire; mq-deadline's 10 s prio_aging_expire for its IDLE
 * class; AS and ROW's batch and starvation limits; one sweep of an elevator. CFQ and BFQ serve
 * their IDLE class only when nothing else is queued, and SSTF serves the nearest request first:
 * neither bounds the wait, by design.
 */
const waitBoundSeconds: Record<string, number | undefined> = {
  noop: 2,
  fcfs: 2,
  deadline: 6,
  'mq-deadline': 12,
  anticipatory: 6,
  kyber: 2,
  row: 6,
  scan: 2,
  look: 2,
  'c-look': 2,
  cfq: undefined,
  bfq: undefined,
  sstf: undefined,
}

describe.each(schedulers.map((s) => [s.name, s] as const))(
  '%s conforms to the scheduler contract',
  (_name, type) => {
    for (const device of [
      { queueDepth: 1, rotational: true },
      { queueDepth: 32, rotational: false },
    ]) {
      const where = `queue depth ${device.queueDepth}, ${device.rotational ? 'rotational' : 'flash'}`
      it(`loses, duplicates and invents no request, and leaves none waiting forever (${where})`, () => {
        const o = drive(type, 11, device)
        expect(o.submitted).toBeGreaterThan(500)
        expect(o.completed).toBe(o.submitted)
        expect(o.dispatchedTwice).toEqual([])
        expect(o.notInserted).toEqual([])
      })

      if (device.queueDepth === 1)
        it(`bounds the wait of every request where its algorithm does (${where})`, () => {
          expect(type.name in waitBoundSeconds, `add ${type.name} to waitBoundSeconds`).toBe(true)
          const bound = waitBoundSeconds[type.name]
          if (bound !== undefined) expect(drive(type, 11, device).maxWaitMs).toBeLessThan(bound * 1000)
        })

      it(`has work exactly when requests are queued (${where})`, () => {
        expect(drive(type, 12, device).hasWorkMismatches).toEqual([])
      })

      it(`dispatches identically for the same inputs (${where})`, () => {
        const a = drive(type, 13, device)
        const b = drive(type, 13, device)
        expect(b.log).toEqual(a.log)
        expect(drive(type, 14, device).log).not.toEqual(a.log)
      })
    }
  },
)
