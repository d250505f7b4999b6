// The page cache as it was before page-flags.ts and page-ring.ts: one byte of state per page and
// a ring of single pages, each operation a loop over its pages. The reference the randomized test
// (test/host/pagecache-runs.test.ts) holds the run-based cache to, operation for operation.
import type { BlockQueue } from '../../src/shared/block/queue'
import type { Bio, BioOwner, IoContext, Op } from '../../src/shared/block/types'
import { READ, WRITE } from '../../src/shared/block/types'
import type { SimTime } from '../../src/shared/sim/time'
import type { SimFile } from '../../src/shared/host/files'
import { SECTORS_PER_PAGE } from '../../src/shared/host/files'
import type { PageReporting } from '../../src/shared/host/page-reporting'
import type { ScanResult } from '../../src/shared/host/reclaim'
import type { Watermarks } from '../../src/shared/host/vm-era'
import {
  PG_DIRTY,
  PG_LOCKED,
  PG_READAHEAD,
  PG_RECLAIM,
  PG_REFERENCED,
  PG_UPTODATE,
  PG_WRITEBACK,
} from '../../src/shared/host/page-flags'

/** Told when pages of a file finish reading or writing back. */
export interface RefListener {
  pagesRead(file: RefFile, first: number, count: number, now: SimTime): void
  pagesWritten(file: RefFile, first: number, count: number, now: SimTime): void
}

/** A file's page-cache side with a byte per page; its layout is a SimFile's. */
export class RefFile {
  pages: Uint8Array | null = null
  dirty = 0
  writeback = 0
  dirtiedWhen = -1
  writebackIndex = 0
  folio: Uint8Array | null = null
  constructor(readonly geometry: SimFile) {}
  get id(): number {
    return this.geometry.id
  }
  get size(): number {
    return this.geometry.size
  }
  get pageCount(): number {
    return this.geometry.pageCount
  }
  map(fs: number): number {
    return this.geometry.map(fs)
  }
  contiguousFrom(fs: number): number {
    return this.geometry.contiguousFrom(fs)
  }
  pageStates(): Uint8Array {
    if (this.pages === null) this.pages = new Uint8Array(this.pageCount)
    return this.pages
  }
}

/**
 * The page cache: per-file page states, global counts of cached, dirty and writeback pages, and
 * reclaim. Reclaim is a CLOCK over a ring of cached pages in insertion order (the kernel's
 * inactive list, approximately): a referenced page gets a second chance, dirty, locked and
 * writeback pages are skipped. Memory stays bounded by the cache size whatever the run length.
 */
export class PerPageCache implements BioOwner {
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
  /** Allocated with the first cached page: a run that never caches a page never pays for it. */
  private ringFile = new Int32Array(0)
  private ringPage = new Int32Array(0)
  private head = 0
  private count = 0
  private readonly byId: RefFile[] = []
  listener: RefListener | null = null
  /** Free page reporting to a hypervisor (host `freshPageUs` > 0): page-reporting.ts. */
  reporting: PageReporting | null = null

  constructor(
    /** Pages available to the cache (memory less what the kernel and processes hold). */
    readonly capacity: number,
    private readonly queue: BlockQueue,
  ) {}

  register(f: RefFile): void {
    this.byId[f.id] = f
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
      const short = need - this.reclaimClean(need)
      if (short > 0 && free < 0) this.overcommitted += Math.min(short, -free)
    }
    return fresh
  }

  /** Evict up to `n` clean, unreferenced, unlocked pages (CLOCK); returns how many went. */
  reclaimClean(n: number): number {
    let freed = 0
    let scanned = 0
    const limit = 2 * this.count
    while (freed < n && this.count > 0 && scanned < limit) {
      const i = this.head
      const f = this.byId[this.ringFile[i]]
      const p = this.ringPage[i]
      this.head = (i + 1) % this.ringFile.length
      this.count--
      scanned++
      const pages = f.pages!
      const s = pages[p]
      if (s === 0) continue // dropped since (invalidated): a stale entry
      if (s & (PG_DIRTY | PG_LOCKED | PG_WRITEBACK) || s & PG_REFERENCED) {
        pages[p] = s & ~PG_REFERENCED
        this.push(f.id, p)
        continue
      }
      pages[p] = 0
      this.cached--
      freed++
    }
    this.reporting?.freed(freed)
    return freed
  }

  /**
   * Reclaim's scan of the LRU tail (shrink_list): up to `n` pages. Referenced pages get a second
   * chance; locked and writeback pages are passed over; clean ones are freed; dirty ones are paged
   * out one page at a time (->writepage, asynchronous, for `ctx`) if `write`, and leave the LRU
   * until their write completes.
   */
  scanTail(n: number, write: boolean, ctx: IoContext, out: Bio[], r: ScanResult): void {
    let scanned = 0
    while (scanned < n && this.count > 0) {
      const i = this.head
      const f = this.byId[this.ringFile[i]]
      const p = this.ringPage[i]
      this.head = (i + 1) % this.ringFile.length
      this.count--
      scanned++
      const pages = f.pages!
      const s = pages[p]
      if (s & (PG_LOCKED | PG_WRITEBACK | PG_REFERENCED) || (s & PG_DIRTY && !write)) {
        pages[p] = s & ~PG_REFERENCED
        this.push(f.id, p)
        continue
      }
      if (s & PG_DIRTY) {
        pages[p] = (s & ~PG_DIRTY) | PG_WRITEBACK | PG_RECLAIM
        this.dirty--
        this.writeback++
        f.dirty--
        f.writeback++
        if (f.dirty === 0) f.dirtiedWhen = -1
        this.buildBios(f, p, 1, WRITE, false, ctx, out)
        r.writes++
        continue
      }
      pages[p] = 0
      this.cached--
      r.freed++
      this.reporting?.freed(1)
    }
    r.scanned += scanned
  }

  /** rotate_reclaimable_page: back on the LRU at its tail, the next page reclaim looks at. */
  private pushTail(fileId: number, page: number): void {
    const len = this.ringFile.length
    if (this.count >= len) return
    this.head = (this.head - 1 + len) % len
    this.ringFile[this.head] = fileId
    this.ringPage[this.head] = page
    this.count++
  }

  private push(fileId: number, page: number): void {
    if (this.ringFile.length === 0) {
      this.ringFile = new Int32Array(this.capacity + 1)
      this.ringPage = new Int32Array(this.capacity + 1)
    }
    if (this.count >= this.ringFile.length) this.compact()
    const len = this.ringFile.length
    if (this.count >= len) return // overcommitted beyond the ring: the page is simply not tracked
    const j = (this.head + this.count) % len
    this.ringFile[j] = fileId
    this.ringPage[j] = page
    this.count++
  }

  /**
   * Drop the ring's stale entries — pages invalidated since they were added, and the older entry
   * of a page added again — keeping the others in order. Only needed once invalidations filled it.
   */
  private compact(): void {
    const len = this.ringFile.length
    const seenFlag = 128 // a page-state bit no flag uses, set only during this pass
    let kept = 0
    for (let k = 0; k < this.count; k++) {
      const i = (this.head + this.count - 1 - k) % len // newest first: the newest entry of a page wins
      const f = this.byId[this.ringFile[i]]
      const p = this.ringPage[i]
      const pages = f.pages!
      if (pages[p] === 0 || pages[p] & seenFlag) continue
      pages[p] |= seenFlag
      const j = (this.head + this.count - 1 - kept) % len
      this.ringFile[j] = this.ringFile[i]
      this.ringPage[j] = p
      kept++
    }
    this.head = (this.head + this.count - kept) % len
    this.count = kept
    for (let k = 0; k < kept; k++) {
      const i = (this.head + k) % len
      this.byId[this.ringFile[i]].pages![this.ringPage[i]] &= ~seenFlag
    }
  }

  /**
   * invalidate_mapping_pages over pages [first, end): drop the cached pages that are clean,
   * unlocked and not under writeback (posix_fadvise DONTNEED, BLKFLSBUF). Returns how many went.
   */
  dropClean(f: RefFile, first: number, end: number): number {
    const pages = f.pages
    if (pages === null) return 0
    let dropped = 0
    for (let p = first; p < end; p++) {
      const s = pages[p]
      if (s === 0 || s & (PG_DIRTY | PG_LOCKED | PG_WRITEBACK)) continue
      pages[p] = 0
      dropped++
    }
    this.cached -= dropped
    this.reporting?.freed(dropped)
    return dropped
  }

  /**
   * Start writeback of the dirty pages in [first, end) of `f` (filemap_fdatawrite_range), building
   * write bios into `out`; returns the pages taken. Unlike writebackPages it stays in the range.
   */
  writebackRange(f: RefFile, first: number, end: number, sync: boolean, ctx: IoContext, out: Bio[]): number {
    const pages = f.pages
    if (pages === null || f.dirty === 0) return 0
    let taken = 0
    let run = -1
    for (let p = first; p <= end; p++) {
      const s = p < end ? pages[p] : 0
      if (p < end && s & PG_DIRTY && !(s & PG_WRITEBACK)) {
        pages[p] = (s & ~PG_DIRTY) | PG_WRITEBACK
        taken++
        if (run < 0) run = p
      } else if (run >= 0) {
        this.buildBios(f, run, p - run, WRITE, sync, ctx, out)
        run = -1
      }
    }
    this.dirty -= taken
    this.writeback += taken
    f.dirty -= taken
    f.writeback += taken
    if (f.dirty === 0) f.dirtiedWhen = -1
    return taken
  }

  private addPage(f: RefFile, p: number, state: number): void {
    f.pages![p] = state
    this.cached++
    this.push(f.id, p)
  }

  /** Mark a page accessed (mark_page_accessed). */
  touch(f: RefFile, p: number): void {
    f.pages![p] |= PG_REFERENCED
  }

  /**
   * Add pages [first, first+n) that are not cached yet as locked, and build read bios for them
   * (split at the device's maximum transfer and at extent boundaries) into `out`. Marks
   * `marker` (if ≥ 0) as the read-ahead trigger. Returns how many of the new pages were fresh.
   */
  readPages(f: RefFile, first: number, n: number, marker: number, ctx: IoContext, out: Bio[]): number {
    const pages = f.pageStates()
    const end = Math.min(first + n, f.pageCount)
    let missing = 0
    for (let p = first; p < end; p++) if (pages[p] === 0) missing++
    const fresh = missing > 0 ? this.reserve(missing) : 0
    let run = -1
    for (let p = first; p <= end; p++) {
      if (p < end && pages[p] === 0) {
        if (f.folio !== null) f.folio[p] = 0
        this.addPage(f, p, PG_LOCKED)
        if (run < 0) run = p
      } else if (run >= 0) {
        this.buildBios(f, run, p - run, READ, true, ctx, out)
        run = -1
      }
    }
    if (marker >= first && marker < end && pages[marker] & (PG_LOCKED | PG_UPTODATE))
      pages[marker] |= PG_READAHEAD
    return fresh
  }

  /** Dirty pages [first, first+n) after a buffered write (allocating any missing); returns the fresh ones. */
  dirtyPages(f: RefFile, first: number, n: number, now: SimTime): number {
    const pages = f.pageStates()
    const end = Math.min(first + n, f.pageCount)
    let missing = 0
    for (let p = first; p < end; p++) if (pages[p] === 0) missing++
    const fresh = missing > 0 ? this.reserve(missing) : 0
    for (let p = first; p < end; p++) {
      const s = pages[p]
      if (s === 0) {
        this.addPage(f, p, PG_UPTODATE | PG_DIRTY | PG_REFERENCED)
        this.dirty++
        f.dirty++
      } else if (!(s & PG_DIRTY)) {
        pages[p] = s | PG_UPTODATE | PG_DIRTY | PG_REFERENCED
        this.dirty++
        f.dirty++
      } else {
        pages[p] = s | PG_REFERENCED
      }
    }
    if (f.dirtiedWhen < 0 && f.dirty > 0) f.dirtiedWhen = now
    return fresh
  }

  /**
   * Take up to `max` dirty pages of `f` from page `from` (wrapping once), mark them under
   * writeback and build write bios into `out`. Returns the number of pages taken; `f.writebackIndex`
   * moves past the last one, as the kernel's cyclic writeback does.
   */
  writebackPages(
    f: RefFile,
    max: number,
    sync: boolean,
    ctx: IoContext,
    out: Bio[],
    from = f.writebackIndex,
  ): number {
    const pages = f.pages
    if (pages === null || f.dirty === 0) return 0
    const total = f.pageCount
    let taken = 0
    let run = -1
    let p = from
    let scanned = 0
    while (scanned <= total && taken < max) {
      if (p >= total) {
        if (run >= 0) this.buildBios(f, run, p - run, WRITE, sync, ctx, out)
        run = -1
        p = 0
      }
      const s = pages[p]
      if (s & PG_DIRTY && !(s & PG_WRITEBACK)) {
        pages[p] = (s & ~PG_DIRTY) | PG_WRITEBACK
        taken++
        if (run < 0) run = p
      } else if (run >= 0) {
        this.buildBios(f, run, p - run, WRITE, sync, ctx, out)
        run = -1
      }
      p++
      scanned++
    }
    if (run >= 0) this.buildBios(f, run, p - run, WRITE, sync, ctx, out)
    this.dirty -= taken
    this.writeback += taken
    f.dirty -= taken
    f.writeback += taken
    f.writebackIndex = p >= total ? 0 : p
    if (f.dirty === 0) f.dirtiedWhen = -1
    return taken
  }

  /** Split pages [first, first+n) of `f` into bios at extent boundaries and the maximum transfer. */
  private buildBios(
    f: RefFile,
    first: number,
    n: number,
    op: Op,
    sync: boolean,
    ctx: IoContext,
    out: Bio[],
  ): void {
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

  bioDone(bio: Bio, now: SimTime): void {
    const f = bio.ref as RefFile
    const pages = f.pages!
    const first = Math.floor(bio.tag / SECTORS_PER_PAGE)
    const last = Math.floor((bio.tag + bio.nsect - 1) / SECTORS_PER_PAGE)
    const n = last - first + 1
    if (bio.op === READ) {
      for (let p = first; p <= last; p++) pages[p] = (pages[p] & ~PG_LOCKED) | PG_UPTODATE
      this.listener?.pagesRead(f, first, n, now)
    } else {
      for (let p = first; p <= last; p++) {
        const st = pages[p]
        pages[p] = st & ~(PG_WRITEBACK | PG_RECLAIM)
        if (st & PG_RECLAIM) this.pushTail(f.id, p)
      }
      this.writeback -= n
      f.writeback -= n
      this.listener?.pagesWritten(f, first, n, now)
    }
  }
}
