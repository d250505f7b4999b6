import { BlockQueue } from '../block/queue'
import type { SlotWaiter } from '../block/queue'
import { SECTOR } from '../block/types'
import type { Bio, BioOwner, DeviceInfo, IoContext, IoPrioClass, Request } from '../block/types'
import { findScheduler } from '../schedulers/registry'
import type { Engine } from '../sim/engine'
import type { Rng } from '../sim/rng'
import type { SimTime } from '../sim/time'
import type { Device } from './device'
import type { BackingConfig } from './backing-params'
import { W_BACKING_CLASS, W_CLASS } from '../block/waits'
import type { WaitKind, WaitObserver } from '../block/waits'

/**
 * The block device under a stacked one — the virtio disk a loop device's backing file lives on —
 * with its own I/O scheduler and its own driver limits. What the loop device's worker submits to
 * the backing file reaches this queue as bios (direct I/O: REQ_SYNC reads and writes, iomap's
 * dio), where the backing device's scheduler orders, merges and holds them exactly as it would a
 * process's; its driver then takes them while its ring has room. Each of the upper device's
 * requests completes once its bio here has.
 *
 * The ring: a virtio queue without indirect descriptors holds one descriptor per segment of a
 * request plus two (its header and status), so a few large writes fill it (virtio_blk.c
 * virtblk_add_req, virtqueue_add_sgs; the device offers seg_max = queue size − 2, which the guest
 * reads back as queue/max_segments). While it is full, the backing scheduler holds the rest — and
 * mq-deadline, in the middle of a batch of sequential writes, goes on handing down writes until
 * `fifo_batch` of them have gone (block/mq-deadline.c dd_dispatch_request: "we have a next
 * request and are still entitled to batch"), so a read waits for the batch.
 */
export class BackingStack implements Device, BioOwner, SlotWaiter, WaitObserver {
  readonly info: DeviceInfo
  /** Requests of the backing queue at its driver (the service has them). */
  inFlight = 0
  readonly queue: BlockQueue
  /** Ring descriptors in use (ringSlots 0: not counted). */
  private ringUsed = 0
  /** Bios that found no free request slot, in order; the first is the queue's to resume. */
  private readonly held: Bio[] = []
  private waiting = false

  constructor(
    private readonly cfg: BackingConfig,
    engine: Engine,
    rng: Rng,
    hz: number,
    /** Bytes of a request's contiguous segment (drawn for the run). */
    private readonly segmentBytes: number,
    /** Bytes of a contiguous run of page-cache memory (the host's folio). */
    private readonly cacheSegmentBytes: number,
    /** The upper device: the backing queue takes at least its largest requests. */
    upper: DeviceInfo,
    /** Serve a request of the backing queue; call `served` when done. */
    private readonly serve: (rq: Request, now: SimTime) => void,
    /** An upper request's bio has completed here. */
    private readonly done: (upper: Request, now: SimTime) => void,
    /** The keeper of the upper device's waits, when it has one (its sink's). */
    private readonly above: () => WaitObserver | null | undefined = () => null,
  ) {
    const type = findScheduler(cfg.scheduler)
    if (!type)
      throw new Error(`backing device ${cfg.name}: unknown scheduler ${JSON.stringify(cfg.scheduler)}`)
    this.info = {
      name: cfg.name,
      capacitySectors: Number.MAX_SAFE_INTEGER,
      rotational: cfg.rotational,
      queueDepth: cfg.queueDepth,
      // max_sectors_kb, and the segments a ring can hold (virtio offers seg_max = ring − 2, so a
      // merge never grows a request past what one ring takes); never less than what comes from
      // above. The loop worker hands the upper request's pages on as they are (drivers/block/loop.c
      // lo_rw_aio: its bio_vecs become the backing bio's), so page-cache pages still count one each.
      maxTransferSectors: Math.max(upper.maxTransferSectors, this.segmentBound(segmentBytes)),
      pageMaxSectors: Math.max(upper.pageMaxSectors ?? upper.maxTransferSectors, this.segmentBound(4096)),
    }
    this.queue = new BlockQueue(
      engine,
      {
        nrRequests: cfg.nrRequests,
        layer: type.layer,
        hz,
        scheduler: type.name,
        driverTags: type.driverTags ?? false,
      },
      rng,
    )
    this.queue.setDevice(this)
    this.queue.setScheduler(type.create(cfg.tunables, this.queue))
    this.queue.waits = this
  }

  /**
   * A backing request waited: each upper request in it did, as the device above counts them (a
   * higher class held it here, at the disk: W_BACKING_CLASS).
   */
  waited(rq: Request, kind: WaitKind, ns: SimTime): void {
    const w = this.above()
    if (!w) return
    const k = kind === W_CLASS ? W_BACKING_CLASS : kind
    for (let b = rq.bioHead; b !== null; b = b.next) w.waited(b.ref as Request, k, ns)
  }

  happened(kind: WaitKind, ns: SimTime): void {
    this.above()?.happened(kind, ns)
  }

  /** max_sectors_kb, or fewer: ring − 2 segments of `bytes` each (sectors). */
  private segmentBound(bytes: number): number {
    const c = this.cfg
    return c.ringSlots > 2
      ? Math.min(c.maxTransferSectors, Math.floor(((c.ringSlots - 2) * bytes) / SECTOR))
      : c.maxTransferSectors
  }

  /**
   * Hand an upper request to the backing device, as the loop worker's direct I/O does — under the
   * worker's plug, so the queue is run from the worker when it is inserted (fs/iomap/direct-io.c
   * __iomap_dio_rw: blk_start_plug … blk_finish_plug; block/blk-mq.c blk_mq_flush_plug_list →
   * queue_rq, Linux 6.18): what the driver does with it, the worker does (virtual.ts handWork).
   */
  submit(upper: Request): void {
    const q = this.queue
    const ctx = this.cfg.inheritIoprio ? workerContext(upper.ioClass, upper.ioLevel) : LOOP_WORKER
    const bio = q.makeBio(upper.sector, upper.nsect, upper.op, true, ctx, this, upper, 0, upper.pages)
    if (this.waiting) {
      this.held.push(bio)
      return
    }
    q.plug()
    if (!q.submit(bio, this)) this.waiting = true
    q.unplug(0)
  }

  slotGranted(): void {
    this.waiting = false
    while (this.held.length > 0 && !this.waiting) {
      if (!this.queue.submit(this.held.shift()!, this)) this.waiting = true
    }
  }

  bioDone(bio: Bio, now: SimTime): void {
    this.done(bio.ref as Request, now)
  }

  /**
   * Descriptors a request takes in the ring: its segments and two. The driver maps the request's
   * memory joining physically adjacent pages (block/blk-merge.c __blk_rq_map_sg), so page-cache
   * pages take a descriptor per contiguous run of the cache's memory.
   */
  slots(rq: Request): number {
    if (!rq.pages) return 2 + Math.ceil((rq.nsect * SECTOR) / this.segmentBytes)
    const runs = pageRuns(rq)
    return 2 + (runs > 0 ? runs : Math.ceil((rq.nsect * SECTOR) / this.cacheSegmentBytes))
  }

  accepts(rq: Request): boolean {
    return (
      this.cfg.ringSlots <= 0 || this.inFlight === 0 || this.ringUsed + this.slots(rq) <= this.cfg.ringSlots
    )
  }

  start(rq: Request, now: SimTime): void {
    this.inFlight++
    if (this.cfg.ringSlots > 0) this.ringUsed += this.slots(rq)
    this.serve(rq, now)
  }

  /** The service is done with a request of the backing queue. */
  served(rq: Request, now: SimTime): void {
    this.inFlight--
    if (this.cfg.ringSlots > 0) this.ringUsed -= this.slots(rq)
    this.queue.deviceCompleted(rq, now)
  }
}

/** The loop device's worker, the one task the backing device sees (drivers/block/loop.c). */
const LOOP_WORKER: IoContext = { pid: 9, name: 'loop-worker', ioClass: 0, ioLevel: 4, exited: false }

/**
 * The worker as the backing device sees it under an upper request's I/O priority: the kernel
 * copies the request's priority into the worker's kiocb (lo_rw_aio, 6.15+), and the backing bios
 * carry it (backing-params.ts, backingIoprio). One context per class and level, all the same task.
 */
const WORKER_BY_PRIO: IoContext[] = []
function workerContext(ioClass: IoPrioClass, ioLevel: number): IoContext {
  const k = ioClass * 8 + ioLevel
  return (WORKER_BY_PRIO[k] ??= { ...LOOP_WORKER, ioClass, ioLevel })
}

/**
 * The runs of memory of a request of page-cache pages here, from the upper device's bios it
 * carries (their owner knows how their pages were allocated: BioOwner.memoryRuns); 0 when some
 * owner does not tell (a journal's blocks), for the folio-sized estimate. Pages written in order
 * make a run or two per request; pages written at random, a run a page — measured on this machine
 * (Linux 6.18, loop device on the virtio disk, BLKFLSBUF of 256 MiB of dirty pages): 138–145 ms
 * when a 1 MiB writer had dirtied them in order, 142–181 ms for a 4 KiB writer in order, 195–215 ms
 * for one writing 4 KiB at random (2026-12-06).
 */
function pageRuns(rq: Request): number {
  let runs = 0
  for (let b = rq.bioHead; b !== null; b = b.next) {
    const upper = b.ref as Request
    for (let u = upper.bioHead; u !== null; u = u.next) {
      const n = u.owner?.memoryRuns?.(u)
      if (n === undefined) return 0
      runs += n
    }
  }
  return runs
}
