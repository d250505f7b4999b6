import type { SimTime } from '../sim/time'
import { SectorIndex } from '../block/sector-index'
import type { Request } from '../block/types'
import type { IoScheduler } from './scheduler'

/** The era string of the textbook disk-arm policies (none was ever a Linux elevator). */
export const TEXTBOOK_ERA = 'textbook (Denning 1967; Teorey & Pinkerton 1972); never a Linux elevator'

/**
 * What the textbook disk-arm policies share: queued requests sorted by sector (a SectorIndex, for
 * O(log n) neighbour lookups) and the head position, taken as the end of the last dispatched
 * request. Only the block layer's back merge; no front merges, no FIFO, no priorities.
 */
export abstract class HeadScheduler implements IoScheduler {
  readonly frontMerges = false
  protected readonly sorted = new SectorIndex()
  /** Where the head is: the end sector of the last dispatched request (0 before the first). */
  protected head = 0

  insert(rq: Request, _now: SimTime): void {
    this.sorted.insert(rq)
  }

  hasWork(): boolean {
    return this.sorted.size > 0
  }

  completed(_rq: Request, _now: SimTime): void {}

  mergedRequests(_rq: Request, next: Request): void {
    this.sorted.remove(next)
  }

  dispatch(_now: SimTime): Request | undefined {
    if (this.sorted.size === 0) return undefined
    const rq = this.pick()
    this.sorted.remove(rq)
    this.head = rq.end
    return rq
  }

  /** The policy: which queued request the head goes to next (at least one is queued). */
  protected abstract pick(): Request
}

/**
 * The elevator family: keep moving the way the head is going, serving requests in sector order;
 * when nothing lies ahead, reverse. Ahead means starting at or past the head going up, starting
 * below it going down. SCAN and LOOK differ only in where they turn (`reverse`).
 */
export abstract class Elevator extends HeadScheduler {
  protected up = true

  protected pick(): Request {
    const ahead = this.ahead()
    if (ahead !== null) return ahead
    this.reverse()
    // nothing was ahead, so everything queued lies ahead in the new direction
    return this.ahead()!
  }

  private ahead(): Request | null {
    return this.up ? this.sorted.ceiling(this.head) : this.sorted.floor(this.head)
  }

  protected abstract reverse(): void
}
