import type { Engine, Handler } from '../sim/engine'
import { Timer } from '../sim/engine'
import type { SimTime } from '../sim/time'
import type { Rng } from '../sim/rng'
import type { CompletionSink, Device } from '../devices/device'
import type { IoScheduler, SchedulerContext } from '../schedulers/scheduler'
import { Idle } from '../schedulers/scheduler'
import { READ, RQ_DISPATCHED, RQ_QUEUED } from './types'
import type { Bio, Request } from './types'
import type { BlockObserver } from './observer'
import { RequestMerger } from './merge'
import { MqRuns } from './mq-runs'
import { EV_RESUME, RequestSlots } from './request-slots'
import { QueueHolds, W_DELAYED } from './waits'
import type { WaitObserver } from './waits'
import { defaultWbtLatencyNs, WritebackThrottle } from './wbt'
import type { DeviceInfo, Op } from './types'
import type { BlockParams, RunContext, SlotWaiter } from './queue-params'

export type { BlockParams, RunContext, SlotWaiter } from './queue-params'

const EV_RUN = 0
const EV_IDLE = 1
const EV_WBT_GO = 3
const EV_PLUG_RUN = 4

/**
 * The block layer between the host and the device:
 *  - merging (merge.ts): a bio joins a queued request it continues or, with front merges, one it
 *    precedes; requests never grow past the device's maximum transfer.
 *  - `nr_requests` (request-slots.ts, the class it extends): a submitter that finds no free request
 *    slot sleeps until one is freed; this is what lets writeback flood the queue.
 *  - dispatch: while the device has room, ask the scheduler for the next request; a scheduler may
 *    answer Idle (wait until a time), honoured with a timer.
 *  - plugging: a task's bios go in under its plug and merge before the device sees them; its own
 *    run of the queue follows (`plug`). Other runs are events at the current instant, after
 *    everything already scheduled for it.
 */
export class BlockQueue extends RequestSlots implements Handler, CompletionSink, SchedulerContext {
  dev!: Device
  observer: BlockObserver | null = null
  /** The observer keeps the device's parts of each request's service (see `BlockObserver.completed`). */
  wantsParts = false
  /**
   * The CPU context queue runs happen in (the host's CPU scheduler; null: none): a run the
   * submitter kicked is its work, on its CPU — blk_mq_submit_bio issues from the submitter's
   * context, or hands the run to kblockd on that CPU (a single hardware queue:
   * WORK_CPU_UNBOUND) — so a thread the run wakes (a loop device's worker) is woken from there.
   */
  runContext: RunContext | null = null
  private kickContext: unknown = null
  /** `run` bound once: a queue run entered in a context needs it as a function. */
  private readonly runNow = (): void => this.run()
  /**
   * Who keeps the waits of the kernel's machinery here (block/waits.ts: the run's collector, or a
   * backing queue's hand-up to the device above); null: nobody, and nothing is measured.
   */
  waits: WaitObserver | null = null
  /**
   * The scheduler's holding behind a higher priority class, and its held requests' waits for a run,
   * timed (block/waits.ts; null: not such a scheduler).
   */
  private holds: QueueHolds | null = null
  /** A delayed run, armed at `armedAt` (mq-runs.ts). */
  private readonly runDelayed = (armedAt: SimTime): void => {
    this.waits?.happened(W_DELAYED, this.engine.now - armedAt)
    this.run()
  }
  /** Set by `setDevice`. */
  deviceInfo!: DeviceInfo
  maxSectors = 0
  /** The largest request of page-cache pages (`DeviceInfo.pageMaxSectors`). */
  maxPageSectors = 0
  /** Requests inside the scheduler (inserted, not yet dispatched). */
  queued = 0
  /** Requests completed so far. */
  completedCount = 0
  private readonly inFlightDir = [0, 0]
  private readonly merger = new RequestMerger(this)
  private readonly idleTimer: Timer
  /** blk-mq's own re-runs of the queue (restart mark, delayed run); null on the legacy layer. */
  private readonly mqRuns: MqRuns | null
  private kickPending = false
  /** A request went in under the plug: the submitter owes the queue a run. */
  private plugRun = false
  /** Flush-sequence requests waiting for the device, past the scheduler. */
  private readonly bypassList: Request[] = []
  /**
   * A request the scheduler handed down that the driver had no room for (`Device.accepts`): the
   * kernel puts it on the hardware context's dispatch list and serves that list before asking the
   * scheduler again (block/blk-mq-sched.c __blk_mq_sched_dispatch_requests, 6.x). Out of the
   * scheduler, it no longer takes merges.
   */
  private parked: Request | null = null

  constructor(
    engine: Engine,
    params: BlockParams,
    readonly rng: Rng,
  ) {
    super(engine, params)
    this.idleTimer = new Timer(engine, this, EV_IDLE)
    this.mqRuns = this.shared ? new MqRuns(engine, params.hz, this.runDelayed) : null
  }

  /** Connect the device (built with this queue as its completion sink), before the scheduler. */
  setDevice(dev: Device): void {
    this.dev = dev
    this.deviceInfo = dev.info
    if (this.params.driverTags) this.params.nrRequests = dev.info.queueDepth
    this.maxSectors = dev.info.maxTransferSectors
    this.maxPageSectors = dev.info.pageMaxSectors ?? dev.info.maxTransferSectors
    const lat = this.params.wbtLatNs ?? 0
    if (lat !== 0 && this.shared)
      this.wbt = new WritebackThrottle(
        this.engine,
        lat > 0 ? lat : defaultWbtLatencyNs(dev.info.rotational),
        // blk_queue_depth when wbt_init ran: the tags of a queue registered without an elevator
        // (loop: BLK_MQ_F_NO_SCHED_BY_DEFAULT); one switched in later does not tell wbt (only
        // blk_mq_update_nr_requests calls rq_qos_queue_depth_changed) — measured: 96 writeback
        // requests at most under none, and the same reader and writer under mq-deadline and kyber
        dev.info.queueDepth,
        dev.info.writeCache ?? false,
        (bio, waiter) => this.engine.at(this.engine.now, this, EV_WBT_GO, new WbtGo(bio, waiter)),
      )
    dev.schedulerWork?.(this.params.cpuPerRequest ?? 0, this.params.scheduler ?? '')
  }

  /** Connect the scheduler (built with this queue as its context). */
  setScheduler(sched: IoScheduler): void {
    this.sched = sched
    this.holds =
      sched.holdsByClass === true ? new QueueHolds(sched.blocked !== undefined && this.mqRuns !== null) : null
  }

  get hz(): number {
    return this.params.hz
  }

  get nrRequests(): number {
    return this.params.nrRequests
  }

  inFlight(op?: Op): number {
    return op === undefined ? this.inFlightDir[0] + this.inFlightDir[1] : this.inFlightDir[op]
  }

  kick(): void {
    if (this.kickPending) return
    this.kickPending = true
    this.kickContext = this.runContext?.capture() ?? null
    this.engine.at(this.engine.now, this, EV_RUN)
  }

  /**
   * A submitter's own run of the queue follows its I/O scheduler work: the kernel inserts each
   * request under the scheduler's lock, then runs the queue from the same context (block/blk-mq.c
   * 6.x: blk_mq_insert_request, blk_mq_run_hw_queue → dispatch_request → queue_rq; io_submit's
   * batch under blk_start_plug until blk_finish_plug). Between `plug` and `unplug(ns)` the requests
   * go into the scheduler at once (a completion's run may dispatch them); the submitter's run comes
   * `ns` later — with nothing owed, at once, before it goes on or sleeps: without an elevator
   * blk_mq_try_issue_directly, so a loop device's worker is woken while it still holds its CPU.
   */
  plug(): void {
    this.plugged = true
  }
  unplug(ns: SimTime): void {
    this.plugged = false
    if (!this.plugRun) return
    this.plugRun = false
    if (ns <= 0) this.run()
    else this.engine.at(this.engine.now + ns, this, EV_PLUG_RUN, this.runContext?.capture() ?? null)
  }

  /**
   * A cache flush (REQ_PREFLUSH, a barrier's flush): it bypasses the scheduler, as the kernel's
   * flush machinery does; `done` runs as an event once the device has its cache on the media.
   */
  flush(done: () => void): void {
    const later = (): void => void this.engine.at(this.engine.now, { onEvent: done }, 0)
    if (this.dev.flush) this.dev.flush(later)
    else later()
  }

  /**
   * A write flagged REQ_PREFLUSH / REQ_FUA (a journal's commit record under barrier=1): the
   * kernel's flush machinery puts it straight on the dispatch list (blk-flush.c blk_insert_flush,
   * blk_flush_complete_seq), so the scheduler never sees it — no queue of its process, no idling
   * for it. It goes to the device ahead of anything the scheduler holds.
   */
  submitBypass(bio: Bio): void {
    bio.submitted = this.engine.now
    const rq = this.newRequest(bio, bio.submitted)
    rq.bypass = true
    this.queued++
    this.bypassList.push(rq)
    this.kick()
  }

  /**
   * Submit a bio (at most `maxSectors` long). Returns true if it was merged or queued; false if
   * no request slot was free: the bio is then held and `waiter.slotGranted` is called (as an event)
   * once it has been queued. The waiter must not submit more until then.
   */
  submit(bio: Bio, waiter: SlotWaiter | null): boolean {
    const now = this.engine.now
    const max = this.maxFor(bio.pages)
    if (bio.nsect <= 0 || bio.nsect > max)
      throw new Error(
        `bio of ${bio.nsect} sectors: must be 1…${max} (split at the driver's maximum transfer)`,
      )
    bio.submitted = now
    if (this.merger.tryMerge(bio, now)) {
      this.observer?.merged?.(bio, false)
      return true
    }
    const wbt = this.wbt
    if (wbt !== null) {
      if (bio.op === READ) wbt.readSubmitted(now)
      else if (WritebackThrottle.tracks(bio)) {
        if (!waiter) throw new Error('writeback throttled and no waiter to resume')
        if (!wbt.throttle(bio, waiter, now)) return false
        bio.wbt = true
      }
    }
    return this.allocate(bio, waiter)
  }

  onEvent(kind: number, data: unknown): void {
    if (kind === EV_RUN) {
      this.kickPending = false
      const ctx = this.kickContext
      this.kickContext = null
      this.runAs(ctx)
    } else if (kind === EV_PLUG_RUN) {
      this.runAs(data)
    } else if (kind === EV_IDLE) {
      this.idleTimer.fired()
      this.run()
    } else if (kind === EV_RESUME) {
      ;(data as SlotWaiter).slotGranted(this.engine.now)
    } else if (kind === EV_WBT_GO) {
      const go = data as WbtGo
      go.bio.wbt = true
      if (this.allocate(go.bio, go.waiter)) this.engine.at(this.engine.now, this, EV_RESUME, go.waiter)
    }
  }

  /** A run of the queue as the work of `ctx` (a captured run context; null: nobody's). */
  private runAs(ctx: unknown): void {
    if (ctx !== null && this.runContext !== null) this.runContext.within(ctx, this.runNow)
    else this.run()
  }

  /** The dispatch loop: feed the device while it has room and the scheduler has something. */
  private run(): void {
    const now = this.engine.now
    const holds = this.holds
    if (holds !== null && holds.ever) holds.ran(now)
    const dev = this.dev
    const depth = this.deviceInfo.queueDepth
    while (this.bypassList.length > 0 && dev.inFlight < depth) this.start(this.bypassList.shift()!, now)
    if (this.parked !== null) {
      if (dev.inFlight >= depth || !dev.accepts!(this.parked)) return this.markRestart()
      const rq = this.parked
      this.parked = null
      this.start(rq, now, false)
    }
    while (true) {
      if (dev.inFlight >= depth) {
        if (this.sched.hasWork()) this.markRestart()
        break
      }
      const r = this.sched.dispatch(now)
      if (r === undefined) {
        if (this.mqRuns !== null || this.observer?.idled !== undefined) this.declined(now, dev.inFlight === 0)
        break
      }
      if (r instanceof Idle) {
        const until = Math.max(r.until, now + 1)
        if (!this.idleTimer.pending || this.idleTimer.when > until) this.idleTimer.set(until)
        if (this.observer?.idled !== undefined) this.declined(now, dev.inFlight === 0, true)
        break
      }
      if (dev.accepts !== undefined && !dev.accepts(r)) {
        // no room at the driver (BLK_STS_DEV_RESOURCE): held until a completion frees some
        if (r.state !== RQ_QUEUED) throw new Error(`scheduler dispatched request ${r.id} which is not queued`)
        this.merger.remove(r)
        this.parked = r
        this.markRestart()
        break
      }
      this.start(r, now)
    }
  }

  /** The driver is full: the next completion runs the queue (blk_mq_sched_mark_restart_hctx). */
  private markRestart(): void {
    if (this.mqRuns !== null) this.mqRuns.restart = true
  }

  /**
   * The scheduler sent nothing though the device had room: it holds queued requests back (AS
   * waiting for the next read, CFQ's and BFQ's slice idling, kyber's tokens), or keeps the empty
   * device idle on purpose (`waiting`: it answered Idle) — or it simply has nothing.
   */
  private declined(now: SimTime, empty: boolean, waiting = false): void {
    const held = this.sched.hasWork()
    // blk-mq runs a queue whose scheduler held its work back again later (mq-runs.ts)
    if (held && !waiting) {
      this.mqRuns?.declined(now)
      this.holds?.declined(now)
    }
    if (this.observer?.idled === undefined) return
    if (held || (waiting && empty)) this.observer.idled(now, held)
    else if (empty) this.observer.drained!(now)
  }

  private start(rq: Request, now: SimTime, hashed = !rq.bypass): void {
    if (rq.state !== RQ_QUEUED) throw new Error(`scheduler dispatched request ${rq.id} which is not queued`)
    if (hashed) this.merger.remove(rq)
    rq.state = RQ_DISPATCHED
    rq.dispatchedAt = now
    if (this.wantsParts) {
      rq.devParts ??= new Float64Array(this.dev.parts!.length) // once per pooled request
      rq.devMask = 0
      rq.devAt = now
    }
    this.wbt?.issued(rq, now)
    const holds = this.holds
    if (holds !== null && holds.ever && this.waits !== null && !rq.bypass) holds.tally(rq, now, this.waits)
    this.queued--
    this.inFlightDir[rq.op]++
    this.observer?.dispatched(rq, now)
    this.observer?.levels(now, this.queued, this.inFlightDir[0] + this.inFlightDir[1])
    this.dev.start(rq, now)
  }

  deviceCompleted(rq: Request, now: SimTime): void {
    if (rq.state !== RQ_DISPATCHED)
      throw new Error(`device completed request ${rq.id} which is not in flight`)
    this.inFlightDir[rq.op]--
    this.wbt?.completed(rq, now)
    this.completedCount++
    if (!rq.bypass) this.sched.completed(rq, now)
    this.observer?.completed(rq, now)
    this.observer?.levels(now, this.queued, this.inFlightDir[0] + this.inFlightDir[1])
    this.biosDone(rq, now)
    if (rq.bypass) {
      rq.bypass = false
      this.recycle(rq)
    } else this.release(rq)
    // A slot at the device is free: dispatch more if the scheduler (or the flush list) holds
    // anything — on blk-mq, where the completion runs the queue at all (mq-runs.ts)
    if (this.bypassList.length > 0 || this.parked !== null) this.kick()
    else if (
      this.mqRuns?.completionRuns(this.sched.completionRuns !== false) !== false &&
      this.sched.hasWork()
    )
      this.kick()
    // held requests the scheduler would now hand out wait for a run (the why's: block/waits.ts)
    else if (this.holds !== null && this.waits !== null) this.holds.completed(now, this.sched)
  }

  /** The largest request of page-cache pages (a segment each) or of a process's buffers. */
  maxFor(pages: boolean): number {
    return pages ? this.maxPageSectors : this.maxSectors
  }

  /** Merging told us `next` was absorbed by its neighbour: out of the scheduler, its slot freed. */
  absorbed(next: Request, now: SimTime): void {
    if (next.bioHead !== null) this.observer?.merged?.(next.bioHead, true)
    this.queued--
    this.observer?.levels(now, this.queued, this.inFlightDir[0] + this.inFlightDir[1])
    this.release(next)
  }

  // --- requests given a slot (request-slots.ts) ---

  protected insertNew(bio: Bio, now: SimTime, underPlug = false): void {
    const rq = this.newRequest(bio, now)
    const holds = this.holds
    if (holds !== null && holds.ever) holds.mark(rq, now)
    this.merger.add(rq)
    this.queued++
    this.observer?.inserted?.(rq, now)
    this.sched.insert(rq, now)
    this.observer?.levels(now, this.queued, this.inFlightDir[0] + this.inFlightDir[1])
    if (underPlug) this.plugRun = true
    else this.kick()
  }
}

/** A bio writeback throttling let go, on its way to a request slot. */
class WbtGo {
  constructor(
    readonly bio: Bio,
    readonly waiter: SlotWaiter,
  ) {}
}
