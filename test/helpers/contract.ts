// The scheduler contract under a random mix of processes (priorities, reads and writes, sync and
// async, sequential runs that merge and scattered requests): what the conformance suite and the
// schedulers' own tests check.
import type { SchedulerType } from '../../src/shared/schedulers/scheduler'
import { IOPRIO_BE, IOPRIO_IDLE, IOPRIO_NONE, IOPRIO_RT, READ, WRITE } from '../../src/shared/block/types'
import type { IoContext, IoPrioClass, Op } from '../../src/shared/block/types'
import type { Handler } from '../../src/shared/sim/engine'
import { Rng } from '../../src/shared/sim/rng'
import { MS } from '../../src/shared/sim/time'
import type { ParamValues } from '../../src/shared/util/params'
import { ctx, makeRig } from './rig'

export interface Device {
  queueDepth: number
  rotational: boolean
}

export interface Outcome {
  log: string[]
  submitted: number
  completed: number
  inserted: Set<number>
  dispatchedTwice: number[]
  notInserted: number[]
  hasWorkMismatches: string[]
  maxWaitMs: number
}

/** Six processes submitting bursts for 4 s on a null_blk disk (2 ms) or flash (50 µs), then drained. */
export function driveMix(
  type: SchedulerType,
  seed: number,
  device: Device,
  tunables: Partial<ParamValues> = {},
): Outcome {
  const r = makeRig(type, tunables, { ...device, completionUs: device.rotational ? 2000 : 50 }, 64)
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
