import type { Engine, EventTicket, Handler } from './engine'
import type { SimTime } from './time'

const NONE = -1

/**
 * A cancellable, re-armable timer bound to one handler and kind — what schedulers use for
 * anticipation and idling, and the block layer for "idle until t".
 */
export class Timer {
  private ticket: EventTicket = NONE
  private seq = -1
  private due: SimTime = -1

  constructor(
    private readonly engine: Engine,
    private readonly handler: Handler,
    private readonly kind: number,
  ) {}

  /** Arm (or re-arm) to fire at absolute time `at`. */
  set(at: SimTime): void {
    this.clear()
    const t = this.engine.at(Math.max(at, this.engine.now), this.handler, this.kind, this)
    this.ticket = t
    this.seq = this.engine.seqOf(t)
    this.due = at
  }

  clear(): void {
    if (this.ticket !== NONE) this.engine.cancel(this.ticket, this.seq)
    this.ticket = NONE
    this.seq = -1
    this.due = -1
  }

  /** Call from the handler when the timer fires, so `pending` reads false. */
  fired(): void {
    this.ticket = NONE
    this.seq = -1
    this.due = -1
  }

  get pending(): boolean {
    return this.ticket !== NONE
  }

  /** Absolute time it fires at, or -1. */
  get when(): SimTime {
    return this.due
  }
}
