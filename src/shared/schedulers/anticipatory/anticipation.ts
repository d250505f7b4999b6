import { Timer } from '../../sim/engine'
import type { Handler } from '../../sim/engine'
import type { SimTime } from '../../sim/time'
import type { Request } from '../../block/types'
import type { SchedulerContext } from '../scheduler'
import type { AsIoContext, ProcessHistory } from './io-context'
import type { Jiffies } from './tunables'

/** Not anticipating (normal operation). */
export const ANTIC_OFF = 0
/** Anticipating, but the last read of the expected process has not completed yet. */
export const ANTIC_WAIT_REQ = 1
/** Its last read completed; waiting for its next request, at most until antic_start + antic_expire. */
export const ANTIC_WAIT_NEXT = 2
/** A candidate was found or the wait timed out: serve the next request, do not wait again. */
export const ANTIC_FINISHED = 3
export type AnticStatus = 0 | 1 | 2 | 3

/** "Close" starts at 8192 sectors (4 MiB) ahead, half that behind, and doubles with every ms waited. */
const CLOSE_SECTORS = 8192

/**
 * The anticipation state machine of AS: OFF → WAIT_REQ → WAIT_NEXT → FINISHED, and back to OFF when
 * a request is dispatched. The process it waits for is the one whose sync request was dispatched
 * last (`ad->io_context`); the timer starts when that request completes.
 */
export class Anticipation implements Handler {
  status: AnticStatus = ANTIC_OFF
  /** The process AS may wait for: the one whose sync request was dispatched last; null after a write. */
  ioc: AsIoContext | null = null
  /** That request has completed (ioc_finished). */
  iocFinished = false
  /** jiffies: when it completed (antic_start). */
  start = 0
  private readonly timer: Timer

  constructor(
    private readonly ctx: SchedulerContext,
    private readonly clock: Jiffies,
    /** antic_expire, jiffies. */
    readonly expire: number,
    private readonly hist: ProcessHistory,
  ) {
    this.timer = new Timer(ctx.engine, this, 0)
  }

  get waiting(): boolean {
    return this.status === ANTIC_WAIT_REQ || this.status === ANTIC_WAIT_NEXT
  }

  /** When the wait times out (valid in WAIT_NEXT). */
  get deadline(): SimTime {
    return this.timer.when
  }

  /** as_antic_expired: antic_expire has passed since the awaited request completed. */
  expired(j: number): boolean {
    return j - this.start >= this.expire
  }

  /** as_can_anticipate: should the disk rather wait for the expected process than serve `rq`? */
  canAnticipate(rq: Request | null, j: number, last: number): boolean {
    if (this.ioc === null) return false // the last request dispatched was a write
    if (this.status === ANTIC_FINISHED) return false // just finished waiting: serve something
    return !this.canBreak(rq, j, last)
  }

  /**
   * as_can_break_anticipation: stop waiting (or do not start) and serve `rq` — or, rq null,
   * whatever comes next. `last` is the head position of the current batch.
   */
  canBreak(rq: Request | null, j: number, last: number): boolean {
    const aic = this.ioc!
    if (rq !== null && rq.sched === aic) return true // the request we were waiting for
    if (this.iocFinished && this.expired(j)) return true // timed out; the timer has not run yet
    if (aic.nrQueued > 0 || aic.nrDispatched > 0) return true // it has other I/O queued: no wait
    if (rq !== null && rq.sync && this.closeRequest(aic, rq, j, last)) {
      // A close request of another process: serve it, and count it in the history of the one we
      // waited for (cooperating processes working in the same area).
      if (!aic.running) {
        if (aic.ttimeSamples === 0) this.hist.exitSeen()
        this.hist.cooperation(true)
      }
      this.hist.update(aic, rq, j)
      return true
    }
    if (!aic.running) {
      // it exited: wait only while exited processes have tended to be followed by cooperating I/O
      if (aic.ttimeSamples === 0) this.hist.exitSeen()
      if (this.hist.exitNoCoop > 128) return true
    }
    if (aic.ttimeSamples === 0) {
      // no history: judge by the processes seen before
      return this.hist.newTtimeMean > this.expire || this.hist.exitProb * this.hist.exitNoCoop > 128 * 256
    }
    return aic.ttimeMean > this.expire // it thinks too long between requests
  }

  /**
   * as_close_req: is `rq` close to the head, or nearer than the expected process usually seeks?
   * The window grows (doubling per ms) the longer AS has waited; after 20 ms, or after antic_expire,
   * anything counts as close. (The kernel compares the milliseconds waited with antic_expire in
   * jiffies; kept as it is — the same at HZ=1000.)
   */
  private closeRequest(aic: AsIoContext, rq: Request, j: number, last: number): boolean {
    const delay = this.status === ANTIC_OFF || !this.iocFinished ? 0 : this.clock.toMs(j - this.start)
    let delta: number
    if (delay === 0) delta = CLOSE_SECTORS
    else if (delay <= 20 && delay <= this.expire) delta = CLOSE_SECTORS * 2 ** delay
    else return true
    const next = rq.sector
    if (last <= next + delta / 2 && next <= last + delta) return true
    const s = Math.abs(next - last)
    return (aic.seekSamples === 0 ? this.hist.newSeekMean : aic.seekMean) > s
  }

  /** as_antic_waitreq: start anticipating; the clock starts only once the awaited request is done. */
  waitReq(): void {
    if (this.status !== ANTIC_OFF) return
    if (this.ioc === null || this.iocFinished) this.waitNext()
    else this.status = ANTIC_WAIT_REQ
  }

  /** as_antic_waitnext: the awaited request is done; wait until antic_start + antic_expire. */
  private waitNext(): void {
    this.timer.set(this.clock.start(this.start + this.expire))
    this.status = ANTIC_WAIT_NEXT
  }

  /** as_antic_stop: a good request arrived; stop waiting and have the queue run. */
  stop(): void {
    if (!this.waiting) return
    if (this.status === ANTIC_WAIT_NEXT) this.timer.clear()
    this.status = ANTIC_FINISHED
    this.ctx.kick()
  }

  /** as_antic_timeout: nothing good came in time. Learn how often waited-for processes had exited. */
  onEvent(): void {
    this.timer.fired()
    if (!this.waiting) return
    this.status = ANTIC_FINISHED
    const aic = this.ioc!
    if (aic.ttimeSamples === 0) this.hist.exitSeen() // it exited (or timed out) with no history
    if (!aic.running) this.hist.cooperation(false) // an exited process not saved by a close request
    this.ctx.kick()
  }

  /** A request of `aic` completed (as_completed_request): if it is the awaited process, start the clock. */
  completed(aic: AsIoContext, j: number): void {
    if (this.ioc !== aic) return
    this.start = j
    this.iocFinished = true
    if (this.status === ANTIC_WAIT_REQ) this.waitNext()
  }

  /** A request is dispatched (as_move_to_dispatch): waiting ends; a sync one names who to wait for next. */
  dispatched(syncOwner: AsIoContext | null): void {
    this.stop()
    this.status = ANTIC_OFF
    this.ioc = syncOwner
    this.iocFinished = false
  }
}
