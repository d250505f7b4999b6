import { Timer } from '../../sim/engine'
import type { Engine, Handler } from '../../sim/engine'
import type { SimTime } from '../../sim/time'

/**
 * ROW's read-idling timer (an hrtimer in the kernel), made cheap to re-arm and cancel: ROW starts
 * one every time a busy read queue empties and cancels it when the next read comes, i.e. about
 * once per read. Cancelling only clears `until`; at most one engine event is pending, and when it
 * fires early (the window was moved on) it re-arms itself for the window's current end.
 */
export class IdleWindow implements Handler {
  /** End of the current idle window, or -1 when not idling. */
  until: SimTime = -1
  private readonly timer: Timer

  constructor(
    private readonly engine: Engine,
    private readonly expired: () => void,
  ) {
    this.timer = new Timer(engine, this, 0)
  }

  get active(): boolean {
    return this.until >= 0
  }

  /** (Re)start the window: idle until now + length. */
  start(now: SimTime, length: SimTime): void {
    this.until = now + length
    if (!this.timer.pending) this.timer.set(this.until)
  }

  stop(): void {
    this.until = -1
  }

  /** True (and the window closed) if it has run out by `now` without its event having fired yet. */
  runOut(now: SimTime): boolean {
    if (this.until < 0 || now < this.until) return false
    this.until = -1
    return true
  }

  onEvent(_kind: number): void {
    this.timer.fired()
    if (this.until < 0) return
    if (this.engine.now < this.until) this.timer.set(this.until)
    else {
      this.until = -1
      this.expired()
    }
  }
}
