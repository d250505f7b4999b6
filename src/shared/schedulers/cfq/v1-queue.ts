import { RequestFifo } from '../../block/fifo'
import type { SimTime } from '../../sim/time'
import { SortedQueue } from './sorted-queue'

/**
 * A v1 per-process queue (2.6.10–2.6.12 cfq_queue): all of one process's requests, reads and
 * writes, sync and async, in one sector-sorted list (inherited) plus two FIFOs, sync and async,
 * with their expiry times. `service` is the disk time it has used lately; the round-robin list is
 * kept in order of it, least served first.
 */
export class V1Queue extends SortedQueue {
  /** Indexed by sync: [async, sync]. */
  readonly fifo = [new RequestFifo(), new RequestFifo()]
  /** Requests taken from it into a dispatch round and not yet completed. */
  inFlight = 0
  /** Disk time used (ns; request counts once the device is seen queueing), decayed each second. */
  service = 0
  /** When the current service period started, or -1 before the first dispatch. */
  serviceStart: SimTime = -1
  /** Last time a FIFO yielded an expired request (the FIFOs are looked at at most every fifo_batch_expire). */
  lastFifoExpire: SimTime = -Infinity
  /** On the round-robin list (it has queued requests). */
  onRr = false

  constructor(readonly pid: number) {
    super()
  }
}

/**
 * The round-robin list of busy v1 queues, least service first; among equals, fewer requests in
 * flight first, then first come. (2.6.10 walks a list; among equal service the re-sorted queue
 * lands roughly in front of its equals — here it goes behind them, which keeps the rotation a
 * plain round robin when every request costs the same.)
 */
export class RrList {
  readonly items: V1Queue[] = []

  get size(): number {
    return this.items.length
  }

  add(q: V1Queue): void {
    const a = this.items
    let i = a.length
    while (i > 0 && RrList.before(q, a[i - 1])) i--
    a.splice(i, 0, q)
    q.onRr = true
  }

  remove(q: V1Queue): void {
    const i = this.items.indexOf(q)
    if (i < 0) throw new Error('cfq v1: queue is not on the round-robin list')
    this.items.splice(i, 1)
    q.onRr = false
  }

  /** cfq_sort_rr_list: move `q` to its place if its service changed past a neighbour's. */
  resort(q: V1Queue): void {
    if (!q.onRr) return
    const a = this.items
    const i = a.indexOf(q)
    const outOfOrder =
      (i > 0 && RrList.before(q, a[i - 1])) || (i + 1 < a.length && RrList.before(a[i + 1], q))
    if (!outOfOrder) return
    this.remove(q)
    this.add(q)
  }

  private static before(x: V1Queue, y: V1Queue): boolean {
    return x.service < y.service || (x.service === y.service && x.inFlight < y.inFlight)
  }
}
