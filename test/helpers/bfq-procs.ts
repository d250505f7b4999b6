// Closed-loop processes for BFQ tests: each keeps a number of bios outstanding on a rig's queue,
// with a think time between a completion and the next submission, and helpers to read BFQ's state.
import type { Bio, IoContext, Op } from '../../src/shared/block/types'
import { READ } from '../../src/shared/block/types'
import type { Handler } from '../../src/shared/sim/engine'
import type { SimTime } from '../../src/shared/sim/time'
import type { Bfq, BfqDebugState } from '../../src/shared/schedulers/bfq'
import { ctx } from './rig'
import type { makeRig } from './rig'

export type Rig = ReturnType<typeof makeRig>

export interface ProcOpts {
  count: number
  /** Requests kept outstanding (1 = each waits for the previous: a dependent reader). */
  depth: number
  /** Pause between a completion and the next submission. */
  thinkNs?: SimTime
  op?: Op
  sync?: boolean
  nsect?: number
  /** Sector of the i-th request. */
  sector: (i: number) => number
  startAt?: SimTime
}

/** A closed-loop process: keeps `depth` bios outstanding, submits the next `thinkNs` after a completion. */
export class Proc implements Handler {
  sent = 0
  done = 0
  inflight = 0
  blocked = false
  readonly doneAt: SimTime[] = []
  readonly submittedAt: SimTime[] = []

  constructor(
    private readonly r: Rig,
    readonly c: IoContext,
    private readonly o: ProcOpts,
  ) {
    r.engine.at(o.startAt ?? 0, this, 0)
  }

  onEvent(): void {
    this.fill()
  }

  private fill(): void {
    const o = this.o
    while (!this.blocked && this.inflight < o.depth && this.sent < o.count) {
      const op = o.op ?? READ
      const b = this.r.queue.makeBio(
        o.sector(this.sent),
        o.nsect ?? 64,
        op,
        o.sync ?? op === READ,
        this.c,
        this,
        null,
        this.sent,
      )
      this.submittedAt.push(this.r.engine.now)
      this.sent++
      this.inflight++
      if (!this.r.queue.submit(b, this)) this.blocked = true
    }
  }

  bioDone(_b: Bio, now: SimTime): void {
    this.inflight--
    this.done++
    this.doneAt.push(now)
    this.r.engine.at(now + (this.o.thinkNs ?? 0), this, 0)
  }

  slotGranted(): void {
    this.blocked = false
    this.fill()
  }
}

export function pctx(pid: number, ioClass = 0, ioLevel = 4): IoContext {
  const c = ctx(pid)
  c.ioClass = ioClass as IoContext['ioClass']
  c.ioLevel = ioLevel
  return c
}

export const sched = (r: Rig): Bfq => r.queue.sched as Bfq
export const queueOf = (s: BfqDebugState, pid: number, sync = true) =>
  s.queues.find((q) => q.pid === pid && q.sync === sync)!
