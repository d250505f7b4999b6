import type { SimTime } from '../sim/time'
import { SECOND } from '../sim/time'
import type { Extent, FileAllocator, SimFile } from '../host/files'
import { PAGE } from '../host/files'
import { PG_DIRTY, PG_UPTODATE, PG_WRITEBACK } from '../host/page-flags'
import { BLOCK_SECTORS, FsLayout } from './layout'
import type { Geometry } from './layout'
import { Journal } from './journal'
import type { JournalConfig } from './journal'
import type { FileSystem, FsHost, FsIoTask, FsStats, FsTask, MetaOp, MetaOutcome } from './types'
import { SYNC_DONE, SYNC_SLEEP, SYNC_SUBMIT } from './types'

export type AtimeMode = 'strictatime' | 'relatime' | 'noatime'

export interface BlockFsConfig {
  type: string
  geometry: Geometry
  atime: AtimeMode
  /** Timestamp granularity: whole seconds (128-byte inodes) or the clock tick (ext4). */
  timestamps: 'second' | 'tick'
  /** Journal (ext3, ext4) or none (ext2, FFS: changed metadata is dirty in the buffer cache). */
  journal: Omit<JournalConfig, 'start' | 'blocks'> | null
  journalAt: 'start' | 'middle'
  journalBlocks: number
  /** data=journal: file data is logged too. */
  dataJournal: boolean
  /** Delayed allocation: blocks are allocated when the data is written back, not at write(). */
  delalloc: boolean
  /** create and unlink write the inode and the directory block synchronously (FFS). */
  syncNamespace: boolean
}

/** Bytes of one directory entry: an 8-byte header and a name of ~16 characters, padded to 4. */
const DIRENT_BYTES = 24
/** Inodes the file system keeps for itself in group 0 (EXT2_GOOD_OLD_FIRST_INO). */
const FIRST_INO = 11
/** Flex groups whose inode tables hold the namespace test's files. */
const NAMESPACE_FLEX_GROUPS = 4
/** Pre-existing files were last read and written this long before the run. */
const PAST = -2 * 86_400 * SECOND
const DAY = 86_400 * SECOND

/** What the file system keeps about one file: its inode's place and times, its allocation. */
export class FsInode {
  /** Blocks allocated (pages from the start of the file). */
  allocatedPages: number
  /** Transaction that last changed the inode (i_sync_tid) and its data-relevant part (i_datasync_tid). */
  syncTid = 0
  datasyncTid = 0
  /** Without a journal: the inode block is dirty (and for fdatasync: size or blocks changed). */
  metaDirty = false
  datasyncDirty = false
  /** Dirty pages beyond the allocation wait for writeback to allocate them (delalloc). */
  delallocEnd = -1
  mtime: SimTime = PAST
  atime: SimTime = PAST

  constructor(
    readonly group: number,
    readonly metaPage: number,
    pages: number,
    /** i_size, bytes. */
    public size: number,
  ) {
    this.allocatedPages = pages
  }
}

/**
 * The ext2 family's machinery, configured per file system: block groups with their bitmaps and
 * inode tables (files' data placed around them, each file's inode in the group of its first
 * block), inode updates from mtime and atime, block allocation when a write extends a file (at
 * write() or, with delayed allocation, at writeback), and namespace operations. Changed metadata
 * blocks are pages of one internal file — the metadata at its home locations — and reach the disk
 * as the file system says: dirty for writeback (ext2, FFS), written synchronously by the process
 * (FFS create/unlink, fsync of a dirty inode), or logged by the journal first (ext3, ext4).
 */
export class BlockFs implements FileSystem {
  readonly type: string
  readonly stats: FsStats = { commits: 0, journalBlocks: 0, syncMetaWrites: 0 }
  readonly journal: Journal | null = null
  readonly layout: FsLayout
  readonly dataBeforeCommit: boolean
  /** The metadata blocks at their home locations, as pages of one file (made at start). */
  meta: SimFile | null = null
  private readonly inodes = new Map<number, FsInode>()
  /** First page of each flex group's region in the metadata file. */
  private readonly base = new Map<number, number>()
  private dirBase = 0
  private journalStart = 0
  private readonly gran: SimTime
  /**
   * By file id: the time before which an access changes nothing — its atime is in the clock's
   * current granule, or (relatime) newer than its mtime and less than a day old. `accessed` answers
   * from this dense array without reaching the inode: with a thousand processes each reading its
   * own file directly, an inode per read was a cache miss per request. 0: ask the inode.
   */
  private atimeQuiet = new Float64Array(64)

  constructor(
    readonly cfg: BlockFsConfig,
    protected readonly host: FsHost,
  ) {
    this.type = cfg.type
    this.layout = new FsLayout(cfg.geometry, host.queue.deviceInfo.capacitySectors)
    this.gran = cfg.timestamps === 'second' ? SECOND : Math.round(SECOND / host.hz)
    this.dataBeforeCommit = cfg.delalloc
    if (cfg.journal !== null) {
      this.journal = new Journal(cfg.journal, host, this.stats)
    }
  }

  private regionSectors(): number {
    return this.layout.regionBlocks * BLOCK_SECTORS
  }

  reserve(alloc: FileAllocator, capacitySectors: number): void {
    const l = this.layout
    const rs = this.regionSectors()
    for (let fg = 0; fg < l.flexGroups; fg++) alloc.reserve(l.regionStart(fg), l.regionStart(fg) + rs)
    const dirStart = rs
    alloc.reserve(dirStart, dirStart + this.cfg.geometry.dirBlocks * BLOCK_SECTORS)
    if (this.journal !== null) {
      const js = this.cfg.journalBlocks * BLOCK_SECTORS
      let start =
        this.cfg.journalAt === 'start'
          ? dirStart + this.cfg.geometry.dirBlocks * BLOCK_SECTORS
          : l.regionStart(Math.floor(l.flexGroups / 2)) + rs
      if (start + js > capacitySectors) start = Math.max(0, capacitySectors - js)
      this.journalStart = start
      alloc.reserve(start, start + js)
    }
    this.alloc = alloc
  }

  private alloc: FileAllocator | null = null

  start(files: readonly SimFile[]): void {
    const l = this.layout
    const used = new Set<number>()
    for (let fg = 0; fg < Math.min(NAMESPACE_FLEX_GROUPS, l.flexGroups); fg++) used.add(fg)
    const data = files.filter((f) => !f.raw)
    for (const f of data) used.add(l.flexOf(l.groupOf(f.extents[0].devSector)))
    const fgs = [...used].sort((a, b) => a - b)
    const extents: Extent[] = []
    let page = 0
    const push = (dev: number, blocks: number): void => {
      extents.push({ fileSector: page * BLOCK_SECTORS, devSector: dev, nsect: blocks * BLOCK_SECTORS })
      page += blocks
    }
    for (const fg of fgs) {
      this.base.set(fg, page)
      push(l.regionStart(fg), l.regionBlocks)
      if (fg === 0) {
        this.dirBase = page
        push(this.regionSectors(), this.cfg.geometry.dirBlocks)
      }
    }
    this.meta = this.alloc!.custom(`(${this.type} metadata)`, page * PAGE, extents)
    this.host.registerInternal(this.meta)
    // Each file's inode in the group of its first block, in the order the files were made.
    const slots = new Map<number, number>()
    for (const f of data) {
      const g = l.groupOf(f.extents[0].devSector)
      const slot = slots.get(g) ?? (g === 0 ? FIRST_INO : 0)
      slots.set(g, slot + 1)
      this.inodes.set(f.id, new FsInode(g, this.inodePage(g, slot), f.pageCount, f.size))
    }
    this.nsFirstSlot = slots.get(0) ?? FIRST_INO
    if (this.journal !== null) {
      this.journal.metaFile = this.meta
      this.journal.setRegion(this.journalStart, this.cfg.journalBlocks)
    }
  }

  private nsFirstSlot = FIRST_INO

  private inodePage(group: number, slot: number): number {
    const l = this.layout
    const b = this.base.get(l.flexOf(group))
    return (b ?? 0) + l.inodeBlock(group, slot % l.g.inodesPerGroup)
  }

  private pageOfRegion(group: number, block: number): number {
    return (this.base.get(this.layout.flexOf(group)) ?? 0) + block
  }

  inode(f: SimFile): FsInode | undefined {
    return this.inodes.get(f.id)
  }

  // --- changes of metadata, and where they go ---

  /**
   * Metadata pages changed for `ino` (null: no file's inode). With a journal they join the
   * running transaction; without, they are dirty in the buffer cache for writeback.
   */
  protected change(pages: number[], ino: FsInode | null, dataSync: boolean): void {
    const j = this.journal
    if (j !== null) {
      const t = j.handle()
      for (const p of pages) t.meta.add(p)
      if (ino !== null) {
        ino.syncTid = t.tid
        if (dataSync) ino.datasyncTid = t.tid
      }
      return
    }
    const now = this.host.engine.now
    for (const p of pages) this.host.cache.dirtyPages(this.meta!, p, 1, now)
    if (ino !== null) {
      ino.metaDirty = true
      if (dataSync) ino.datasyncDirty = true
    }
  }

  /** The pages an allocation of file pages [from, to) changes: bitmaps of its groups, descriptors, inode. */
  private allocationPages(f: SimFile, ino: FsInode, from: number, to: number): number[] {
    const l = this.layout
    const pages = [ino.metaPage, this.pageOfRegion(0, l.descriptorBlock())]
    let lastGroup = -1
    for (let p = from; p < to; p += this.cfg.geometry.groupBlocks) {
      const g = l.groupOf(f.map(Math.min(p, to - 1) * BLOCK_SECTORS))
      if (g !== lastGroup) pages.push(this.pageOfRegion(g, l.blockBitmap(g)))
      lastGroup = g
    }
    const gl = l.groupOf(f.map((to - 1) * BLOCK_SECTORS))
    if (gl !== lastGroup) pages.push(this.pageOfRegion(gl, l.blockBitmap(gl)))
    return pages
  }

  private allocate(f: SimFile, ino: FsInode, to: number): void {
    const from = ino.allocatedPages
    if (to <= from) return
    ino.allocatedPages = to
    this.change(this.allocationPages(f, ino, from, to), ino, true)
    const j = this.journal
    if (j !== null && j.ordered) j.handle().ordered.add(f)
  }

  written(t: FsTask, f: SimFile, offset: number, bytes: number, direct: boolean): void {
    const ino = this.inodes.get(f.id)
    if (ino === undefined) return
    const now = t.now
    const first = Math.floor(offset / PAGE)
    const end = Math.ceil((offset + bytes) / PAGE)
    let inodeChanged = false
    if (end > ino.allocatedPages) {
      if (this.cfg.delalloc && !direct) ino.delallocEnd = Math.max(ino.delallocEnd, end)
      else {
        this.allocate(f, ino, end)
        inodeChanged = true
      }
    }
    if (offset + bytes > ino.size) {
      ino.size = offset + bytes
      // i_size (i_disksize) grows: the inode changes in a way fdatasync must make durable — at
      // write() when the blocks are there, at writeback when they are delayed.
      if (!inodeChanged && end <= ino.allocatedPages) {
        this.change([ino.metaPage], ino, true)
        inodeChanged = true
      }
    }
    // file_update_time: the inode changes when the clock, at the inode's granularity, has moved.
    if (Math.floor(now / this.gran) !== Math.floor(ino.mtime / this.gran) && !inodeChanged)
      this.change([ino.metaPage], ino, false)
    ino.mtime = now
    this.atimeQuiet[f.id] = 0 // (a new mtime may let relatime update the atime again)
    const j = this.journal
    if (j !== null && !direct) {
      if (this.cfg.dataJournal) j.handle().journaledPages += end - first
      else if (j.ordered && !this.cfg.delalloc) j.handle().ordered.add(f)
    }
  }

  accessed(t: FsTask, f: SimFile): void {
    const mode = this.cfg.atime
    if (mode === 'noatime') return
    const now = t.now
    if (f.id < this.atimeQuiet.length && now < this.atimeQuiet[f.id]) return
    const ino = this.inodes.get(f.id)
    if (ino === undefined) return
    // relatime_need_update: only if the last access is not later than the last change, or a day old.
    const unchanged =
      Math.floor(now / this.gran) === Math.floor(ino.atime / this.gran) ||
      (mode === 'relatime' && ino.atime > ino.mtime && now - ino.atime < DAY)
    if (!unchanged) {
      ino.atime = now
      this.change([ino.metaPage], ino, false)
    }
    this.setAtimeQuiet(f.id, ino, mode)
  }

  /**
   * Until when `accessed` returns at once for `ino`'s file (while its mtime stays): to the end of
   * its atime's granule (⌊t/g⌋ = ⌊atime/g⌋ exactly while t < (⌊atime/g⌋ + 1)·g, times below 2^53),
   * or with relatime and an atime newer than the mtime, to a day after the atime if later.
   */
  private setAtimeQuiet(id: number, ino: FsInode, mode: AtimeMode): void {
    const granuleEnd = (Math.floor(ino.atime / this.gran) + 1) * this.gran
    const relatime = mode === 'relatime' && ino.atime > ino.mtime ? ino.atime + DAY : -Infinity
    if (id >= this.atimeQuiet.length) {
      const grown = new Float64Array(Math.max(2 * this.atimeQuiet.length, id + 1))
      grown.set(this.atimeQuiet)
      this.atimeQuiet = grown
    }
    this.atimeQuiet[id] = Math.max(granuleEnd, relatime)
  }

  truncate(t: FsTask, f: SimFile): void {
    const ino = this.inodes.get(f.id)
    if (ino === undefined) return
    const pages =
      ino.allocatedPages > 0 ? this.allocationPages(f, ino, 0, ino.allocatedPages) : [ino.metaPage]
    ino.allocatedPages = 0
    ino.size = 0
    ino.delallocEnd = -1
    ino.mtime = t.now
    this.atimeQuiet[f.id] = 0
    this.change(pages, ino, true)
  }

  pagesWritten(f: SimFile): void {
    const ino = this.inodes.get(f.id)
    // Delayed allocation: writeback has allocated the blocks of the pages it wrote.
    if (ino !== undefined && ino.delallocEnd > ino.allocatedPages) {
      this.allocate(f, ino, ino.delallocEnd)
      ino.delallocEnd = -1
    }
    this.journal?.pagesWritten(f)
  }

  sync(t: FsIoTask, f: SimFile, datasync: boolean, k: number): number {
    const ino = this.inodes.get(f.id)
    if (ino === undefined) return SYNC_DONE
    const j = this.journal
    if (j !== null) {
      const tid = datasync && !this.cfg.dataJournal ? ino.datasyncTid : ino.syncTid
      return j.waitFor(t, tid, k) ? SYNC_SLEEP : SYNC_DONE
    }
    if (!ino.metaDirty || (datasync && !ino.datasyncDirty)) return SYNC_DONE
    ino.metaDirty = false
    ino.datasyncDirty = false
    return this.writeMeta(t, [ino.metaPage]) ? SYNC_SUBMIT : SYNC_DONE
  }

  /** Write metadata pages from the process itself (sync); false if none was dirty. */
  private writeMeta(t: FsIoTask, pages: number[]): boolean {
    const meta = this.meta!
    const st = meta.pageStates()
    let any = false
    for (const p of pages) {
      if ((st.state(p) & (PG_DIRTY | PG_WRITEBACK)) !== PG_DIRTY) continue
      this.host.cache.writebackPages(meta, 1, true, t, t.bios, p)
      this.stats.syncMetaWrites++
      any = true
    }
    return any
  }

  metaOp(t: FsIoTask, op: MetaOp, n: number): MetaOutcome {
    const l = this.layout
    const ipg = l.g.inodesPerGroup
    const cap = Math.min(NAMESPACE_FLEX_GROUPS, l.flexGroups) * l.g.flexBg * ipg - this.nsFirstSlot
    const slot = this.nsFirstSlot + (n % Math.max(1, cap))
    const g = Math.floor(slot / ipg)
    const inodePage = this.inodePage(g, slot % ipg)
    if (op === 'stat') {
      const s = this.meta!.pageStates().state(inodePage)
      if (s & PG_UPTODATE || s & PG_DIRTY) return { kind: 'done' }
      return { kind: 'read', file: this.meta!, page: inodePage }
    }
    const dirPage = this.dirBase + (Math.floor((n * DIRENT_BYTES) / PAGE) % this.cfg.geometry.dirBlocks)
    const pages = [
      this.pageOfRegion(g, l.inodeBitmap(g)),
      inodePage,
      dirPage,
      this.pageOfRegion(0, l.descriptorBlock()),
    ]
    this.change(pages, null, true)
    if (this.cfg.syncNamespace && this.writeMeta(t, [inodePage, dirPage]))
      return { kind: 'wait-writeback', file: this.meta! }
    return { kind: 'done' }
  }
}
