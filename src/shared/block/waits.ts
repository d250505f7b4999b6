import type { SimTime } from '../sim/time'
import type { Request } from './types'

/**
 * Waits the kernel's own machinery imposes on requests, beyond the scheduler's choices the
 * observer sees (metrics/why.ts `ProcessStages.waits`), by kind:
 *  - W_CLASS: held in a scheduler that serves a higher I/O priority class first (mq-deadline's
 *    per-priority queues: block/mq-deadline.c dd_dispatch_request stops at the first level with
 *    requests pending, dd_dispatch_prio_aged_requests lets one through after prio_aging_expire);
 *  - W_BACKING_CLASS: the same at the disk under a loop device, which hands each request's
 *    priority down (devices/backing-stack.ts, backingIoprio);
 *  - W_DELAYED: held requests the scheduler would hand out, waiting for the queue to be run again —
 *    from the completion that freed them to the next run, an insertion's or blk-mq's delayed run
 *    (mq-runs.ts: blk_mq_delay_run_hw_queues, BLK_MQ_BUDGET_DELAY), since a completion does not
 *    run the queue under mq-deadline;
 *  - W_FLUSH: queued behind a cache flush in a loop device's worker (devices/path-thread.ts).
 */
export const W_CLASS = 0
export const W_BACKING_CLASS = 1
export const W_DELAYED = 2
export const W_FLUSH = 3
export const WAIT_KINDS = 4
export type WaitKind = 0 | 1 | 2 | 3

/** Who keeps the waits (a run's collector, when it keeps the why). */
export interface WaitObserver {
  /** `rq` waited `ns` for `kind`. */
  waited(rq: Request, kind: WaitKind, ns: SimTime): void
  /** One of the machinery's own events of `kind` took `ns`: a delayed run (its delay), a flush (its wait). */
  happened(kind: WaitKind, ns: SimTime): void
}

/**
 * The time a queue's scheduler has held its requests back behind a higher priority class: it runs
 * while the scheduler declines with work (IoScheduler.holdsByClass), and stops at its next
 * dispatch. A request's wait is the clock's advance between its insertion and its dispatch
 * (`Request.heldMark`), so each costs two subtractions however many requests are held.
 */
export class HeldClock {
  private since = -1
  private total = 0

  /** The scheduler declined with work: what it holds is held from now. */
  hold(now: SimTime): void {
    if (this.since < 0) this.since = now
  }

  /** Whether a hold is open. */
  get open(): boolean {
    return this.since >= 0
  }

  /** The clock's reading at `now`. */
  at(now: SimTime): SimTime {
    return this.since < 0 ? this.total : this.total + now - this.since
  }

  /** A dispatch: the hold, if one was open, ends. Returns the clock's reading. */
  release(now: SimTime): SimTime {
    if (this.since >= 0) {
      this.total += now - this.since
      this.since = -1
    }
    return this.total
  }
}

/** What a queue asks of its scheduler at a completion that did not run it. */
interface Blocking {
  /** Whether the requests it holds would still be held (IoScheduler.blocked). */
  blocked?(): boolean
}

/**
 * The machinery's waits at one queue whose scheduler holds requests behind a higher class
 * (IoScheduler.holdsByClass): the holding itself, and — on blk-mq, with a scheduler that says when
 * it would no longer hold (IoScheduler.blocked) — the time held requests it would hand out wait
 * for the queue to be run (mq-runs.ts: a completion does not run it). Both clocks stand until the
 * scheduler first holds something, and a request's marks stay 0 until then.
 */
export class QueueHolds {
  private readonly held = new HeldClock()
  /** Held requests the scheduler would hand out, waiting for a run (null: not measured). */
  private readonly runless: HeldClock | null
  /** The scheduler has held requests at least once (the clocks have run). */
  ever = false

  constructor(runs: boolean) {
    this.runless = runs ? new HeldClock() : null
  }

  /** The scheduler declined with work: what it holds is held from now. */
  declined(now: SimTime): void {
    this.held.hold(now)
    this.ever = true
  }

  /** A run of the queue begins: no request waits for one any more. */
  ran(now: SimTime): void {
    this.runless?.release(now)
  }

  /** A request is inserted: the clocks' readings it will be measured from. */
  mark(rq: Request, now: SimTime): void {
    rq.heldMark = this.held.at(now)
    if (this.runless !== null) rq.runlessMark = this.runless.at(now)
  }

  /** `rq` is dispatched: what it waited for, to `w` — a higher class, a run of the queue. */
  tally(rq: Request, now: SimTime, w: WaitObserver): void {
    const ns = this.held.release(now) - rq.heldMark
    if (ns > 0) w.waited(rq, W_CLASS, ns)
    if (this.runless !== null) {
      const ns = this.runless.release(now) - rq.runlessMark
      if (ns > 0) w.waited(rq, W_DELAYED, ns)
    }
  }

  /** A completion that did not run the queue: held requests `sched` would now hand out wait for a run. */
  completed(now: SimTime, sched: Blocking): void {
    if (this.runless !== null && this.held.open && !sched.blocked!()) this.runless.hold(now)
  }
}
