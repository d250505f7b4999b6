import { IOPRIO_BE, IOPRIO_IDLE, IOPRIO_NONE, IOPRIO_RT } from '../../block/types'
import type { IoContext, Request } from '../../block/types'
import type { SimTime } from '../../sim/time'
import type { CfqIoContext } from './io-context'
import { SortedQueue } from './sorted-queue'

/** The class a context is served in: no class set means best effort (at the level nice gives). */
export function effectiveClass(c: IoContext): number {
  return c.ioClass === IOPRIO_NONE ? IOPRIO_BE : c.ioClass
}

/** The level 0 (highest) … 7 a context is served at; the idle class has only level 7. */
export function effectiveLevel(c: IoContext): number {
  if (c.ioClass === IOPRIO_IDLE) return 7
  return Math.min(7, Math.max(0, c.ioLevel | 0))
}

/** Where the shared async queue of a (class, level) lives: RT 0–7, BE 8–15, IDLE 16. */
export function asyncSlot(c: IoContext): number {
  const cls = effectiveClass(c)
  if (cls === IOPRIO_IDLE) return 16
  return (cls === IOPRIO_RT ? 0 : 8) + effectiveLevel(c)
}

/**
 * cfq_queue (v3): one process's sync requests, or the async requests of everyone at one
 * (class, level). Each request sits in two indexes on purpose — the sector-sorted list inherited
 * from SortedQueue (next_rq, chosen AS-style) and a FIFO carrying its expiry time — as in deadline.
 * The rest is the time-slice state the dispatcher reads.
 *
 * The FIFO's ends are fields of the queue (as block/fifo.ts RequestFifo keeps them, through the
 * requests' `fifoPrev`/`fifoNext`), not an object of their own: one cold line fewer a request when
 * a thousand processes' queues take turns.
 */
export class CfqQueue extends SortedQueue {
  /** The oldest request (the FIFO's head), and the newest. */
  fifoHead: Request | null = null
  private fifoTail: Request | null = null
  /** Requests handed to the device and not yet completed. */
  dispatched = 0
  /** On the service tree (it has queued requests): the kernel's on_rr flag. */
  onRr = false
  /** Service-tree key: the time it should next be served (-Infinity: preempting, go first). */
  rbKey: SimTime = 0
  /** Service-tree order beside the key: its class rank and arrival when it was inserted. */
  rbRank = 1
  rbSeq = 0
  /** Its place in the service tree's heap, −1 while off the tree (IndexedHeap). */
  heapIndex = -1
  /** Slice end; meaningful only once `sliceNew` is false (the slice starts at the first completion). */
  sliceEnd: SimTime = 0
  sliceNew = false
  /** What was left of its slice when it was preempted or timed out; added to its next key. */
  sliceResid: SimTime = 0
  /** Requests dispatched in the current slice (for the async cap). */
  sliceDispatch = 0
  /** The FIFO was already looked at in this slice. */
  fifoChecked = false
  /** Idling for its next request (the idle timer is or was armed in this slice). */
  waitRequest = false
  /** Idling is worth it for this process (think time and seeks permitting). */
  idleWindow: boolean

  constructor(
    readonly sync: boolean,
    public ioClass: number,
    public prio: number,
    /** The process of a sync queue; null for a shared async queue (a context sets itself: its own sync queue). */
    public cic: CfqIoContext | null,
  ) {
    super()
    this.idleWindow = sync && ioClass !== IOPRIO_IDLE
  }

  /** Append `rq` to the FIFO. */
  fifoPush(rq: Request): void {
    rq.fifoNext = null
    rq.fifoPrev = this.fifoTail
    if (this.fifoTail) this.fifoTail.fifoNext = rq
    else this.fifoHead = rq
    this.fifoTail = rq
  }

  /** Take `rq` out of the FIFO. */
  fifoRemove(rq: Request): void {
    const p = rq.fifoPrev
    const n = rq.fifoNext
    if (p) p.fifoNext = n
    else this.fifoHead = n
    if (n) n.fifoPrev = p
    else this.fifoTail = p
    rq.fifoPrev = rq.fifoNext = null
  }

  /** Move `rq` to the FIFO place of `at` (the survivor of a merge takes the earlier place). */
  fifoReplace(at: Request, rq: Request): void {
    if (at === rq) return
    this.fifoRemove(rq)
    rq.fifoPrev = at.fifoPrev
    rq.fifoNext = at.fifoNext
    if (at.fifoPrev) at.fifoPrev.fifoNext = rq
    else this.fifoHead = rq
    if (at.fifoNext) at.fifoNext.fifoPrev = rq
    else this.fifoTail = rq
    at.fifoPrev = at.fifoNext = null
  }

  /** Order on the service tree: RT first, then BE, IDLE last. */
  get classRank(): number {
    return this.ioClass === IOPRIO_RT ? 0 : this.ioClass === IOPRIO_IDLE ? 2 : 1
  }
}
