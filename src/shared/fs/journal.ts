import type { Handler } from '../sim/engine'
import { Timer } from '../sim/engine'
import type { SimTime } from '../sim/time'
import type { SlotWaiter } from '../block/queue'
import type { Bio, BioOwner, IoContext, IoPrioClass } from '../block/types'
import { IOPRIO_NONE, WRITE } from '../block/types'
import type { SimFile } from '../host/files'
import { BLOCK_SECTORS } from './layout'
import type { FsHost, FsStats, FsTask } from './types'

/** How the journal thread flags its writes for the schedulers. */
export type CommitIo = 'async' | 'sync' | 'sync-for-fsync'

export interface JournalConfig {
  /** The journal thread's name as `ps` shows it ('kjournald', 'jbd2/sda1-8'). */
  name: string
  pid: number
  /** commit=: a transaction is committed this long after it started (ns). */
  commitInterval: SimTime
  /** data=ordered: the transaction's data is on disk before its commit record. */
  ordered: boolean
  /**
   * ordered, ext3 (jbd): the commit thread writes the transaction's dirty data itself; ext4
   * (jbd2 with delayed allocation): it only waits for data already under writeback.
   */
  submitOrderedData: boolean
  io: CommitIo
  /**
   * barrier=1: the device's write cache is flushed before the commit record and the record is
   * forced to the media (jbd: an ordered barrier write; jbd2: REQ_PREFLUSH | REQ_FUA, modelled as
   * a flush before and after it); the record goes to the device past the I/O scheduler, as the
   * block layer's flush machinery sends it.
   */
  barrier: boolean
  /** Block tags one descriptor block holds. */
  tagsPerDescriptor: number
}

/** A journal transaction: the metadata blocks it logs and the files whose data it orders. */
export class Transaction {
  /** Pages of the metadata file (home locations) changed in this transaction. */
  readonly meta = new Set<number>()
  /** Files whose data buffers belong to it (data=ordered). */
  readonly ordered = new Set<SimFile>()
  /** data=journal: data pages logged with it. */
  journaledPages = 0
  /** An fsync waits for it (jbd t_synchronous_commit). */
  syncRequested = false

  constructor(
    readonly tid: number,
    readonly started: SimTime,
  ) {}
}

const PHASE_IDLE = 0
const PHASE_DATA = 1
const PHASE_LOG = 2
const PHASE_COMMIT = 3
const PHASE_FLUSH = 4

/** One step of a commit as it happened, for tests and debugging. */
export interface CommitEvent {
  tid: number
  what: 'start' | 'data-done' | 'log-done' | 'committed'
  at: SimTime
  /** start: why; log-done: journal blocks written. */
  detail: string | number
}

/**
 * The journal (jbd for ext3, jbd2 for ext4) and its commit thread, kjournald / jbd2: a separate
 * I/O context, as the schedulers see it. Changes go into the running transaction; it is committed
 * `commitInterval` after it started (the commit timer), or when an fsync asks for it. A commit
 * runs in phases, each waiting for the previous one's I/O: the ordered data (data=ordered), then
 * the descriptor and the copies of the changed metadata blocks, written one after another into
 * the journal's circular region, then the commit record. Once committed, the metadata blocks are
 * dirty at their home locations and go out with writeback (checkpointing); processes waiting for
 * the transaction wake.
 */
export class Journal implements IoContext, SlotWaiter, BioOwner, Handler {
  readonly pid: number
  readonly name: string
  ioClass: IoPrioClass = IOPRIO_NONE
  ioLevel = 4
  exited = false
  running: Transaction | null = null
  committing: Transaction | null = null
  /** Highest transaction committed (0: none yet). */
  committedTid = 0
  private nextTid = 1
  /** A commit asked for while another was in progress (j_commit_request). */
  private requested = -1
  private phase = PHASE_IDLE
  private pending = 0
  private readonly bios: Bio[] = []
  private idx = 0
  private blocked = false
  private head = 0
  private logged = 0
  /** First sector and size (blocks) of the journal's circular region. */
  private start = 0
  private blocks = 1
  private readonly timer: Timer
  private readonly waiters: { t: FsTask; tid: number; k: number }[] = []
  /** Metadata file whose pages become dirty once a transaction is committed. */
  metaFile: SimFile | null = null
  /** Recorded commit steps (kept only when `log` is set). */
  log: CommitEvent[] | null = null

  constructor(
    private readonly cfg: JournalConfig,
    private readonly host: FsHost,
    private readonly stats: FsStats,
  ) {
    this.pid = cfg.pid
    this.name = cfg.name
    this.timer = new Timer(host.engine, this, 0)
  }

  /** Where the journal lies (the file system places it when it lays itself out). */
  setRegion(start: number, blocks: number): void {
    this.start = start
    this.blocks = Math.max(1, blocks)
    this.head = 0
  }

  get ordered(): boolean {
    return this.cfg.ordered
  }

  get tid(): number {
    return this.running?.tid ?? -1
  }

  /** The running transaction, started (with its commit timer) if there is none. */
  handle(): Transaction {
    let t = this.running
    if (t === null) {
      const now = this.host.engine.now
      t = this.running = new Transaction(this.nextTid++, now)
      this.timer.set(now + this.cfg.commitInterval)
    }
    return t
  }

  /** The commit timer: the running transaction is old enough. */
  onEvent(): void {
    this.timer.fired()
    const t = this.running
    if (t !== null) this.request(t.tid, 'timer')
  }

  /**
   * fsync: sleep until transaction `tid` is committed; false if it already is. `t` is resumed
   * with `k`.
   */
  waitFor(t: FsTask, tid: number, k: number): boolean {
    if (tid <= this.committedTid) return false
    if (this.running !== null && this.running.tid === tid) this.running.syncRequested = true
    this.waiters.push({ t, tid, k })
    this.request(tid, 'fsync')
    return true
  }

  private request(tid: number, why: string): void {
    if (this.committing !== null) {
      if (this.running !== null && tid >= this.running.tid) this.requested = Math.max(this.requested, tid)
      return
    }
    if (this.running !== null && this.running.tid <= tid) this.commit(why)
  }

  private note(tid: number, what: CommitEvent['what'], detail: string | number): void {
    this.log?.push({ tid, what, at: this.host.engine.now, detail })
  }

  // --- the commit (journal_commit_transaction), phase by phase ---

  private commit(why: string): void {
    const t = this.running!
    this.running = null
    this.timer.clear()
    this.committing = t
    this.note(t.tid, 'start', why)
    this.phase = PHASE_DATA
    if (this.cfg.ordered && this.cfg.submitOrderedData) {
      const cache = this.host.cache
      for (const f of t.ordered) cache.writebackPages(f, f.dirty, this.syncIo(t), this, this.bios, 0)
    }
    if (this.submit()) this.dataWritten()
  }

  private syncIo(t: Transaction): boolean {
    return this.cfg.io === 'sync' || (this.cfg.io === 'sync-for-fsync' && t.syncRequested)
  }

  /** Pages of a file finished writing: the ordered-data phase may be over. */
  pagesWritten(f: SimFile): void {
    const t = this.committing
    if (this.phase === PHASE_DATA && !this.blocked && t !== null && t.ordered.has(f)) this.dataWritten()
  }

  private dataWritten(): void {
    const t = this.committing!
    if (this.cfg.ordered) for (const f of t.ordered) if (f.writeback > 0) return
    this.note(t.tid, 'data-done', '')
    this.phase = PHASE_LOG
    const blocks = t.meta.size + t.journaledPages
    const n = Math.max(1, Math.ceil(blocks / this.cfg.tagsPerDescriptor)) + blocks
    this.stats.journalBlocks += n
    this.logged = n
    this.logBlocks(n, this.syncIo(t))
    if (this.submit() && this.pending === 0) this.logWritten()
  }

  private logWritten(): void {
    const t = this.committing!
    this.note(t.tid, 'log-done', this.logged)
    if (this.cfg.barrier) {
      this.phase = PHASE_FLUSH
      this.host.queue.flush(() => this.commitRecord())
    } else this.commitRecord()
  }

  private commitRecord(): void {
    const t = this.committing!
    this.phase = PHASE_COMMIT
    this.stats.journalBlocks++
    this.logBlocks(1, this.syncIo(t))
    if (this.cfg.barrier) {
      // a barrier / REQ_FUA write: past the scheduler, straight to the device
      const q = this.host.queue
      for (const b of this.bios) q.submitBypass(b)
      this.bios.length = 0
      return
    }
    if (this.submit() && this.pending === 0) this.recordWritten()
  }

  private recordWritten(): void {
    if (this.cfg.barrier) {
      this.phase = PHASE_FLUSH
      this.host.queue.flush(() => this.committed())
    } else this.committed()
  }

  private committed(): void {
    const t = this.committing!
    this.committing = null
    this.phase = PHASE_IDLE
    this.committedTid = t.tid
    this.stats.commits++
    this.note(t.tid, 'committed', '')
    // Checkpoint: the logged metadata blocks are dirty at home, for writeback to write.
    const meta = this.metaFile
    if (meta !== null) {
      const now = this.host.engine.now
      for (const p of t.meta) this.host.cache.dirtyPages(meta, p, 1, now)
    }
    const w = this.waiters
    for (let i = 0; i < w.length;) {
      if (w[i].tid <= t.tid) {
        const x = w[i]
        w.splice(i, 1)
        x.t.resume(x.k)
      } else i++
    }
    if (this.running !== null && this.requested >= this.running.tid) {
      this.requested = -1
      this.commit('fsync')
    }
  }

  /** `n` blocks at the journal head, wrapping at the end of the region, as few bios as can be. */
  private logBlocks(n: number, sync: boolean): void {
    const q = this.host.queue
    const maxBlocks = Math.max(1, Math.floor(q.maxPageSectors / BLOCK_SECTORS))
    let left = n
    while (left > 0) {
      const run = Math.min(left, this.blocks - this.head, maxBlocks)
      const sector = this.start + this.head * BLOCK_SECTORS
      this.bios.push(q.makeBio(sector, run * BLOCK_SECTORS, WRITE, sync, this, this, null, 0, true))
      this.pending++
      this.head = (this.head + run) % this.blocks
      left -= run
    }
  }

  bioDone(): void {
    if (--this.pending > 0 || this.blocked) return
    if (this.phase === PHASE_LOG) this.logWritten()
    else if (this.phase === PHASE_COMMIT) this.recordWritten()
  }

  private submit(): boolean {
    const q = this.host.queue
    while (this.idx < this.bios.length) {
      if (!q.submit(this.bios[this.idx++], this)) {
        this.blocked = true
        return false
      }
    }
    this.bios.length = 0
    this.idx = 0
    return true
  }

  slotGranted(): void {
    this.blocked = false
    if (!this.submit()) return
    if (this.phase === PHASE_DATA) this.dataWritten()
    else if (this.pending === 0) {
      if (this.phase === PHASE_LOG) this.logWritten()
      else if (this.phase === PHASE_COMMIT) this.recordWritten()
    }
  }
}
