import type { SimTime } from '../../sim/time'
import { RequestFifo } from '../../block/fifo'
import { SectorIndex } from '../../block/sector-index'
import type { IoContext, Request } from '../../block/types'
import type { ParamValues } from '../../util/params'
import { Idle } from '../scheduler'
import type { IoScheduler, SchedulerContext } from '../scheduler'
import { ANTIC_WAIT_NEXT, ANTIC_WAIT_REQ, Anticipation } from './anticipation'
import { chooseRequest, findNextRequest } from './elevator'
import { AsIoContext, ProcessHistory } from './io-context'
import { ASYNC, asJiffies, Jiffies, SYNC } from './tunables'
import { nextWriteBatchCount } from './write-batch'
import type { AsDir } from './tunables'

const dirOf = (rq: Request): AsDir => (rq.sync ? SYNC : ASYNC)
const owner = (rq: Request): AsIoContext => rq.sched as AsIoContext

/**
 * The anticipatory scheduler (block/as-iosched.c and Documentation/block/as-iosched.txt of the
 * 2.6.16 era; followed step by step from the 2.6.18 source, whose algorithm 2.6.16 shares — the
 * 2.6.16 file itself was not compared line by line). Deadline's machinery — per
 * direction a sector-sorted index and a FIFO, each request in both on purpose — run as batches of
 * reads (sync) and of writes (async), plus anticipation: after a process's read completes, the disk
 * may stay idle a few ms for that process's next, nearby read instead of seeking away.
 *
 * Time is kept in jiffies, as the kernel does (`Jiffies` at the host's HZ): expiries, think times and
 * the anticipation timer all have the kernel's tick granularity. `rq.sched` holds the request's
 * process (its AsIoContext); `rq.schedInt` its FIFO expiry in jiffies (`rq.fifoTime` the same in ns).
 *
 * One head: AS was written for a disk that serves one request at a time. On a device that queues
 * more it behaves as the kernel did on TCQ/NCQ disks: while the read it anticipates after is still
 * in flight (WAIT_REQ) it dispatches nothing else for the read batch, so reads from different
 * processes go one at a time; a process's own queued requests, close requests and writes in a write
 * batch do fill the device's queue.
 */
export class Anticipatory implements IoScheduler {
  /** as_merge looks up front merges in the sort tree. */
  readonly frontMerges = true
  private readonly sorted = [new SectorIndex(), new SectorIndex()]
  private readonly fifo = [new RequestFifo(), new RequestFifo()]
  /** next_arq: the request to follow the last dispatched one, in elevator order, per direction. */
  private readonly nextRq: (Request | null)[] = [null, null]
  /** The end sector of the last request dispatched, per direction: the head position. */
  private readonly lastSector = [0, 0]
  private readonly lastCheckFifo = [0, 0]
  private readonly fifoExpire: [number, number]
  private readonly batchExpire: [number, number]
  private readonly anticExpire: number
  /** Direction of the current batch. The kernel's zeroed as_data starts as an (empty) write batch. */
  private batchDir: AsDir = ASYNC
  private currentBatchExpires: number
  /** A new batch was chosen; waiting for the old one's requests to complete. */
  private changedBatch = false
  /** A read batch has begun; its clock starts at its first completion. */
  private newBatch = false
  /** Writes allowed per write batch: auto-tuned so a write batch lasts about write_batch_expire. */
  private writeBatchCount: number
  private currentWriteCount = 0
  /** The write batch ran out of work, so its length says nothing about the write rate. */
  private writeBatchIdled = false
  private readonly contexts = new Map<number, AsIoContext>()
  private readonly hist: ProcessHistory
  private readonly antic: Anticipation
  private readonly clock: Jiffies
  private readonly idle = new Idle()

  constructor(
    t: ParamValues,
    private readonly ctx: SchedulerContext,
  ) {
    const j = asJiffies(t, ctx.hz)
    this.fifoExpire = j.fifoExpire
    this.batchExpire = j.batchExpire
    this.anticExpire = j.anticExpire
    this.clock = new Jiffies(ctx.hz)
    this.hist = new ProcessHistory(Math.floor(ctx.hz / 50))
    this.antic = new Anticipation(ctx, this.clock, this.anticExpire, this.hist)
    this.currentBatchExpires = this.clock.at(ctx.engine.now) + this.batchExpire[SYNC]
    this.writeBatchCount = Math.max(2, Math.floor(this.batchExpire[ASYNC] / 10))
  }

  hasWork(): boolean {
    return this.fifo[SYNC].size > 0 || this.fifo[ASYNC].size > 0
  }

  /** as_add_request: account the request to its process, index it twice, then update next_arq. */
  insert(rq: Request, now: SimTime): void {
    const j = this.clock.at(now)
    const dir = dirOf(rq)
    const aic = this.contextOf(rq.ctx)
    rq.sched = aic
    this.hist.update(aic, rq, j)
    aic.nrQueued++
    this.sorted[dir].insert(rq)
    rq.schedInt = j + this.fifoExpire[dir]
    rq.fifoTime = this.clock.start(rq.schedInt)
    this.fifo[dir].push(rq)
    this.updateRequest(rq, j)
  }

  /** as_update_arq: keep next_arq current; a request worth serving now ends the wait. */
  private updateRequest(rq: Request, j: number): void {
    const dir = dirOf(rq)
    this.nextRq[dir] = chooseRequest(this.lastSector[dir], rq, this.nextRq[dir])
    if (this.antic.waiting && this.antic.canBreak(rq, j, this.lastSector[this.batchDir])) this.antic.stop()
  }

  /**
   * as_completed_request. The old batch has drained when nothing is left in flight; a read batch's
   * clock starts at its first completion (when the reader is actually being served), and that is
   * also when the last write batch is judged and the write batch size retuned.
   */
  completed(rq: Request, now: SimTime): void {
    const j = this.clock.at(now)
    if (this.changedBatch && this.ctx.inFlight() === 0) {
      // The 2.6.18 source did not restart the batch clock here, so at queue depth > 1 a write batch
      // that waited for reads to drain began already expired (and writes could starve); 2.6.2x
      // kernels set it, as we do. Identical at queue depth 1.
      this.currentBatchExpires = j + this.batchExpire[this.batchDir]
      this.changedBatch = false
      if (this.batchDir === SYNC) this.newBatch = true
    }
    if (this.newBatch && this.batchDir === dirOf(rq)) {
      this.updateWriteBatch(j)
      this.currentBatchExpires = j + this.batchExpire[SYNC]
      this.newBatch = false
    }
    this.antic.completed(owner(rq), j)
    this.putIoContext(rq, j)
    // The block layer runs dispatch next if anything is queued (the kernel's kblockd work).
  }

  /** as_put_io_context: the process has had a sync request finish — think time counts from now. */
  private putIoContext(rq: Request, j: number): void {
    if (!rq.sync) return
    const aic = owner(rq)
    aic.ioRunning = true
    aic.lastEndRequest = j
  }

  /** update_write_batch, at each read batch's first completion: retune the writes per write batch. */
  private updateWriteBatch(j: number): void {
    const batch = this.batchExpire[ASYNC]
    const writeTime = Math.max(0, j - this.currentBatchExpires + batch) // since the write batch began
    this.writeBatchCount = nextWriteBatchCount(
      this.writeBatchCount,
      writeTime,
      batch,
      this.writeBatchIdled,
      this.currentWriteCount === 0,
    )
  }

  /** as_merged_request: a front merge moved the request's start; re-sort it (next_arq is left as is). */
  merged(rq: Request, front: boolean, _now: SimTime, oldSector: number): void {
    if (!front) return
    const idx = this.sorted[dirOf(rq)]
    idx.remove(rq, oldSector)
    idx.insert(rq)
  }

  /**
   * as_merged_requests: `next` joins `rq`. If next would expire first, rq takes its FIFO place and
   * deadline — and its process (swap_io_context), so the survivor is accounted to next's owner.
   */
  mergedRequests(rq: Request, next: Request, now: SimTime): void {
    const dir = dirOf(next)
    if (dirOf(rq) === dir && next.schedInt < rq.schedInt) {
      this.fifo[dir].replace(next, rq)
      rq.schedInt = next.schedInt
      const a = rq.sched
      rq.sched = next.sched
      next.sched = a
    } else {
      this.fifo[dir].remove(next)
    }
    rq.fifoTime = this.clock.start(rq.schedInt)
    this.removeQueued(next)
    // dropping next's io context reference marks a sync request's process as having had I/O end
    this.putIoContext(next, this.clock.at(now))
  }

  /** as_remove_queued_request (FIFO handled by the caller): uncount it, advance next_arq past it, unsort it. */
  private removeQueued(rq: Request): void {
    const dir = dirOf(rq)
    owner(rq).nrQueued--
    if (this.nextRq[dir] === rq)
      this.nextRq[dir] = findNextRequest(this.sorted[dir], rq, this.lastSector[dir])
    this.sorted[dir].remove(rq)
  }

  /** Process exit (exit_as_io_context): AS only notes it; whether to still wait is decided case by case. */
  contextExited(pid: number, _now: SimTime): void {
    const aic = this.contexts.get(pid)
    if (aic === undefined) return
    aic.running = false
    this.contexts.delete(pid) // queued requests and the anticipation state still hold it
  }

  private contextOf(c: IoContext): AsIoContext {
    let aic = this.contexts.get(c.pid)
    if (aic === undefined) {
      aic = new AsIoContext(c.pid)
      aic.running = !c.exited
      this.contexts.set(c.pid, aic)
    }
    return aic
  }

  /**
   * as_dispatch_request: the next request for the device, step by step. Returns an Idle while the
   * disk is deliberately kept idle (anticipating), undefined when there is nothing to do now.
   */
  dispatch(now: SimTime): Request | Idle | undefined {
    const j = this.clock.at(now)
    const reads = this.fifo[SYNC].size > 0
    const writes = this.fifo[ASYNC].size > 0
    // 1. A write batch that finds no reads waiting and no writes to send has gone idle: it cannot be timed.
    if (this.batchDir === ASYNC && !reads && (this.currentWriteCount === 0 || !writes))
      this.writeBatchIdled = true
    // 2. Nothing queued; or anticipating (the disk idles on purpose); or the old batch is still draining.
    if (!reads && !writes) return undefined
    if (this.antic.status === ANTIC_WAIT_NEXT) return this.idleUntil(this.antic.deadline)
    if (this.antic.status === ANTIC_WAIT_REQ || this.changedBatch) return undefined
    // 3. The current batch goes on, unless both directions wait and it has expired: next_arq.
    const goOn = !(reads && writes && this.batchExpired(j))
    let rq = goOn ? this.nextRq[this.batchDir] : null
    let fifoDue = false
    if (goOn && this.batchDir === SYNC && this.anticExpire > 0) {
      // 3a. an expired read (looked for at most once per read_expire) is served first;
      fifoDue = this.fifoExpired(SYNC, j)
      // 3b. else, if the last reader will likely send something better than rq soon, wait for it.
      if (!fifoDue && this.antic.canAnticipate(rq, j, this.lastSector[SYNC])) return this.anticipate()
    }
    // 3c. reads without competing writes: the read batch is kept alive.
    if (rq !== null && !fifoDue && reads && !writes) this.currentBatchExpires = j + this.batchExpire[SYNC]
    // 4. No batch to continue: choose a direction and start a batch.
    if (rq === null && !fifoDue) rq = this.startBatch(j, reads, writes)
    // 5. An expired request of the batch's direction (checked at most once per fifo_expire) goes first.
    if (fifoDue || this.fifoExpired(this.batchDir, j)) rq = this.fifo[this.batchDir].head!
    // 6. A new batch starts only once the old one has completed: the write batch clock starts now,
    //    a read batch's at its first completion.
    if (this.changedBatch) {
      if (this.ctx.inFlight() > 0) return undefined
      if (this.batchDir === ASYNC) this.currentBatchExpires = j + this.batchExpire[ASYNC]
      else this.newBatch = true
      this.changedBatch = false
    }
    this.moveToDispatch(rq!)
    return rq!
  }

  /** Step 4: after a read batch, pending writes get a batch; otherwise a read batch from the oldest read. */
  private startBatch(j: number, reads: boolean, writes: boolean): Request {
    if (reads && !(writes && this.batchDir === SYNC)) {
      if (this.batchDir === ASYNC) this.changedBatch = true
      this.batchDir = SYNC
      this.lastCheckFifo[SYNC] = j
      return this.fifo[SYNC].head!
    }
    if (this.batchDir === SYNC) {
      this.changedBatch = true
      this.newBatch = false // a read batch that ran out of reads may not have seen a completion yet
    }
    this.batchDir = ASYNC
    this.currentWriteCount = this.writeBatchCount
    this.writeBatchIdled = false
    return this.nextRq[ASYNC] ?? this.fifo[ASYNC].head!
  }

  /** as_batch_expired: a read batch expires on time; a write batch on time or when its count is used. */
  private batchExpired(j: number): boolean {
    if (this.changedBatch || this.newBatch) return false
    if (this.batchDir === SYNC) return j > this.currentBatchExpires
    return j > this.currentBatchExpires || this.currentWriteCount === 0
  }

  /**
   * as_fifo_expired: has the oldest request of `dir` passed its deadline? Looked at no more than once
   * per fifo_expire — a crowd of expired requests must not turn into a storm of seeks.
   */
  private fifoExpired(dir: AsDir, j: number): boolean {
    if (j - this.lastCheckFifo[dir] < this.fifoExpire[dir]) return false
    this.lastCheckFifo[dir] = j
    const head = this.fifo[dir].head
    return head !== null && j > head.schedInt
  }

  /** Start (or keep) waiting; the disk idles until the anticipation timer, if it runs yet. */
  private anticipate(): Idle | undefined {
    this.antic.waitReq()
    return this.antic.status === ANTIC_WAIT_NEXT ? this.idleUntil(this.antic.deadline) : undefined
  }

  private idleUntil(t: SimTime): Idle {
    this.idle.until = t
    return this.idle
  }

  /**
   * as_move_to_dispatch: the head moves to the request's end; a sync request's process becomes the
   * one to anticipate; a write uses up one of the batch's writes; next_arq moves past it.
   */
  private moveToDispatch(rq: Request): void {
    const dir = dirOf(rq)
    const aic = owner(rq)
    this.antic.dispatched(dir === SYNC ? aic : null)
    if (dir === ASYNC && this.currentWriteCount !== 0) this.currentWriteCount--
    this.lastSector[dir] = rq.end
    this.nextRq[dir] = findNextRequest(this.sorted[dir], rq, this.lastSector[dir])
    this.fifo[dir].remove(rq)
    this.removeQueued(rq)
    // (the kernel counts it in aic.nrDispatched until the driver takes it, as_activate_request;
    // the block layer starts it on the device right away, so that count stays 0)
  }
}
