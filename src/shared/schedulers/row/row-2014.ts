import type { SimTime } from '../../sim/time'
import { ms } from '../../sim/time'
import type { Request } from '../../block/types'
import { Idle } from '../scheduler'
import type { IoScheduler, SchedulerContext } from '../scheduler'
import { HIGH_READ, LOW_READ, QUEUES, REG_READ, RowQueue, queueFor } from './queues'
import type { RowConfig } from './tunables'
import { IdleWindow } from './idle-window'

const NO_QUEUE = -1

/**
 * Priority classes as ROW serves them (RT → HIGH, BE/none → REG, IDLE → LOW), as in RowQueue.cls.
 * Module-local on purpose: they are read on every dispatch, and an imported binding costs a getter
 * call when the sources run through a CommonJS transpiler (tsx, the CLI's loader).
 */
const CLASS_NONE = -1
const CLASS_HIGH = 0
const CLASS_REG = 1
const CLASS_LOW = 2
/** First queue id of each class, plus the end: class c is [CLASS_START[c], CLASS_START[c + 1]). */
const CLASS_START: readonly number[] = [HIGH_READ, REG_READ, LOW_READ, QUEUES]

/**
 * ROW, the 2014 design (CodeAurora block/row-iosched.c, msm-3.4 to 3.18). Seven FIFO queues in
 * three classes (HIGH = RT, REG = BE, LOW = IDLE); reads get larger quanta than writes. Dispatch:
 *  1. a pending urgent request first;
 *  2. the class: HIGH if it has requests (unless REG or LOW has starved past its limit); else,
 *     while a read queue's idle timer runs, nothing; else idle on an empty read queue whose
 *     requests have been arriving often; else REG (unless LOW has starved); else LOW;
 *  3. within the class, weighted round robin: the first queue in order with requests and quantum
 *     left; when none, a new cycle (counters reset, queues that did not use their quantum are
 *     marked unserved);
 *  4. that queue's FIFO head.
 * No sector sorting, no merging beyond the block layer's back merge.
 */
export class Row implements IoScheduler {
  readonly frontMerges = false
  private readonly q: RowQueue[] = []
  /** Queued requests per class, so "is a class pending" is O(1). */
  private readonly pending = [0, 0, 0]
  private queued = 0
  /** At most one urgent request waits, and none is marked while one is in flight. */
  private pendingUrgent: Request | null = null
  private urgentInFlight: Request | null = null
  private lastServed = CLASS_NONE
  private regStarved = 0
  private lowStarved = 0
  /** Bit per queue id: it did not use its quantum in the last cycle (cycle_flags). */
  private unserved = 0
  private readonly idleWindow: IdleWindow
  private idlingOn = NO_QUEUE
  private readonly idle = new Idle()
  private readonly idleTime: SimTime
  private readonly freq: SimTime

  constructor(
    private readonly cfg: RowConfig,
    private readonly ctx: SchedulerContext,
  ) {
    for (let id = 0; id < QUEUES; id++) this.q.push(new RowQueue(id, cfg.quantum[id]))
    this.idleWindow = new IdleWindow(ctx.engine, () => this.idleTimeout())
    this.idleTime = ms(cfg.idleMs)
    this.freq = ms(cfg.freqMs)
  }

  /** row_add_request: append to the queue's FIFO, note the read rate, maybe mark it urgent. */
  insert(rq: Request, now: SimTime): void {
    const q = this.q[queueFor(rq)]
    const wasEmpty = q.fifo.size === 0
    rq.sched = q
    q.fifo.push(rq)
    this.pending[q.cls]++
    this.queued++
    if (q.idling) {
      // the request we were idling for has come
      if (this.idlingOn === q.id) this.stopIdling()
      q.noteArrival(now, this.freq)
    }
    if (q.urgent && this.pendingUrgent === null && this.urgentInFlight === null && this.isUrgent(q, wasEmpty))
      this.pendingUrgent = rq
  }

  /**
   * Urgent: a HIGH request arriving at an empty queue while another class was being served, or
   * a request for a queue that went unserved in its last cycle.
   */
  private isUrgent(q: RowQueue, wasEmpty: boolean): boolean {
    if (q.cls === CLASS_HIGH && this.lastServed !== CLASS_HIGH && wasEmpty) return true
    return (this.unserved & (1 << q.id)) !== 0
  }

  hasWork(): boolean {
    return this.queued > 0
  }

  completed(rq: Request, _now: SimTime): void {
    if (rq === this.urgentInFlight) this.urgentInFlight = null
  }

  /** `next` leaves its FIFO; an urgent mark passes to the survivor (row_merged_requests). */
  mergedRequests(rq: Request, next: Request): void {
    const q = next.sched as RowQueue
    q.fifo.remove(next)
    this.pending[q.cls]--
    this.queued--
    if (this.pendingUrgent === next) this.pendingUrgent = rq
  }

  dispatch(now: SimTime): Request | Idle | undefined {
    if (this.idleWindow.runOut(now)) this.idleExpired()
    // 1. An urgent request goes first, whatever class is due.
    if (this.pendingUrgent !== null) return this.take(this.pendingUrgent)
    // 2. The class to serve; none while idling for a read (or with nothing queued).
    const cls = this.classToServe(now)
    if (cls === CLASS_NONE) {
      this.lastServed = CLASS_NONE
      if (this.queued === 0 || !this.idleWindow.active) return undefined
      this.idle.until = this.idleWindow.until
      return this.idle
    }
    // 3. Weighted round robin among the class's queues; 4. that queue's FIFO head.
    return this.take(this.q[this.nextQueue(cls)].fifo.head!)
  }

  /** row_get_ioprio_class_to_serve. */
  private classToServe(now: SimTime): number {
    if (this.queued === 0) return this.checkIdling(now)
    if (this.pending[CLASS_HIGH] > 0) {
      this.stopIdling()
      if (this.pending[CLASS_REG] > 0 && this.regStarved >= this.cfg.regStarvLimit) return CLASS_REG
      return this.lowStarvedOr(CLASS_HIGH)
    }
    if (this.idleWindow.active) return CLASS_NONE
    return this.checkIdling(now)
  }

  /**
   * No HIGH request: idle on an empty read queue whose requests came often (a HIGH one first,
   * then REG_READ, which precedes the REG writes); else the first REG queue with requests makes
   * REG the class; else LOW.
   */
  private checkIdling(now: SimTime): number {
    for (let id = CLASS_START[CLASS_HIGH]; id < CLASS_START[CLASS_REG]; id++)
      if (this.q[id].idling && this.q[id].beginIdling) return this.startIdling(id, now)
    for (let id = CLASS_START[CLASS_REG]; id < CLASS_START[CLASS_LOW]; id++) {
      const q = this.q[id]
      if (q.fifo.size > 0) return this.lowStarvedOr(CLASS_REG)
      if (q.idling && q.beginIdling) return this.startIdling(id, now)
    }
    return this.queued > 0 ? CLASS_LOW : CLASS_NONE
  }

  private lowStarvedOr(cls: number): number {
    return this.pending[CLASS_LOW] > 0 && this.lowStarved >= this.cfg.lowStarvLimit ? CLASS_LOW : cls
  }

  /** Leave the device idle for rd_idle_data, waiting for queue `id`'s next read (re-arms). */
  private startIdling(id: number, now: SimTime): number {
    this.idleWindow.start(now, this.idleTime)
    this.idlingOn = id
    return CLASS_NONE
  }

  private stopIdling(): void {
    this.idleWindow.stop()
    this.idlingOn = NO_QUEUE
  }

  /** The idle time ran out: that queue's reader did not come back in time; serve the others. */
  private idleExpired(): void {
    if (this.idlingOn !== NO_QUEUE) this.q[this.idlingOn].beginIdling = false
    this.idlingOn = NO_QUEUE
  }

  private idleTimeout(): void {
    this.idleExpired()
    if (this.queued > 0) this.ctx.kick()
  }

  /** row_get_next_queue: first queue in class order with requests and quantum left. */
  private nextQueue(cls: number): number {
    const start = CLASS_START[cls]
    const end = CLASS_START[cls + 1]
    for (let pass = 0; pass < 2; pass++) {
      for (let id = start; id < end; id++) {
        const q = this.q[id]
        if (q.fifo.size > 0 && q.dispatched < q.quantum) return id
      }
      this.restartCycle(start, end)
    }
    throw new Error(`ROW: class ${cls} chosen with no request queued`)
  }

  /** row_restart_cycle: queues that did not use their quantum are marked unserved. */
  private restartCycle(start: number, end: number): void {
    for (let id = start; id < end; id++) {
      const q = this.q[id]
      if (q.dispatched < q.quantum) this.unserved |= 1 << id
      q.dispatched = 0
    }
  }

  /** row_dispatch_insert: take `rq` out, count it in its cycle and in the starvation counters. */
  private take(rq: Request): Request {
    const q = rq.sched as RowQueue
    q.fifo.remove(rq)
    this.pending[q.cls]--
    this.queued--
    if (rq === this.pendingUrgent) {
      this.pendingUrgent = null
      this.urgentInFlight = rq
    }
    q.dispatched++
    this.unserved &= ~(1 << q.id)
    this.countStarvation(q.cls)
    return rq
  }

  /** Serving HIGH starves pending REG and LOW; serving REG resets REG and starves LOW. */
  private countStarvation(cls: number): void {
    this.lastServed = cls
    if (cls === CLASS_HIGH) {
      if (this.pending[CLASS_REG] > 0) this.regStarved++
      if (this.pending[CLASS_LOW] > 0) this.lowStarved++
    } else if (cls === CLASS_REG) {
      this.regStarved = 0
      if (this.pending[CLASS_LOW] > 0) this.lowStarved++
    } else {
      this.lowStarved = 0
    }
  }
}
