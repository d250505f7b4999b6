import { SectorIndex } from '../../block/sector-index'
import type { Request } from '../../block/types'

/**
 * cfq_choose_req, lifted by CFQ from AS: of two requests, the one nearer the head, looking ahead.
 * A request behind the head within `backMax` sectors costs `penalty`× its distance; further behind
 * it "wraps" and loses to any request that does not. v3 also prefers sync to async (within one
 * cfq_queue they never mix, so this matters only to v1, where it is off as in 2.6.10).
 */
export class HeadChooser {
  constructor(
    private readonly backMax: number,
    private readonly penalty: number,
    private readonly preferSync: boolean,
  ) {}

  choose(a: Request | null, b: Request | null, last: number): Request | null {
    if (a === null || a === b) return b
    if (b === null) return a
    if (this.preferSync && a.sync !== b.sync) return a.sync ? a : b
    const da = this.distance(a.sector, last)
    const db = this.distance(b.sector, last)
    if (da >= 0 && db >= 0) {
      if (da !== db) return da < db ? a : b
      return a.sector >= b.sector ? a : b
    }
    if (da < 0 && db < 0) return a.sector <= b.sector ? a : b // both wrap: the one further behind
    return da >= 0 ? a : b
  }

  /** Cost of going from `last` to `sector`, or -1 when it wraps (too far behind). */
  private distance(sector: number, last: number): number {
    if (sector >= last) return sector - last
    if (sector + this.backMax >= last) return (last - sector) * this.penalty
    return -1
  }

  /**
   * cfq_find_next_rq: the better of `rq`'s sector successor (wrapping round to the first request)
   * and its predecessor — the next_rq to use once `rq` leaves; `i`: `rq`'s place in `sorted`
   * (−1: not found by its sector).
   */
  nextAt(sorted: SectorIndex, i: number, last: number): Request | null {
    const n = sorted.size
    let next: Request | null = null
    if (i + 1 < n) next = sorted.at(i + 1)
    else if (n > 1 && i !== 0) next = sorted.at(0)
    const prev = i > 0 ? sorted.at(i - 1) : null
    return this.choose(next, prev, last)
  }
}

/**
 * What both generations' per-process queues share: the sector-sorted requests (the kernel's
 * sort_list rb-tree) and `nextRq`, the request to serve next unless a FIFO has expired.
 */
export class SortedQueue {
  readonly sorted = new SectorIndex()
  nextRq: Request | null = null
  /** Requests in `sorted`. */
  queued = 0

  /** cfq_add_rq_rb: index `rq` and see whether it is a better next request. */
  addSorted(rq: Request, chooser: HeadChooser, last: number): void {
    this.sorted.insert(rq)
    this.queued++
    this.nextRq = chooser.choose(this.nextRq, rq, last)
  }

  /** cfq_del_rq_rb: unindex `rq`, choosing a new next request first if it was the next one. */
  removeSorted(rq: Request, chooser: HeadChooser, last: number): void {
    // one search for both the next request and the removal (each was a search of its own)
    const i = this.sorted.indexOf(rq)
    if (this.nextRq === rq) this.nextRq = chooser.nextAt(this.sorted, i, last)
    if (i >= 0) this.sorted.removeAt(i)
    else this.sorted.remove(rq)
    this.queued--
  }

  /** cfq_reposition_rq_rb: a front merge moved the start of `rq` down from `oldSector`. */
  reposition(rq: Request, oldSector: number, chooser: HeadChooser, last: number): void {
    this.sorted.remove(rq, oldSector)
    this.sorted.insert(rq)
    this.nextRq = chooser.choose(this.nextRq, rq, last)
  }
}
