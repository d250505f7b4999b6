import type { SimTime } from '../../sim/time'
import { RequestFifo } from '../../block/fifo'
import type { Bio, Request } from '../../block/types'
import type { IoScheduler } from '../scheduler'
import type { CfqConfig } from './tunables'
import { V1_MAX_TAG, V1_SERVICE_PERIOD } from './tunables'
import { HeadChooser } from './sorted-queue'
import { RrList, V1Queue } from './v1-queue'

/** `schedInt` of a request taken into the current dispatch round. */
const IN_ROUND = 1

/**
 * CFQ v1, the CFQ of 2003 before time slices, as in the 2.6.10–2.6.12 sources (the first
 * merge, 2.6.6, had the same per-process round robin without FIFOs, served each queue's lowest
 * sector, and had only `quantum` and `queued`). No idling, no priorities.
 *
 * Each process (by pid: the kernel keyed by tgid) has one queue holding all its requests; the
 * writeback of dirty pages is issued by the flusher thread and so lands in the flusher's queue.
 * When the dispatch list runs empty, a round is gathered: one request from each busy queue in
 * service order — the first pass skipping queues that still have requests at the device — and more
 * passes until at least `quantum` requests were taken. The driver then drains the round in order
 * (2.6.10's dispatch sort compares against the request's own end and so in effect appends).
 * A queue serves an expired FIFO head first (looked at no more than every fifo_batch_expire), else
 * its next request in AS order from the head position.
 */
export class CfqV1 implements IoScheduler {
  readonly frontMerges = true
  private readonly chooser: HeadChooser
  private readonly rr = new RrList()
  private readonly queues = new Map<number, V1Queue>()
  /** The dispatch list: the current round, in the order the driver takes it. */
  private readonly round = new RequestFifo()
  /** Requests held: in queues or in the round. */
  private queuedTotal = 0
  /** End sector of the request last taken into a round. */
  private lastSector = 0
  private inDriver = 0
  /** Seen queueing in the device: service is then counted in requests, not disk time. */
  private tagged = false

  constructor(private readonly cfg: CfqConfig) {
    this.chooser = new HeadChooser(cfg.backMaxSectors, cfg.backPenalty, false)
  }

  hasWork(): boolean {
    return this.queuedTotal > 0
  }

  insert(rq: Request, now: SimTime): void {
    const q = this.queueOf(rq.ctx.pid)
    rq.sched = q
    rq.schedInt = 0
    rq.fifoTime = now + this.cfg.v1FifoExpire[rq.sync ? 1 : 0]
    q.addSorted(rq, this.chooser, this.lastSector)
    this.queuedTotal++
    if (!q.onRr) this.addToRr(q, now)
    q.fifo[rq.sync ? 1 : 0].push(rq)
  }

  private queueOf(pid: number): V1Queue {
    let q = this.queues.get(pid)
    if (q === undefined) {
      q = new V1Queue(pid)
      this.queues.set(pid, q)
    }
    return q
  }

  /** cfq_add_cfqq_rr: a queue that was idle over a service period has its history decayed. */
  private addToRr(q: V1Queue, now: SimTime): void {
    if (q.serviceStart >= 0 && now > q.serviceStart + V1_SERVICE_PERIOD) q.service = Math.floor(q.service / 8)
    this.rr.add(q)
  }

  /** cfq_next_request: the head of the current round; gather a new round when it ran out. */
  dispatch(now: SimTime): Request | undefined {
    if (this.round.size === 0) {
      if (this.rr.size === 0) return undefined
      this.gatherRound(now)
    }
    const rq = this.round.shift()!
    rq.schedInt = 0
    this.queuedTotal--
    this.accountDispatch(rq.sched as V1Queue, now)
    return rq
  }

  /**
   * cfq_dispatch_requests: one request from each busy queue per pass, in service order; the
   * first pass skips queues with requests still at the device; passes repeat until `quantum`
   * requests were taken or every queue ran dry.
   */
  private gatherRound(now: SimTime): void {
    const list = this.rr.items
    let taken = 0
    let first = true
    for (;;) {
      let stillBusy = 0
      let i = 0
      while (i < list.length) {
        const q = list[i]
        if (first && q.inFlight > 0) {
          i++
          continue
        }
        this.takeInto(q, now)
        taken++
        if (q.queued > 0) {
          stillBusy++
          i++
        } // an emptied queue left the list: the next one slid into place i
      }
      if (taken >= this.cfg.quantum || (stillBusy === 0 && !first)) return
      first = false
    }
  }

  /** cfq_dispatch_request: an expired FIFO head, else the next request; into the round. */
  private takeInto(q: V1Queue, now: SimTime): void {
    const rq = this.expiredFifoHead(q, now) ?? q.nextRq!
    this.lastSector = rq.end
    q.fifo[rq.sync ? 1 : 0].remove(rq)
    this.unlinkSorted(q, rq)
    q.inFlight++
    rq.schedInt = IN_ROUND
    this.round.push(rq)
  }

  /** cfq_check_fifo: at most every fifo_batch_expire, the oldest sync request, else async, if expired. */
  private expiredFifoHead(q: V1Queue, now: SimTime): Request | null {
    if (now < q.lastFifoExpire + this.cfg.v1FifoBatch) return null
    for (let s = 1; s >= 0; s--) {
      const h = q.fifo[s].head
      if (h !== null && now > h.fifoTime) {
        q.lastFifoExpire = now
        return h
      }
    }
    return null
  }

  private unlinkSorted(q: V1Queue, rq: Request): void {
    q.removeSorted(rq, this.chooser, this.lastSector)
    if (q.queued === 0 && q.onRr) this.rr.remove(q)
  }

  /** cfq_account_dispatch: on a queueing device service is counted per request. */
  private accountDispatch(q: V1Queue, now: SimTime): void {
    if (q.serviceStart < 0) q.serviceStart = now
    if (this.tagged) {
      if (now > q.serviceStart + V1_SERVICE_PERIOD) {
        q.serviceStart = now
        q.service = Math.floor(q.service / 10)
      }
      q.service++
      this.rr.resort(q)
    }
    if (++this.inDriver >= V1_MAX_TAG) this.tagged = true
  }

  /** cfq_completed_request + cfq_account_completion: otherwise service is the disk time used. */
  completed(rq: Request, now: SimTime): void {
    const q = rq.sched as V1Queue
    q.inFlight--
    this.inDriver--
    if (this.tagged) return
    if (now > q.serviceStart + V1_SERVICE_PERIOD) {
      q.serviceStart = now
      q.service = Math.floor(q.service / 8)
    }
    q.service += now - rq.dispatchedAt
    this.rr.resort(q)
  }

  /**
   * 2.6.10 had no allow_merge hook: a bio back-merges into any process's request through the
   * global hash; front merges look only in the submitter's own queue. Requests already on the
   * dispatch list are no longer mergeable.
   */
  allowMerge(rq: Request, bio: Bio): boolean {
    if (rq.schedInt === IN_ROUND) return false
    if (bio.sector + bio.nsect === rq.sector) return (rq.sched as V1Queue).pid === bio.ctx.pid
    return !this.roundStartsAt(bio.sector) // `bio` may head a request of the round
  }

  private roundStartsAt(sector: number): boolean {
    for (let r = this.round.head; r !== null; r = r.fifoNext) if (r.sector === sector) return true
    return false
  }

  merged(rq: Request, front: boolean, _now: SimTime, oldSector: number): void {
    if (front) (rq.sched as V1Queue).reposition(rq, oldSector, this.chooser, this.lastSector)
  }

  mergedRequests(rq: Request, next: Request): void {
    const q = next.sched as V1Queue
    this.queuedTotal--
    if (next.schedInt === IN_ROUND) {
      // not expected (allowMerge refuses), but keep the books right if it happens
      this.round.remove(next)
      q.inFlight--
      return
    }
    const f = q.fifo[next.sync ? 1 : 0]
    if (rq.sched === q && rq.sync === next.sync && next.fifoTime <= rq.fifoTime) f.replace(next, rq)
    else f.remove(next)
    this.unlinkSorted(q, next)
  }

  /** The process is gone: an empty queue is dropped (a busy one drains first). */
  contextExited(pid: number, _now: SimTime): void {
    const q = this.queues.get(pid)
    if (q !== undefined && q.queued === 0 && q.inFlight === 0) this.queues.delete(pid)
  }
}
