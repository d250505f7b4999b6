import type { SimTime } from '../sim/time'

/** Data direction. Numbers, not strings: they index per-direction arrays on the hot path. */
export const READ = 0
export const WRITE = 1
export type Op = typeof READ | typeof WRITE

/** I/O priority classes as the kernel numbers them (IOPRIO_CLASS_*). */
export const IOPRIO_NONE = 0
export const IOPRIO_RT = 1
export const IOPRIO_BE = 2
export const IOPRIO_IDLE = 3
export type IoPrioClass = 0 | 1 | 2 | 3
export const IOPRIO_CLASS_NAMES = ['none', 'rt', 'be', 'idle'] as const

/** A sector is 512 bytes, as in the kernel. */
export const SECTOR = 512

/**
 * The issuing context of I/O, what the kernel calls a task's io_context: schedulers that keep
 * per-process state (AS, CFQ, BFQ) key it by `pid`. Kernel threads (the writeback flusher) are
 * contexts too.
 */
export interface IoContext {
  readonly pid: number
  readonly name: string
  ioClass: IoPrioClass
  /** 0 (highest) … 7 (lowest). */
  ioLevel: number
  /** Set when the process has exited; schedulers stop anticipating it. */
  exited: boolean
}

/** Whoever is told when a bio's data transfer has finished (page cache, direct I/O, aio). */
export interface BioOwner {
  bioDone(bio: Bio, now: SimTime): void
  /**
   * How many physically contiguous runs the bio's memory makes, where the owner knows (the page
   * cache: its pages as they were allocated). A driver maps a request's memory joining adjacent
   * pages (block/blk-merge.c __blk_rq_map_sg), so this is the descriptors its data takes.
   */
  memoryRuns?(bio: Bio): number
}

/** A contiguous transfer for one owner. Pooled by the block layer; fields are reset on reuse. */
export class Bio {
  sector = 0
  nsect = 0
  op: Op = READ
  sync = false
  ctx: IoContext = NO_CONTEXT
  owner: BioOwner | null = null
  /** Owner's cookie (a page index, an aio slot …). */
  tag = 0
  /** Owner's object cookie. */
  ref: unknown = null
  submitted: SimTime = 0
  next: Bio | null = null
  /**
   * Its memory is pages of the page cache (or a journal's, or swap's) sent a block at a time — a
   * buffer head's bio per page — so each page counts as a segment of its own; else it is a
   * process's buffer (direct I/O), whose physically adjacent pages share a segment.
   */
  pages = false
  /** Counted by writeback throttling (wbt.ts): it took one of its slots. */
  wbt = false
}

/**
 * A request: one or more contiguous bios in one direction, the unit the scheduler orders and the
 * device serves. It sits in the block layer's merge hashes while queued and in whatever indexes
 * its scheduler keeps (deadline: a sector-sorted list and a FIFO — two on purpose).
 */
export class Request {
  /** Unique, increasing in allocation order; also the tie-breaker for equal sectors. */
  id = 0
  sector = 0
  nsect = 0
  op: Op = READ
  sync = false
  ctx: IoContext = NO_CONTEXT
  ioClass: IoPrioClass = IOPRIO_NONE
  ioLevel = 4
  /** First bio's submission time (Q in blktrace). */
  queuedAt: SimTime = 0
  /** Inserted into the scheduler (I). */
  insertedAt: SimTime = 0
  /** Handed to the device (D). */
  dispatchedAt: SimTime = 0
  /** Scheduler's FIFO deadline (deadline, AS, CFQ): absolute time. */
  fifoTime: SimTime = 0
  bioHead: Bio | null = null
  bioTail: Bio | null = null
  /** Intrusive FIFO links — a request is in at most one scheduler FIFO at a time. */
  fifoPrev: Request | null = null
  fifoNext: Request | null = null
  /** Free slot for a scheduler's per-request state (its queue, its domain…). */
  sched: unknown = null
  schedInt = 0
  /** For the device's own use (arrival time, decoded position …). */
  devInt = 0
  /** For the device's own use, a second number (a virtual device: the host's stall time at its start). */
  devMark = 0
  /** The queue's held clock at its insertion (block/waits.ts HeldClock), where the queue keeps one. */
  heldMark = 0
  /** The queue's clock of waits for a run at its insertion (BlockQueue.runless), where it keeps one. */
  runlessMark = 0
  /**
   * Its service (dispatch to completion) split into the device's parts, ns, indexed as
   * `Device.parts`, filled by the device (device-parts.ts); null when the run keeps none. Only the
   * parts whose bit is set in `devMask` hold this dispatch's time (the others are stale: nothing
   * clears them, so a request costs only the parts it has). Set up by the block layer at dispatch.
   * A device that takes its parts itself (Device.takeParts) fills them its own way (flash-parts.ts).
   */
  devParts: Float64Array | null = null
  devMask = 0
  /** How far its service has been split into parts (the time of the device's last mark). */
  devAt: SimTime = 0
  /** Dispatched past the scheduler (a flush-sequence write: REQ_PREFLUSH / REQ_FUA). */
  bypass = false
  /** Made of page-cache pages, a segment each (`Bio.pages`). */
  pages = false
  /** Holds one of writeback throttling's slots until it completes or is merged away. */
  wbt = false
  /** For the run's metrics: whatever the block layer's observer keeps for it (its process's account). */
  stat: unknown = null
  /** Life cycle, checked by the block layer's invariants. */
  state: RequestState = RQ_FREE

  get end(): number {
    return this.sector + this.nsect
  }

  /** Filled for `bio` (its only bio), as request `id` inserted at `insertedAt`: queued, the rest reset. */
  fill(id: number, bio: Bio, insertedAt: SimTime): this {
    this.id = id
    this.sector = bio.sector
    this.nsect = bio.nsect
    this.op = bio.op
    this.sync = bio.sync
    this.ctx = bio.ctx
    this.ioClass = bio.ctx.ioClass
    this.ioLevel = bio.ctx.ioLevel
    this.queuedAt = bio.submitted
    this.insertedAt = insertedAt
    this.dispatchedAt = this.fifoTime = 0
    this.bioHead = this.bioTail = bio
    bio.next = null
    this.sched = null
    this.schedInt = this.devInt = this.devMark = this.heldMark = this.runlessMark = 0
    this.stat = null
    this.bypass = false
    this.pages = bio.pages
    this.wbt = bio.wbt
    this.state = RQ_QUEUED
    return this
  }
}

/** Request life cycle: free in the pool, queued in the scheduler, dispatched to the device. */
export const RQ_FREE = 0
export const RQ_QUEUED = 1
export const RQ_DISPATCHED = 2
export type RequestState = 0 | 1 | 2

export const NO_CONTEXT: IoContext = {
  pid: 0,
  name: 'kernel',
  ioClass: IOPRIO_NONE,
  ioLevel: 4,
  exited: false,
}

/** What a scheduler or device may ask of the block layer around it. */
export interface DeviceInfo {
  readonly name: string
  readonly capacitySectors: number
  readonly rotational: boolean
  /** Commands the device accepts at once (1 for an old IDE disk, 32 with NCQ, deep for NVMe). */
  readonly queueDepth: number
  /** The driver's maximum transfer; larger bios are split (e.g. 64 KiB on the 1997 SCSI system). */
  readonly maxTransferSectors: number
  /**
   * The largest request of page-cache pages (`Bio.pages`), where the driver's segment limit makes
   * it smaller than `maxTransferSectors`: max_segments pages (default: `maxTransferSectors`).
   */
  readonly pageMaxSectors?: number
  /** QUEUE_FLAG_WC: a volatile write cache (queue/write_cache "write back"). Default false. */
  readonly writeCache?: boolean
}
