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
  private items: Request[] = []

  get size(): number {
    return this.items.length
  }

  get first(): Request | undefined {
    return this.items[0]
  }

  at(i: number): Request {
    return this.items[i]
  }

  /** Index of the first request that sorts at or after (sector, id). */
  lowerBound(sector: number, id = -1): number {
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

  insert(rq: Request): void {
    const a = this.items
    const i = this.lowerBound(rq.sector, rq.id)
    let j = a.length
    if (j - i > LOOP_MOVE) return void a.splice(i, 0, rq)
    a.push(rq)
    for (; j > i; j--) a[j] = a[j - 1]
    a[i] = rq
  }

  /** Remove `rq`, found by its sector (or by `atSector`, where it was indexed before it moved). */
  remove(rq: Request, atSector = rq.sector): void {
    let i = this.lowerBound(atSector, rq.id)
    // A request whose sector already moved (front merge) may not be found by its old key when
    // its new key crossed a neighbour's: fall back to a scan, which is rare.
    if (this.items[i] !== rq) i = this.items.indexOf(rq)
    if (i < 0) throw new Error(`request ${rq.id} at sector ${atSector} is not in this index`)
    this.removeAt(i)
  }

  /** Remove the request at place `i` (from `indexOf`, when the caller needed the place anyway). */
  removeAt(i: number): void {
    const a = this.items
    const last = a.length - 1
    if (last - i > LOOP_MOVE) return void a.splice(i, 1)
    for (; i < last; i++) a[i] = a[i + 1]
    a.pop()
  }

  /** The first request that starts at or after `sector` (mq-deadline's deadline_from_pos), or null. */
  fromPos(sector: number): Request | null {
    return this.items[this.lowerBound(sector)] ?? null
  }

  indexOf(rq: Request): number {
    const i = this.lowerBound(rq.sector, rq.id)
    return this.items[i] === rq ? i : -1
  }

  /** The request after `rq` in sector order (the kernel's rb_next), or null. */
  next(rq: Request): Request | null {
    const i = this.indexOf(rq)
    return i >= 0 && i + 1 < this.items.length ? this.items[i + 1] : null
  }

  /** The first request starting at or after `sector`, or null. */
  ceiling(sector: number): Request | null {
    const i = this.lowerBound(sector)
    return i < this.items.length ? this.items[i] : null
  }

  /** The last request starting before `sector`, or null. */
  floor(sector: number): Request | null {
    const i = this.lowerBound(sector) - 1
    return i >= 0 ? this.items[i] : null
  }
}
