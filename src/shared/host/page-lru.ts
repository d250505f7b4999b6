import type { Bio, IoContext } from '../block/types'
import { WRITE } from '../block/types'
import type { SimFile } from './files'
import { PG_ANY, PG_DIRTY, PG_LOCKED, PG_RECLAIM, PG_REFERENCED, PG_WRITEBACK, SCRATCH } from './page-flags'
import { PageRing } from './page-ring'
import type { PageCache } from './pagecache'
import type { ScanResult } from './reclaim'

/** Flags that keep a page from being freed by reclaimClean (with PG_REFERENCED: a second chance). */
const KEEP_CLEAN = PG_DIRTY | PG_LOCKED | PG_WRITEBACK | PG_REFERENCED

/**
 * The page cache's LRU (pagecache.ts) and reclaim's CLOCK over it: cached pages in insertion
 * order, kept as runs (page-ring.ts), at most `cap` pages — a page beyond is not tracked — and the
 * files its entries name, by id. Pages go on at the back as they are cached or get a second
 * chance; a page reclaim wrote goes back at the front when its write completes
 * (rotate_reclaimable_page); the entries of pages invalidated since stay, stale, until they fill
 * it (compact). Reclaim takes pages from the front (reclaimClean; scanTail, shrink_list), and
 * counts what it frees and pages out in the cache's totals.
 */
export class PageLru {
  readonly ring = new PageRing()
  /** Whether a page ever went on the LRU (before that, no page goes back on its tail). */
  private used = false
  /** The files, by id (SimFile.id). */
  readonly byId: SimFile[] = []

  constructor(
    /** Pages the ring may hold. */
    readonly cap: number,
    /** The cache whose pages these are: reclaim frees and pages out its pages, and counts them there. */
    private readonly cache: PageCache,
  ) {}

  register(f: SimFile): void {
    this.byId[f.id] = f
  }

  /** Evict up to `n` clean, unreferenced, unlocked pages (CLOCK); returns how many went. */
  reclaimClean(n: number): number {
    const c = this.cache
    const ring = this.ring
    let freed = 0
    let scanned = 0
    const limit = 2 * ring.count
    while (freed < n && ring.count > 0 && scanned < limit) {
      // the oldest run's first pages that are all in one case, as far as the counts allow
      const f = this.byId[ring.headFile]
      const p = ring.headStart
      const pf = f.pages!
      const s = pf.state(p)
      const end = p + Math.min(ring.headLen, limit - scanned)
      if (s === 0) {
        // dropped since (invalidated): stale entries
        const k = pf.runEnd(p, end, PG_ANY, false) - p
        ring.popFront(k)
        scanned += k
      } else if (s & KEEP_CLEAN) {
        const k = pf.runEnd(p, end, KEEP_CLEAN, true) - p
        ring.popFront(k)
        scanned += k
        pf.update(p, p + k, 0, PG_REFERENCED)
        this.push(f.id, p, k)
      } else {
        const k = pf.runEnd(p, Math.min(end, p + n - freed), PG_ANY, true, KEEP_CLEAN, false) - p
        ring.popFront(k)
        scanned += k
        pf.update(p, p + k, 0, PG_ANY)
        c.cached -= k
        freed += k
      }
    }
    c.reporting?.freed(freed)
    return freed
  }

  /**
   * Reclaim's scan of the LRU tail (shrink_list): up to `n` pages. Referenced pages get a second
   * chance; locked and writeback pages are passed over; clean ones are freed; dirty ones are paged
   * out one page at a time (->writepage, asynchronous, for `ctx`) if `write`, and leave the LRU
   * until their write completes.
   */
  scanTail(n: number, write: boolean, ctx: IoContext, out: Bio[], r: ScanResult): void {
    const c = this.cache
    const ring = this.ring
    // passed over (and their referenced bit cleared): locked, under writeback, referenced, and
    // dirty when not writing
    const keep = PG_LOCKED | PG_WRITEBACK | PG_REFERENCED | (write ? 0 : PG_DIRTY)
    let scanned = 0
    while (scanned < n && ring.count > 0) {
      const f = this.byId[ring.headFile]
      const p = ring.headStart
      const pf = f.pages!
      const s = pf.state(p)
      const end = p + Math.min(ring.headLen, n - scanned)
      if (s & keep) {
        const k = pf.runEnd(p, end, keep, true) - p
        ring.popFront(k)
        scanned += k
        pf.update(p, p + k, 0, PG_REFERENCED)
        this.push(f.id, p, k)
      } else if (s & PG_DIRTY) {
        const k = pf.runEnd(p, end, keep, false, PG_DIRTY, true) - p
        ring.popFront(k)
        scanned += k
        pf.update(p, p + k, PG_WRITEBACK | PG_RECLAIM, PG_DIRTY)
        c.dirty -= k
        c.writeback += k
        f.dirty -= k
        f.writeback += k
        if (f.dirty === 0) f.dirtiedWhen = -1
        for (let q = p; q < p + k; q++) c.buildBios(f, q, 1, WRITE, false, ctx, out)
        r.writes += k
      } else {
        // clean, or a stale entry (counted as freed, as the scan always has)
        const k = pf.runEnd(p, end, keep | PG_DIRTY, false) - p
        ring.popFront(k)
        scanned += k
        pf.update(p, p + k, 0, PG_ANY)
        c.cached -= k
        r.freed += k
        c.reporting?.freed(k)
      }
    }
    r.scanned += scanned
  }

  /** rotate_reclaimable_page: back on the LRU at its tail, the next page reclaim looks at. */
  pushTail(fileId: number, page: number): void {
    if (!this.used || this.ring.count >= this.cap) return
    this.ring.pushFront(fileId, page)
  }

  /**
   * Pages [page, page + n) of a file, whose states are set, go on the LRU in that order. A page
   * that finds the LRU full first has it compacted, and is not tracked if it is still full.
   */
  push(fileId: number, page: number, n: number): void {
    this.used = true
    if (this.ring.count + n <= this.cap) {
      this.ring.pushBack(fileId, page, n)
      return
    }
    for (let p = page; p < page + n; p++) {
      if (this.ring.count >= this.cap) this.compact()
      if (this.ring.count >= this.cap) continue // overcommitted beyond the ring: not tracked
      this.ring.pushBack(fileId, p, 1)
    }
  }

  /**
   * Drop the ring's stale entries — pages invalidated since they were added, and the older entry
   * of a page added again — keeping the others in order. Only needed once invalidations filled it.
   */
  private compact(): void {
    const ring = this.ring
    // the pages kept, newest first, as runs (a run's pages are met from its last to its first)
    const files: number[] = []
    const starts: number[] = []
    const lens: number[] = []
    for (let i = ring.runs - 1; i >= 0; i--) {
      const id = ring.fileAt(i)
      const pf = this.byId[id].pages!
      const first = ring.startAt(i)
      for (let p = first + ring.lenAt(i) - 1; p >= first; p--) {
        const s = pf.state(p)
        if (s === 0 || pf.any(p >>> 5, SCRATCH) & (1 << (p & 31))) continue // the newest entry of a page wins
        pf.update(p, p + 1, SCRATCH, 0)
        const last = files.length - 1
        if (last >= 0 && files[last] === id && starts[last] === p + 1) {
          starts[last] = p
          lens[last]++
        } else {
          files.push(id)
          starts.push(p)
          lens.push(1)
        }
      }
    }
    ring.clear()
    for (let i = files.length - 1; i >= 0; i--) {
      ring.pushBack(files[i], starts[i], lens[i])
      this.byId[files[i]].pages!.update(starts[i], starts[i] + lens[i], 0, SCRATCH)
    }
  }
}
