import type { Engine, Handler } from '../sim/engine'
import type { SimTime } from '../sim/time'
import type { IoScheduler } from '../schedulers/scheduler'
import { Bio, Request, RQ_FREE } from './types'
import type { BioOwner, IoContext, Op } from './types'
import { WaitList } from './wait-list'
import type { WritebackThrottle } from './wbt'
import type { BlockParams, SlotWaiter } from './queue-params'

/** The event that resumes a waiter whose bio got a slot (`RequestSlots.release`). */
export const EV_RESUME = 2

/**
 * The request queue's allocation side (blk-mq's scheduler tags, the legacy request_list's
 * get_request and freed_request): bios and requests from pools, `nr_requests` slots — per
 * direction on the legacy layer, shared on blk-mq — and the submitters asleep until one is freed,
 * each handed the slot its depth limit admits in arrival order. The block queue (queue.ts) extends
 * it with what happens to a request once it has a slot: the scheduler, dispatch, completion.
 */
export abstract class RequestSlots implements Handler {
  sched!: IoScheduler
  /** Buffered-writeback throttling (null: off). */
  wbt: WritebackThrottle | null = null
  protected readonly shared: boolean
  private readonly allocated = [0, 0]
  private readonly waiters = [new WaitList(), new WaitList()]
  private readonly rqPool: Request[] = []
  private readonly bioPool: Bio[] = []
  private nextId = 1
  /** A submitter's requests are going in under its plug (BlockQueue.plug): their queue run waits for it. */
  protected plugged = false

  constructor(
    readonly engine: Engine,
    readonly params: BlockParams,
  ) {
    this.shared = params.layer === 'mq'
  }

  abstract onEvent(kind: number, data: unknown): void

  /**
   * Put a request made for `bio` into the scheduler at `now` (it holds a slot) and run the queue —
   * `underPlug`: the submitter's run, after its plug (BlockQueue.plug).
   */
  protected abstract insertNew(bio: Bio, now: SimTime, underPlug?: boolean): void

  /** A bio from the pool, filled in; pass it to `submit`. */
  makeBio(
    sector: number,
    nsect: number,
    op: Op,
    sync: boolean,
    ctx: IoContext,
    owner: BioOwner,
    ref: unknown,
    tag: number,
    pages = false,
  ): Bio {
    const b = this.bioPool.pop() ?? new Bio()
    b.sector = sector
    b.nsect = nsect
    b.op = op
    b.sync = sync
    b.ctx = ctx
    b.owner = owner
    b.ref = ref
    b.tag = tag
    b.next = null
    b.pages = pages
    b.wbt = false
    return b
  }

  /** A slot for a bio that did not merge: true if it was queued, else it waits for one. */
  protected allocate(bio: Bio, waiter: SlotWaiter | null): boolean {
    const d = this.shared ? 0 : bio.op
    // Waiters left after a release are those their depth limit holds back, so a bio that its own
    // limit admits may pass them (a sync read past async writes under kyber or BFQ).
    if (this.allocated[d] >= this.limitFor(bio)) {
      if (!waiter) throw new Error('no free request slot and no waiter to resume')
      this.waiters[d].push(bio, waiter)
      return false
    }
    this.allocated[d]++
    this.insertNew(bio, this.engine.now, this.plugged)
    return true
  }

  /** Slots a bio of its kind may hold: nr_requests, or less where the scheduler limits the depth. */
  private limitFor(bio: Bio): number {
    const nr = this.params.nrRequests
    const l = this.sched.limitDepth?.(bio.op, bio.sync)
    return l === undefined || l >= nr ? nr : Math.max(1, l)
  }

  /** Requests made so far (bios that did not merge into a queued request). */
  get requestsMade(): number {
    return this.nextId - 1
  }

  /** Free request slots for a direction (for schedulers and tests). */
  freeSlots(op: Op): number {
    return this.params.nrRequests - this.allocated[this.shared ? 0 : op]
  }

  waiting(op: Op): number {
    return this.waiters[this.shared ? 0 : op].size
  }

  /** A request from the pool for `bio`, inserted at `insertedAt`: fields reset, queued state. */
  protected newRequest(bio: Bio, insertedAt: SimTime): Request {
    return (this.rqPool.pop() ?? new Request()).fill(this.nextId++, bio, insertedAt)
  }

  /** A request done with (completed, or a flush-sequence one), without a slot: back to the pool. */
  protected recycle(rq: Request): void {
    rq.state = RQ_FREE
    rq.bioHead = rq.bioTail = null
    this.rqPool.push(rq)
  }

  /** A completed request's bios: each told its owner, then back to the pool. */
  protected biosDone(rq: Request, now: SimTime): void {
    let b = rq.bioHead
    while (b !== null) {
      const next = b.next
      b.owner?.bioDone(b, now)
      b.owner = null
      b.ref = null
      b.next = null
      this.bioPool.push(b)
      b = next
    }
  }

  /** Return a request to the pool; hand its slot to the first waiter of its direction. */
  protected release(rq: Request): void {
    const d = this.shared ? 0 : rq.op
    if (rq.wbt) {
      rq.wbt = false
      this.wbt!.done(this.engine.now)
    }
    rq.sched = null
    this.recycle(rq)
    this.allocated[d]--
    // Hand the slot to the first waiter its depth limit admits (in arrival order).
    const w = this.waiters[d]
    for (let i = 0; i < w.size; i++) {
      const bio = w.bioAt(i)
      if (this.allocated[d] >= this.limitFor(bio)) continue
      const waiter = w.waiterAt(i)
      w.removeAt(i)
      this.allocated[d]++
      this.insertNew(bio, this.engine.now)
      this.engine.at(this.engine.now, this, EV_RESUME, waiter)
      break
    }
  }
}
