import type { Request } from './types'

/**
 * Requests sorted by start sector (ties by id): the kernel's sort_list rb-tree. A sorted array
 * with binary search — queues are bounded by nr_requests, so an insert moves a few hundred
 * pointers at most, which beats a balanced tree's constant factors at these sizes. The pointers
 * are moved by a loop, not `splice`: a runtime call costs more than moving the few dozen a
 * scheduler queue usually holds (8 % of cfq's profile at QD32 was in splice); a longer move
 * still goes to splice's memmove.
 */
/** Moves of up to this many pointers are a loop; longer ones splice. */
const LOOP_MOVE = 128

export class SectorIndex {
  /**
   * The requests held: a lone one in `solo`, with `items` empty; two or more in `items`. A lone
   * request is the common case of a per-process queue (a thousand synchronous readers queue one
   * request each), and there an insert and a removal touch only this object, where the array and
   * its store were two more cold cache lines each time.
   */
  private count = 0
  private solo: Request | null = null
  private items: Request[] = []

  get size(): number {
    return this.count
  }

  get first(): Request | undefined {
    return this.count === 1 ? this.solo! : this.items[0]
  }

  at(i: number): Request {
    return this.count === 1 && i === 0 ? this.solo! : this.items[i]
  }

  /** Index of the first request that sorts at or after (sector, id). */
  lowerBound(sector: number, id = -1): number {
    if (this.count < 2) {
      const s = this.solo
      return s !== null && (s.sector < sector || (s.sector === sector && s.id < id)) ? 1 : 0
    }
    return this.search(sector, id)
  }

  /** lowerBound in `items` (two or more requests). */
  private search(sector: number, id: number): number {
    const a = this.items
    let lo = 0
    let hi = a.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      const m = a[mid]
      if (m.sector < sector || (m.sector === sector && m.id < id)) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** Insert `rq`; returns its place (the requests from there on moved up one). */
  insert(rq: Request): number {
    if (this.count === 0) {
      this.solo = rq
      this.count = 1
      return 0
    }
    const a = this.items
    if (this.count === 1) {
      a.push(this.solo!)
      this.solo = null
    }
    this.count++
    const i = this.search(rq.sector, rq.id)
    let j = a.length
    if (j - i > LOOP_MOVE) {
      a.splice(i, 0, rq)
      return i
    }
    a.push(rq)
    for (; j > i; j--) a[j] = a[j - 1]
    a[i] = rq
    return i
  }

  /** Remove `rq`, found by its sector (or by `atSector`, where it was indexed before it moved). */
  remove(rq: Request, atSector = rq.sector): void {
    if (this.count < 2 && this.solo === rq) return this.removeAt(0)
    let i = this.count < 2 ? -1 : this.search(atSector, rq.id)
    // A request whose sector already moved (front merge) may not be found by its old key when
    // its new key crossed a neighbour's: fall back to a scan, which is rare.
    if (this.items[i] !== rq) i = this.items.indexOf(rq)
    if (i < 0) throw new Error(`request ${rq.id} at sector ${atSector} is not in this index`)
    this.removeAt(i)
  }

  /** Remove the request at place `i` (from `indexOf`, when the caller needed the place anyway). */
  removeAt(i: number): void {
    if (this.count < 2) {
      this.solo = null
      this.count = 0
      return
    }
    const a = this.items
    const last = a.length - 1
    if (last - i > LOOP_MOVE) a.splice(i, 1)
    else {
      for (; i < last; i++) a[i] = a[i + 1]
      a.pop()
    }
    if (--this.count === 1) this.solo = a.pop()!
  }

  /** The first request that starts at or after `sector` (mq-deadline's deadline_from_pos), or null. */
  fromPos(sector: number): Request | null {
    return this.at(this.lowerBound(sector)) ?? null
  }

  indexOf(rq: Request): number {
    const i = this.lowerBound(rq.sector, rq.id)
    return this.at(i) === rq ? i : -1
  }

  /** The request after `rq` in sector order (the kernel's rb_next), or null. */
  next(rq: Request): Request | null {
    const i = this.indexOf(rq)
    return i >= 0 && i + 1 < this.count ? this.at(i + 1) : null
  }

  /** The first request starting at or after `sector`, or null. */
  ceiling(sector: number): Request | null {
    const i = this.lowerBound(sector)
    return i < this.count ? this.at(i) : null
  }

  /** The last request starting before `sector`, or null. */
  floor(sector: number): Request | null {
    const i = this.lowerBound(sector) - 1
    return i >= 0 ? this.at(i) : null
  }
}
