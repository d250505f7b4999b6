import { SECTOR } from '../block/types'
import { PG_ANY, PageFlags } from './page-flags'

export const PAGE = 4096
export const SECTORS_PER_PAGE = PAGE / SECTOR

/** One contiguous piece of a file on the device. */
export interface Extent {
  /** Offset in the file, in sectors. */
  fileSector: number
  /** Where it lies on the device. */
  devSector: number
  nsect: number
}

/**
 * A file: extents on the device plus its pages in the page cache (their flags as bitmaps:
 * page-flags.ts, allocated when first used buffered). `raw` files are the whole device (dd if=/dev/sda);
 * `blockDevice` is the device's own page cache, where buffered I/O on /dev goes.
 */
export class SimFile {
  /** Page-cache state per page (the page-flags.ts flags), allocated lazily. */
  pages: PageFlags | null = null
  /** Pages dirty in the cache. */
  dirty = 0
  /** Pages under writeback. */
  writeback = 0
  /** When the file first became dirty (the inode's dirtied_when), or -1 while clean. */
  dirtiedWhen = -1
  /** Cyclic writeback position (page index), as the kernel's writeback_index. */
  writebackIndex = 0
  /** The block device's page cache (buffered I/O on /dev, flushed by BLKFLSBUF). */
  blockDevice = false
  /**
   * log2 of the folio (in pages) each cached page belongs to, allocated with the first large
   * folio; folios are aligned to their size, so a page's folio starts at its index rounded down.
   */
  folio: Uint8Array | null = null
  /**
   * One bit per page: set where the page's memory does not follow the page before it — it was
   * allocated apart from it (allocated lazily, with the first page cached).
   */
  private apart: Uint32Array | null = null

  /**
   * A file of one extent (the common case): its device sector and length, so mapping a sector
   * reads the file alone, not its extents' array and object — with a thousand processes each
   * reading its own file, those were two cache misses on every request. −1: several extents.
   */
  private soleDev: number
  private soleLen: number

  constructor(
    readonly id: number,
    readonly name: string,
    public size: number,
    readonly extents: readonly Extent[],
    readonly raw = false,
  ) {
    const sole = extents.length === 1 ? extents[0] : null
    this.soleDev = sole === null ? -1 : sole.devSector
    this.soleLen = sole === null ? -1 : sole.nsect
  }

  /** Cover more of the device (the block device's cache, before any page of it is used). */
  grow(bytes: number): void {
    if (this.pages !== null) throw new Error(`file "${this.name}" is in use and cannot grow`)
    if (bytes <= this.size) return
    this.size = bytes
    this.extents[0].nsect = Math.ceil(bytes / SECTOR)
    if (this.soleLen >= 0) this.soleLen = this.extents[0].nsect
  }

  get pageCount(): number {
    return Math.ceil(this.size / PAGE)
  }

  /**
   * The folios a buffered write over pages [first, end) makes for the pages not cached yet, as
   * __filemap_get_folio does (6.x): at each index the largest power of two that the rest of the
   * write fills, that the index is aligned to, that is at most 2^maxOrder and that holds no
   * cached page (filemap_add_folio would fail and the kernel retries smaller). Call before the
   * pages are added.
   */
  makeFolios(first: number, end: number, maxOrder: number): void {
    const pages = this.pageStates()
    let i = pages.seek(first, end, PG_ANY, false)
    while (i < end) {
      let o = Math.min(maxOrder, Math.floor(Math.log2(end - i)))
      while (o > 0 && (i & ((1 << o) - 1)) !== 0) o--
      while (o > 0 && !uncached(pages, i, i + (1 << o))) o--
      if (o > 0 || this.folio !== null) {
        this.folio ??= new Uint8Array(this.pageCount)
        this.folio.fill(o, i, i + (1 << o))
      }
      i = pages.seek(i + (1 << o), end, PG_ANY, false)
    }
  }

  /**
   * Pages [first, end) were allocated one after another, so their memory is one run — the buddy
   * allocator hands out the pages of a per-CPU list in order, and a folio is one block — and it
   * follows page `first − 1`'s when that was the allocation just before (`joined`). A process
   * writing a file in order leaves it in long runs; one writing pages at random, a run a page.
   */
  placed(first: number, end: number, joined: boolean): void {
    if (end <= first) return
    const a = (this.apart ??= new Uint32Array((this.pageCount + 31) >>> 5))
    if (joined) a[first >>> 5] &= ~(1 << (first & 31))
    else a[first >>> 5] |= 1 << (first & 31)
    // clear [first + 1, end) a word at a time
    for (let p = first + 1; p < end; p = nextWord(p, end)) a[p >>> 5] &= ~wordMask(p, end)
  }

  /** How many physically contiguous runs the memory of pages [first, end) makes (placed). */
  memoryRuns(first: number, end: number): number {
    const a = this.apart
    if (a === null || end <= first) return Math.max(0, end - first)
    let runs = 1
    for (let p = first + 1; p < end; p = nextWord(p, end)) runs += popcount(a[p >>> 5] & wordMask(p, end))
    return runs
  }

  /** First page of the folio that holds page `p`. */
  folioStart(p: number): number {
    const f = this.folio
    return f === null ? p : p & ~((1 << f[p]) - 1)
  }

  /** The page after the folio that holds page `p`. */
  folioEnd(p: number): number {
    const f = this.folio
    return f === null ? p + 1 : Math.min(this.pageCount, (p & ~((1 << f[p]) - 1)) + (1 << f[p]))
  }

  /** Whether a page of [first, end) has one of `flags` (page-flags.ts: PG_DIRTY, PG_WRITEBACK). */
  anyPage(first: number, end: number, flags: number): boolean {
    const pages = this.pages
    if (pages === null) return false
    const stop = Math.min(end, pages.count)
    return pages.seek(first, stop, flags, true) < stop
  }

  pageStates(): PageFlags {
    if (this.pages === null) this.pages = new PageFlags(this.pageCount)
    return this.pages
  }

  /**
   * Device sector of file sector `fs`, and how many sectors stay contiguous from there (within
   * the extent). Single-extent files (the common case) take the fast path.
   */
  map(fs: number): number {
    if (this.soleDev >= 0) return this.soleDev + fs
    const e = this.extents[this.extentAt(fs)]
    return e.devSector + fs - e.fileSector
  }

  /** Sectors from file sector `fs` to the end of its extent. */
  contiguousFrom(fs: number): number {
    if (this.soleLen >= 0) return this.soleLen - fs
    const e = this.extents[this.extentAt(fs)]
    return fs >= e.fileSector && fs < e.fileSector + e.nsect ? e.fileSector + e.nsect - fs : 0
  }

  /** The last extent starting at or before file sector `fs` (the first if none does): the extents are in file order. */
  private extentAt(fs: number): number {
    const ex = this.extents
    let lo = 0
    let hi = ex.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (ex[mid].fileSector <= fs) lo = mid
      else hi = mid - 1
    }
    return lo
  }
}

export interface FilePlacement {
  name: string
  size: number
  /** Start sector on the device; undefined = next free place after the previous file. */
  at?: number
  /** Split into extents of this many bytes separated by `gap` bytes (a fragmented file). */
  extentBytes?: number
  gapBytes?: number
}

/**
 * Lays files out on the device: at a given place, or one after another from `firstSector`
 * (aligned to 1 MiB, as a fresh filesystem's allocator would), contiguous unless fragmented.
 */
export class FileAllocator {
  private cursor: number
  private nextId = 1
  readonly files: SimFile[] = []

  constructor(
    private readonly capacitySectors: number,
    firstSector = 2048 * 64,
  ) {
    this.cursor = Math.min(firstSector, Math.floor(capacitySectors / 16))
  }

  /** Sorted, disjoint [start, end) ranges files must not use (a file system's own regions). */
  private readonly reserved: [number, number][] = []
  private sorted = true

  /** Keep [start, end) free of files (file-system metadata, a journal); call before allocating. */
  reserve(start: number, end: number): void {
    const s = Math.max(0, start)
    const e = Math.min(this.capacitySectors, end)
    if (e <= s) return
    const last = this.reserved[this.reserved.length - 1]
    if (last !== undefined && s < last[0]) this.sorted = false
    this.reserved.push([s, e])
  }

  /** A file of the given extents (a file system's own metadata), with an id like any other. */
  custom(name: string, size: number, extents: Extent[]): SimFile {
    const f = new SimFile(this.nextId++, name, size, extents)
    this.files.push(f)
    return f
  }

  allocate(p: FilePlacement): SimFile {
    const nsect = Math.ceil(p.size / SECTOR)
    const align = 2048
    let start = p.at ?? Math.ceil(this.cursor / align) * align
    const extents: Extent[] = []
    const extSect = p.extentBytes ? Math.max(SECTORS_PER_PAGE, Math.ceil(p.extentBytes / SECTOR)) : nsect
    const gapSect = p.gapBytes ? Math.ceil(p.gapBytes / SECTOR) : 0
    let done = 0
    while (done < nsect) {
      const n = Math.min(extSect, nsect - done)
      if (this.reserved.length === 0) {
        extents.push({ fileSector: done, devSector: start, nsect: n })
        start += n
      } else start = this.placeAround(extents, done, start, n)
      done += n
      start += gapSect
    }
    const end = extents[extents.length - 1].devSector + extents[extents.length - 1].nsect
    if (end > this.capacitySectors)
      throw new Error(
        `file "${p.name}" (${p.size} bytes) does not fit on the device: it would end at sector ${end}, the device has ${this.capacitySectors}`,
      )
    if (p.at === undefined) this.cursor = end
    const f = new SimFile(this.nextId++, p.name, p.size, extents)
    this.files.push(f)
    return f
  }

  /** Lay `n` sectors from `start`, skipping reserved ranges (split into extents); returns the end. */
  private placeAround(out: Extent[], fileSector: number, start: number, n: number): number {
    const r = this.reserved
    if (!this.sorted) {
      r.sort((a, b) => a[0] - b[0])
      this.sorted = true
    }
    // the first range that ends after `start` (binary search)
    let lo = 0
    let hi = r.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (r[mid][1] <= start) lo = mid + 1
      else hi = mid
    }
    let i = lo
    let left = n
    let fs = fileSector
    while (left > 0) {
      if (i < r.length && start >= r[i][0]) {
        start = r[i][1]
        i++
        continue
      }
      const room = i < r.length ? r[i][0] - start : Infinity
      const len = Math.min(left, room)
      const last = out[out.length - 1]
      if (last !== undefined && last.devSector + last.nsect === start && last.fileSector + last.nsect === fs)
        last.nsect += len
      else out.push({ fileSector: fs, devSector: start, nsect: len })
      start += len
      fs += len
      left -= len
    }
    return start
  }

  /** Sectors left after the last file laid out one after another. */
  get sectorsLeft(): number {
    const from = Math.ceil(this.cursor / 2048) * 2048
    let held = 0
    for (const [s, e] of this.reserved) if (e > from) held += e - Math.max(s, from)
    return Math.max(0, this.capacitySectors - from - held)
  }

  /** The block device's own page cache over its first `bytes` (buffered access to /dev). */
  blockDeviceCache(bytes: number): SimFile {
    const nsect = Math.min(this.capacitySectors, Math.ceil(bytes / SECTOR))
    const f = new SimFile(this.nextId++, '/dev (page cache)', nsect * SECTOR, [
      { fileSector: 0, devSector: 0, nsect },
    ])
    f.blockDevice = true
    this.files.push(f)
    return f
  }

  /** The whole device as a file (raw access). */
  rawDevice(): SimFile {
    const f = new SimFile(
      this.nextId++,
      '/dev',
      this.capacitySectors * SECTOR,
      [{ fileSector: 0, devSector: 0, nsect: this.capacitySectors }],
      true,
    )
    this.files.push(f)
    return f
  }
}

function uncached(pages: PageFlags, from: number, to: number): boolean {
  return pages.seek(from, to, PG_ANY, true) === to
}

/** The bits of pages [p, end) in page p's 32-page word. */
function wordMask(p: number, end: number): number {
  const lo = p & 31
  const n = Math.min(32 - lo, end - p)
  return n === 32 ? 0xffffffff : ((1 << n) - 1) << lo
}

/** The first page of the word after page p's, or `end`. */
const nextWord = (p: number, end: number): number => Math.min(end, (p | 31) + 1)

/** Set bits of a 32-bit word. */
function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333)
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24
}
