import type { SimTime } from '../../sim/time'
import { jiffiesToNs, ms, msToJiffies } from '../../sim/time'
import type { Request } from '../../block/types'
import { Idle } from '../scheduler'
import type { IoScheduler, SchedulerContext } from '../scheduler'
import { ORDER_2012, RowQueue, queueFor2012 } from './queues'
import type { RowConfig } from './tunables'
import { IdleWindow } from './idle-window'

/**
 * ROW as first posted to linux-mmc (Aug–Dec 2012, v4): one weighted round robin over all seven
 * queues in the order HIGH_READ, REG_READ, HIGH_SWRITE, REG_SWRITE, REG_WRITE, LOW_READ,
 * LOW_SWRITE — no priority classes yet (every request goes to a REG queue), no starvation limits,
 * no urgent requests. Dispatch:
 *  1. a queue earlier in the order that was skipped while empty ("unserved") and now has
 *     requests preempts the current one;
 *  2. the current queue used its quantum: move to the next non-empty queue;
 *  3. the current queue is empty: idle on it if it is a read queue whose requests came often,
 *     else move to the next non-empty queue (skipped queues are marked unserved);
 *  4. the current queue's FIFO head.
 * The idle delay was in jiffies (msecs_to_jiffies, at least one).
 */
export class Row2012 implements IoScheduler {
  readonly frontMerges = false
  /** Queues by position in the 2012 order. */
  private readonly q: RowQueue[]
  /** Position of each queue id in the order. */
  private readonly pos: number[] = []
  private curr = 0
  private queued = 0
  /** Bit per position: skipped while empty, not served since. */
  private unserved = 0
  private readonly idleWindow: IdleWindow
  private readonly idle = new Idle()
  private readonly idleTime: SimTime
  private readonly freq: SimTime

  constructor(
    cfg: RowConfig,
    private readonly ctx: SchedulerContext,
  ) {
    this.q = ORDER_2012.map((id) => new RowQueue(id, cfg.quantum[id]))
    ORDER_2012.forEach((id, i) => (this.pos[id] = i))
    this.idleWindow = new IdleWindow(ctx.engine, () => this.idleTimeout())
    this.idleTime = jiffiesToNs(Math.max(1, msToJiffies(cfg.idleMs, ctx.hz)), ctx.hz)
    this.freq = ms(cfg.freqMs)
  }

  insert(rq: Request, now: SimTime): void {
    const q = this.q[this.pos[queueFor2012(rq)]]
    rq.sched = q
    q.fifo.push(rq)
    this.queued++
    if (q.idling) {
      // any read arrival ends the idling (the first version cancelled its delayed work)
      this.idleWindow.stop()
      q.noteArrival(now, this.freq)
    }
  }

  hasWork(): boolean {
    return this.queued > 0
  }

  completed(_rq: Request, _now: SimTime): void {}

  mergedRequests(_rq: Request, next: Request): void {
    ;(next.sched as RowQueue).fifo.remove(next)
    this.queued--
  }

  dispatch(now: SimTime): Request | Idle | undefined {
    if (this.idleWindow.runOut(now)) this.idleExpired()
    // 1. An unserved earlier queue that now has requests preempts.
    for (let i = 0; i < this.curr; i++) {
      if ((this.unserved & (1 << i)) !== 0 && this.q[i].fifo.size > 0) {
        this.curr = i
        return this.take()
      }
    }
    // 2. The current queue has used its quantum: on to the next one.
    const cur = this.q[this.curr]
    if (cur.dispatched >= cur.quantum) {
      cur.dispatched = 0
      return this.chooseQueue() ? this.take() : undefined
    }
    // 3. The current queue is empty: idle for its reader, or move on.
    if (cur.fifo.size === 0) {
      if (this.idleWindow.active) return this.waiting()
      if (cur.idling && cur.beginIdling) {
        this.idleWindow.start(now, this.idleTime)
        return this.waiting()
      }
      if (!this.chooseQueue()) return undefined
    }
    // 4. Its FIFO head.
    return this.take()
  }

  private waiting(): Idle | undefined {
    if (this.queued === 0) return undefined
    this.idle.until = this.idleWindow.until
    return this.idle
  }

  /** row_choose_queue: advance to the next non-empty queue, marking the empty ones unserved. */
  private chooseQueue(): boolean {
    if (this.queued === 0) return false
    const prev = this.curr
    this.advance()
    while (this.q[this.curr].fifo.size === 0 && this.curr !== prev) {
      this.unserved |= 1 << this.curr
      this.advance()
    }
    return true
  }

  /** Next position; past the last one a new cycle starts (every counter reset). */
  private advance(): void {
    if (++this.curr < this.q.length) return
    for (const q of this.q) q.dispatched = 0
    this.curr = 0
  }

  /** The idle delay expired: stop idling on the current queue and serve the others. */
  private idleExpired(): void {
    this.q[this.curr].beginIdling = false
  }

  private idleTimeout(): void {
    this.idleExpired()
    if (this.queued > 0) this.ctx.kick()
  }

  private take(): Request {
    const q = this.q[this.curr]
    const rq = q.fifo.shift()!
    this.queued--
    q.dispatched++
    this.unserved &= ~(1 << this.curr)
    return rq
  }
}
