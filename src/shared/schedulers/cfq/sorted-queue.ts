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
   * cfq_find_next_rq: the better of the successor of the request at place `i` (wrapping round to
   * the first request) and its predecessor — the next_rq to use once that request leaves; returns
   * its place in `sorted` (before the removal), or −1 when none is left.
   */
  nextAt(sorted: SectorIndex, i: number, last: number): number {
    const n = sorted.size
    let next = -1
    if (i + 1 < n) next = i + 1
    else if (n > 1 && i !== 0) next = 0
    const prev = i > 0 ? i - 1 : -1
    const chosen = this.choose(next < 0 ? null : sorted.at(next), prev < 0 ? null : sorted.at(prev), last)
    return chosen === null ? -1 : next >= 0 && chosen === sorted.at(next) ? next : prev
  }
}

/**
 * What both generations' per-process queues share: the sector-sorted requests (the kernel's
 * sort_list rb-tree) and `nextRq`, the request to serve next unless a FIFO has expired.
 *
 * The queue is its sector index (it extends SectorIndex), not an object holding one: with a
 * thousand processes' queues taking turns, each request's insert and dispatch reached the index
 * through a line of its own that was no longer in the CPU's caches.
 */
export class SortedQueue extends SectorIndex {
  nextRq: Request | null = null
  /**
   * `nextRq`'s place in the index, kept as requests come and go: the request a dispatch takes is
   * nearly always `nextRq`, and its place then needs no search (the kernel's rb-tree node gives its
   * neighbours at once).
   */
  private nextPlace = -1
  /** Requests in the index. */
  queued = 0

  /** cfq_add_rq_rb: index `rq` and see whether it is a better next request. */
  addSorted(rq: Request, chooser: HeadChooser, last: number): void {
    const i = this.insert(rq)
    this.queued++
    if (this.nextRq !== null && i <= this.nextPlace) this.nextPlace++
    const next = chooser.choose(this.nextRq, rq, last)
    if (next === rq) this.nextPlace = i
    this.nextRq = next
  }

  /** cfq_del_rq_rb: unindex `rq`, choosing a new next request first if it was the next one. */
  removeSorted(rq: Request, chooser: HeadChooser, last: number): void {
    // one search at most, for both the next request and the removal
    const i = rq === this.nextRq ? this.nextPlace : this.indexOf(rq)
    if (i < 0) {
      this.remove(rq) // not found by its sector: not `nextRq` either (see SectorIndex.remove)
      this.nextPlace = this.nextRq === null ? -1 : this.indexOf(this.nextRq)
    } else {
      if (rq === this.nextRq) {
        const j = chooser.nextAt(this, i, last)
        this.nextRq = j < 0 ? null : this.at(j)
        this.nextPlace = j > i ? j - 1 : j
      } else if (i < this.nextPlace) this.nextPlace--
      this.removeAt(i)
    }
    this.queued--
  }

  /** cfq_reposition_rq_rb: a front merge moved the start of `rq` down from `oldSector`. */
  reposition(rq: Request, oldSector: number, chooser: HeadChooser, last: number): void {
    this.remove(rq, oldSector)
    this.insert(rq)
    this.nextRq = chooser.choose(this.nextRq, rq, last)
    this.nextPlace = this.nextRq === null ? -1 : this.indexOf(this.nextRq)
  }
}
