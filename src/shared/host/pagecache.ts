import type { BlockQueue } from '../block/queue'
import type { Bio, BioOwner, IoContext, Op } from '../block/types'
import { READ, WRITE } from '../block/types'
import type { SimTime } from '../sim/time'
import type { SimFile } from './files'
import { SECTORS_PER_PAGE } from './files'
import type { PageReporting } from './page-reporting'
import type { ScanResult } from './reclaim'
import type { Watermarks } from './vm-era'
import {
  PG_ANY,
  PG_DIRTY,
  PG_LOCKED,
  PG_READAHEAD,
  PG_RECLAIM,
  PG_REFERENCED,
  PG_UPTODATE,
  PG_WRITEBACK,
} from './page-flags'
import { PageLru } from './page-lru'

/** Told when pages of a file finish reading or writing back. */
export interface PageIoListener {
  pagesRead(file: SimFile, first: number, count: number, now: SimTime): void
  pagesWritten(file: SimFile, first: number, count: number, now: SimTime): void
}

/**
 * The page cache: per-file page states (the PG_* flags, as bitmaps: page-flags.ts), global counts
 * of cached, dirty and writeback pages, and reclaim. Reclaim is a CLOCK over a ring of cached
 * pages in insertion order (the kernel's inactive list, approximately: page-lru.ts, kept as runs
 * of pages: page-ring.ts): a referenced page gets a second chance, dirty, locked and writeback
 * pages are skipped. Memory stays bounded by the cache size whatever the run length. Every
 * operation works on runs of pages in one state, so its cost follows the requests, not their
 * pages; the result is page for page that of a list of single pages.
 */
export class PageCache implements BioOwner {
  /** The page allocated last, for whether the next one's memory follows it (SimFile.placed). */
  private lastFile: SimFile | null = null
  private lastPage = -1
  cached = 0
  dirty = 0
  writeback = 0
  /** Pages that could not be reclaimed when needed (all dirty or under I/O): the cache overcommits. */
  overcommitted = 0
  /** Pages of processes' anonymous memory (they share the memory the cache may use). */
  anonPages = 0
  /** The zone watermarks (all 0 when reclaim is only direct). */
  wm: Watermarks = { min: 0, low: 0, high: 0 }
  /** Called when an allocation leaves free memory below the low watermark (wakeup_kswapd). */
  onLow: (() => void) | null = null
  /** The LRU, the files by id, and reclaim's CLOCK over them (page-lru.ts). */
  private readonly lru: PageLru
  listener: PageIoListener | null = null
  /** Free page reporting to a hypervisor (host `freshPageUs` > 0): page-reporting.ts. */
  reporting: PageReporting | null = null

  constructor(
    /** Pages available to the cache (memory less what the kernel and processes hold). */
    readonly capacity: number,
    private readonly queue: BlockQueue,
  ) {
    this.lru = new PageLru(capacity + 1, this)
  }

  register(f: SimFile): void {
    this.lru.register(f)
  }

  /**
   * Make room for `n` new pages (anonymous memory counts against room): below the low watermark
   * kswapd is woken; below the min watermark the allocating process frees clean pages itself
   * (it cannot wait here for writes); what is still missing overcommits. Returns how many of them
   * were fresh (reported to a hypervisor: page-reporting.ts).
   */
  private reserve(n: number): number {
    const fresh = this.reporting !== null ? this.reporting.take(n) : 0
    const free = this.capacity - this.cached - this.anonPages - n
    if (free < this.wm.low) this.onLow?.()
    const need = this.wm.min - free
    if (need > 0) {
      const short = need - this.lru.reclaimClean(need)
      if (short > 0 && free < 0) this.overcommitted += Math.min(short, -free)
    }
    return fresh
  }

  /** Evict up to `n` clean, unreferenced, unlocked pages (CLOCK: PageLru); returns how many went. */
  reclaimClean(n: number): number {
    return this.lru.reclaimClean(n)
  }

  /** Reclaim's scan of the LRU tail (shrink_list: PageLru.scanTail). */
  scanTail(n: number, write: boolean, ctx: IoContext, out: Bio[], r: ScanResult): void {
    this.lru.scanTail(n, write, ctx, out, r)
  }

  /**
   * Pages [first, end) of `f`, not cached, are added with `state` and go on the LRU in page order.
   * Page by page when the LRU may fill on the way: its compaction sees the pages not added yet
   * as not cached.
   */
  private add(f: SimFile, first: number, end: number, state: number): void {
    const pf = f.pages!
    const lru = this.lru
    this.cached += end - first
    // the pages' memory: one run, after the last page allocated if that was the one before
    f.placed(first, end, this.lastFile === f && this.lastPage === first - 1)
    this.lastFile = f
    this.lastPage = end - 1
    if (lru.ring.count + end - first <= lru.cap) {
      pf.update(first, end, state, 0)
      lru.push(f.id, first, end - first)
      return
    }
    for (let p = first; p < end; p++) {
      pf.setState(p, state)
      lru.push(f.id, p, 1)
    }
  }

  /**
   * invalidate_mapping_pages over pages [first, end): drop the cached pages that are clean,
   * unlocked and not under writeback (posix_fadvise DONTNEED, BLKFLSBUF). Returns how many went.
   */
  dropClean(f: SimFile, first: number, end: number): number {
    const pf = f.pages
    if (pf === null) return 0
    const busy = PG_DIRTY | PG_LOCKED | PG_WRITEBACK
    const stop = Math.min(end, pf.count)
    let dropped = 0
    for (let p = pf.seek(first, stop, PG_ANY, true, busy, false); p < stop;) {
      const q = pf.runEnd(p, stop, PG_ANY, true, busy, false)
      pf.update(p, q, 0, PG_ANY)
      dropped += q - p
      p = pf.seek(q, stop, PG_ANY, true, busy, false)
    }
    this.cached -= dropped
    this.reporting?.freed(dropped)
    return dropped
  }

  /** Mark the runs of dirty pages not under writeback in [first, end) under writeback, up to `max` pages, a bio run each. */
  private takeDirty(
    f: SimFile,
    first: number,
    end: number,
    max: number,
    sync: boolean,
    ctx: IoContext,
    out: Bio[],
  ): number {
    const pf = f.pages!
    let taken = 0
    for (let p = pf.seek(first, end, PG_DIRTY, true, PG_WRITEBACK, false); p < end && taken < max;) {
      const q = pf.runEnd(p, Math.min(end, p + max - taken), PG_DIRTY, true, PG_WRITEBACK, false)
      pf.update(p, q, PG_WRITEBACK, PG_DIRTY)
      taken += q - p
      this.buildBios(f, p, q - p, WRITE, sync, ctx, out)
      this.lastTaken = q
      p = pf.seek(q, end, PG_DIRTY, true, PG_WRITEBACK, false)
    }
    return taken
  }
  /** The page after the last one `takeDirty` took. */
  private lastTaken = 0

  /**
   * Start writeback of the dirty pages in [first, end) of `f` (filemap_fdatawrite_range), building
   * write bios into `out`; returns the pages taken. Unlike writebackPages it stays in the range.
   */
  writebackRange(f: SimFile, first: number, end: number, sync: boolean, ctx: IoContext, out: Bio[]): number {
    const pf = f.pages
    if (pf === null || f.dirty === 0) return 0
    const taken = this.takeDirty(f, first, Math.min(end, pf.count), Infinity, sync, ctx, out)
    this.dirty -= taken
    this.writeback += taken
    f.dirty -= taken
    f.writeback += taken
    if (f.dirty === 0) f.dirtiedWhen = -1
    return taken
  }

  /** Mark a page accessed (mark_page_accessed). */
  touch(f: SimFile, p: number): void {
    f.pages!.update(p, p + 1, PG_REFERENCED, 0)
  }

  /** Mark pages [first, end) accessed. */
  touchRange(f: SimFile, first: number, end: number): void {
    f.pages!.update(first, end, PG_REFERENCED, 0)
  }

  /**
   * Add pages [first, first+n) that are not cached yet as locked, and build read bios for them
   * (split at the device's maximum transfer and at extent boundaries) into `out`. Marks
   * `marker` (if ≥ 0) as the read-ahead trigger. Returns how many of the new pages were fresh.
   */
  readPages(f: SimFile, first: number, n: number, marker: number, ctx: IoContext, out: Bio[]): number {
    const pf = f.pageStates()
    const end = Math.min(first + n, f.pageCount)
    const missing = pf.countWhere(first, end, PG_ANY, false)
    const fresh = missing > 0 ? this.reserve(missing) : 0
    // the pages not cached now (reclaim may have freed some of the range meanwhile) are read
    for (let p = pf.seek(first, end, PG_ANY, false); p < end;) {
      const q = pf.runEnd(p, end, PG_ANY, false)
      if (f.folio !== null) f.folio.fill(0, p, q)
      this.add(f, p, q, PG_LOCKED)
      this.buildBios(f, p, q - p, READ, true, ctx, out)
      p = pf.seek(q, end, PG_ANY, false)
    }
    if (marker >= first && marker < end && pf.state(marker) & (PG_LOCKED | PG_UPTODATE))
      pf.update(marker, marker + 1, PG_READAHEAD, 0)
    return fresh
  }

  /** Dirty pages [first, first+n) after a buffered write (allocating any missing); returns the fresh ones. */
  dirtyPages(f: SimFile, first: number, n: number, now: SimTime): number {
    const pf = f.pageStates()
    const end = Math.min(first + n, f.pageCount)
    const missing = pf.countWhere(first, end, PG_ANY, false)
    const fresh = missing > 0 ? this.reserve(missing) : 0
    // every page of the range ends dirty and referenced, and up to date if it was not dirty; the
    // pages not cached now are added, in page order
    const dirtied = pf.countWhere(first, end, PG_DIRTY, false)
    for (let p = pf.seek(first, end, PG_ANY, false); p < end;) {
      const q = pf.runEnd(p, end, PG_ANY, false)
      this.add(f, p, q, PG_UPTODATE | PG_DIRTY | PG_REFERENCED)
      p = pf.seek(q, end, PG_ANY, false)
    }
    pf.update(first, end, PG_UPTODATE, 0, PG_DIRTY)
    pf.update(first, end, PG_DIRTY | PG_REFERENCED, 0)
    this.dirty += dirtied
    f.dirty += dirtied
    if (f.dirtiedWhen < 0 && f.dirty > 0) f.dirtiedWhen = now
    return fresh
  }

  /**
   * Take up to `max` dirty pages of `f` from page `from` (wrapping once), mark them under
   * writeback and build write bios into `out`. Returns the number of pages taken; `f.writebackIndex`
   * moves past the last one, as the kernel's cyclic writeback does.
   */
  writebackPages(
    f: SimFile,
    max: number,
    sync: boolean,
    ctx: IoContext,
    out: Bio[],
    from = f.writebackIndex,
  ): number {
    const pf = f.pages
    if (pf === null || f.dirty === 0) return 0
    const total = f.pageCount
    const start = from >= total ? 0 : from
    let taken = 0
    // from the start to the file's end, then from its beginning back to the start (a bio never
    // spans the wrap); when `max` is reached the index is past the last page taken, else the
    // whole file was looked at and it is one past the start
    let index = max > 0 ? (start + 1 >= total ? 0 : start + 1) : start
    if (max > 0) {
      taken = this.takeDirty(f, start, total, max, sync, ctx, out)
      if (taken < max) taken += this.takeDirty(f, 0, start, max - taken, sync, ctx, out)
      if (taken === max) index = this.lastTaken >= total ? 0 : this.lastTaken
    }
    this.dirty -= taken
    this.writeback += taken
    f.dirty -= taken
    f.writeback += taken
    f.writebackIndex = index
    if (f.dirty === 0) f.dirtiedWhen = -1
    return taken
  }

  /** Split pages [first, first+n) of `f` into bios at extent boundaries and the maximum transfer. */
  buildBios(f: SimFile, first: number, n: number, op: Op, sync: boolean, ctx: IoContext, out: Bio[]): void {
    const q = this.queue
    const fileSectors = Math.ceil(f.size / 512)
    let fs = first * SECTORS_PER_PAGE
    const end = Math.min((first + n) * SECTORS_PER_PAGE, fileSectors)
    while (fs < end) {
      const len = Math.min(end - fs, f.contiguousFrom(fs), q.maxPageSectors)
      out.push(q.makeBio(f.map(fs), len, op, sync, ctx, this, f, fs, true))
      fs += len
    }
  }

  /** The runs of memory a page bio's pages make (BioOwner.memoryRuns). */
  memoryRuns(bio: Bio): number {
    const f = bio.ref as SimFile
    const first = Math.floor(bio.tag / SECTORS_PER_PAGE)
    return f.memoryRuns(first, Math.floor((bio.tag + bio.nsect - 1) / SECTORS_PER_PAGE) + 1)
  }

  bioDone(bio: Bio, now: SimTime): void {
    const f = bio.ref as SimFile
    const pf = f.pages!
    const first = Math.floor(bio.tag / SECTORS_PER_PAGE)
    const last = Math.floor((bio.tag + bio.nsect - 1) / SECTORS_PER_PAGE)
    const n = last - first + 1
    if (bio.op === READ) {
      pf.update(first, last + 1, PG_UPTODATE, PG_LOCKED)
      this.listener?.pagesRead(f, first, n, now)
    } else {
      // pages reclaim wrote go back on the LRU's tail, to be freed next
      for (
        let p = pf.seek(first, last + 1, PG_RECLAIM, true);
        p <= last;
        p = pf.seek(p + 1, last + 1, PG_RECLAIM, true)
      )
        this.lru.pushTail(f.id, p)
      pf.update(first, last + 1, 0, PG_WRITEBACK | PG_RECLAIM)
      this.writeback -= n
      f.writeback -= n
      this.listener?.pagesWritten(f, first, n, now)
    }
  }
}
