import { SECTOR } from '../block/types'
import type { DeviceInfo, Request } from '../block/types'
import type { Engine, Handler } from '../sim/engine'
import type { Rng } from '../sim/rng'
import type { SimTime } from '../sim/time'
import type { CompletionSink, Device, HostCpu } from './device'
import { HostStalls } from './host-stalls'
import { BackingStack } from './backing-stack'
import { largestTransferSectors } from './virtual-params'
import { FlushMark, PathThread } from './path-thread'
import type { VirtualConfig } from './virtual-params'
import { markPart } from './device-parts'
import { W_FLUSH } from '../block/waits'
import { VirtualLink } from './virtual-link'
import { DepthLaw } from './virtual-depth-law'
import { VirtualLanes } from './virtual-lanes'
import type { ServingStructure, VirtualHost } from './virtual-structure'
import { V_BACKING, V_PATH, V_STALL, VIRTUAL_PARTS } from './virtual-parts'

/**
 * A virtual device (loop, virtio, device-mapper): what is measurable at its block interface.
 * A request first takes the device's own path on the host — `pathUs` of CPU in one of its threads
 * (a loop device's worker runs the file I/O of each request in turn), competing with the
 * processes for the host's CPUs — then, through the queue of the device under it if one is
 * modelled (backing-stack.ts), reaches the structure that serves it (virtual-structure.ts): the
 * lanes (virtual-lanes.ts), a few requests of each direction at once, each for its service time
 * drawn from the measured distribution of its direction; or, with
 * `readContentionUs`/`writeContentionUs` set, the depth law measured on this machine
 * (virtual-depth-law.ts), every request at once, slowed by each one in flight. Either way the data
 * beyond a request's first 4 KiB then crosses the device's one link (virtual-link.ts).
 *
 * In either structure, under load the host now and then stops serving altogether (`stallEveryMs`:
 * host-stalls.ts) — the tail of a deep queue. The stalls are the host's (its thread loses the CPU
 * to others), not the structure's: the depth law's host thread does each request's contention,
 * the lanes' does each request's share of the lanes (its service over `parallel`), so that lanes
 * all busy keep the thread busy throughout.
 */
export class VirtualDevice implements Device, Handler, VirtualHost {
  readonly info: DeviceInfo
  inFlight = 0
  readonly parts = VIRTUAL_PARTS
  /** The link the data beyond a request's first 4 KiB crosses (virtual-link.ts). */
  readonly link: VirtualLink
  private readonly threads: PathThread[] = []
  private nextThread = 0
  private cpu: HostCpu | null = null
  /** The I/O scheduler's work per request, done on the device's path (see `schedulerWork`). */
  private schedNs: SimTime = 0
  /** The depth law (virtual-depth-law.ts), when `contentionNs` is set (null: the lanes). */
  private readonly law: DepthLaw | null
  /** What serves the requests: the depth law, or the lanes (virtual-lanes.ts). */
  private readonly structure: ServingStructure
  /** The host's pauses under load (null: none). */
  readonly stalls: HostStalls | null
  /** The device under this one, with its own scheduler and ring (null: part of the service). */
  private readonly backing: BackingStack | null
  /** Draws of the flushes' waits, a stream of their own (null: a flush costs nothing). */
  private readonly flushRng: Rng | null
  /** Bytes of a contiguous segment of a process's buffer, drawn for the run (segmentKiB). */
  private readonly segmentBytes: number
  /** Requests the structure has in hand (handed to it, not yet delivered). */
  private inHand = 0
  /** A path thread is handing a request on (afterPath): what the handing costs it, ns. */
  private handing = false
  private handNs = 0

  constructor(
    private readonly cfg: VirtualConfig,
    private readonly engine: Engine,
    private readonly sink: CompletionSink,
    private readonly rng: Rng,
    hz = 250,
    /** The host's largest page-cache folio (largeFolioKiB): its memory comes in runs that long. */
    folioKiB = 4,
  ) {
    // how contiguous the memory of this run's buffers is: drawn once (segmentKiB)
    const segmentKiB = cfg.segmentKiB.draw(rng.fork('segments').next())
    this.segmentBytes = segmentKiB * 1024
    this.info = {
      name: cfg.name,
      capacitySectors: cfg.capacitySectors,
      rotational: cfg.rotational,
      queueDepth: cfg.queueDepth,
      maxTransferSectors: largestTransferSectors(cfg, segmentKiB),
      pageMaxSectors: largestTransferSectors(cfg, 4),
      writeCache: cfg.writeCache,
    }
    const contention = cfg.contentionNs[0] > 0 || cfg.contentionNs[1] > 0
    this.law = contention ? new DepthLaw(cfg, engine, rng, this) : null
    this.structure = this.law ?? new VirtualLanes(cfg, engine, rng, this)
    this.link = new VirtualLink(cfg, this)
    for (let i = 0; i < cfg.pathThreads; i++) this.threads.push(new PathThread(10 + i, this, engine))
    this.flushRng = cfg.flush !== null ? rng.fork('flush') : null
    // the host's stalls are its own, whichever structure serves the requests (host-stalls.ts)
    this.stalls = cfg.stallEveryNs > 0 ? new HostStalls(engine, rng, cfg.stallEveryNs, cfg.stallMs) : null
    this.backing =
      cfg.backing === null
        ? null
        : new BackingStack(
            cfg.backing,
            engine,
            rng.fork('backing'),
            hz,
            segmentKiB * 1024,
            folioKiB * 1024,
            this.info,
            (rq, now) => this.serveBacked(rq, now),
            (upper, now) => this.completed(upper, now),
            () => this.sink.waits,
          )
  }

  /** The run keeps the parts of each request's service (the sink's wantsParts, set once the run knows). */
  get wantsParts(): boolean {
    return this.sink.wantsParts === true
  }

  attachCpu(cpu: HostCpu): void {
    this.cpu = cpu
  }

  /**
   * The scheduler's per-request work lies on the device's serial path: one hardware queue (a loop
   * device has one), its dispatch and the completions under the scheduler's lock, in step with the
   * path that feeds the device. Measured on a file-backed loop device (Linux 6.18, 2 vCPUs, fio
   * 4 KiB randread QD32 libaio direct, queue kept full): the mean latency rose from 528 µs (none)
   * to 610 (mq-deadline), 628 (kyber), 841 µs (bfq) — per request at the bottleneck 16.5, 19.1,
   * 19.7, 26.3 µs — while fio's own CPU per I/O rose by 3.4, 4.5 and 8.3 µs: the bottleneck's
   * time grew by about the schedulers' CPU. The growth is not the same from one day to the
   * next on a shared VM (another day: 15.2, 17.2, 17.0 and 16.5 µs, BFQ's growth on the path
   * 0.4 of fio's CPU growth under it), so a fingerprint measures each scheduler's own
   * (`schedulerPathUs`), and the CPU cost stands in for a scheduler it did not measure.
   * (`pathThreads` 0: no serial path.)
   */
  schedulerWork(ns: SimTime, scheduler: string): void {
    const work = this.cfg.schedulerPathNs[scheduler] ?? ns
    // on the serial path, or (the depth law) a contention of its own
    if (this.law !== null) this.law.schedNs = work
    else this.schedNs = this.threads.length > 0 ? work : 0
  }

  start(rq: Request, now: SimTime): void {
    if (this.inFlight >= this.info.queueDepth) throw new Error(`${this.info.name}: queue depth exceeded`)
    if (rq.nsect <= 0 || rq.sector < 0 || rq.end > this.info.capacitySectors)
      throw new Error(`${this.info.name}: request [${rq.sector}, ${rq.end}) outside the device`)
    this.inFlight++
    const ns = this.cfg.pathNs + this.schedNs
    if (ns > 0 && this.threads.length > 0 && this.cpu !== null) {
      const t = this.threads[this.nextThread]
      this.nextThread = (this.nextThread + 1) % this.threads.length
      t.submit(rq, this.cpu, ns)
      return
    }
    // no host CPUs to run the path on (a device on its own): its cost is a delay
    if (ns > 0) this.engine.at(now + ns, this, EV_PATHED, rq)
    else this.afterPath(rq, now)
  }

  /**
   * A cache flush (REQ_PREFLUSH): with `flushUs` measured, it takes its turn on the path thread
   * and holds it for the drawn wait (path-thread.ts, FlushMark); without a thread, a delay.
   * The block layer wants `flush` only when the device has a write cache.
   */
  get flush(): ((done: () => void) => void) | undefined {
    return this.flushRng === null ? undefined : this.doFlush
  }

  private readonly doFlush = (done: () => void): void => {
    const waitNs = Math.round(this.cfg.flush!.draw(this.flushRng!.next()) * 1000)
    if (this.threads.length > 0 && this.cpu !== null) {
      const t = this.threads[this.nextThread]
      this.nextThread = (this.nextThread + 1) % this.threads.length
      t.submit(new FlushMark(waitNs, done), this.cpu, this.cfg.pathNs + this.schedNs)
    } else this.engine.at(this.engine.now + waitNs, this, EV_FLUSHED, done)
  }

  /**
   * A flush held the path thread `ns` (path-thread.ts): to the keeper of the waits, with each
   * request that queued behind it.
   */
  flushed(ns: SimTime, behind: (each: (rq: Request, ns: SimTime) => void) => void): void {
    const w = this.sink.waits
    if (!w) return
    w.happened(W_FLUSH, ns)
    behind((rq, waited) => w.waited(rq, W_FLUSH, waited))
  }

  /**
   * The request has been through the host path: on to its structure (or the backing queue).
   * Returns the CPU the path's thread spent handing it — and whatever the backing queue passed on
   * with it — to the structure (`handWork`).
   */
  afterPath(rq: Request, now: SimTime): number {
    markPart(rq, V_PATH, now)
    this.handing = true
    this.handNs = 0
    if (this.backing !== null) this.backing.submit(rq)
    else this.serveBacked(rq, now)
    this.handing = false
    return this.handNs
  }

  /** Serve a request: this device's, or the backing queue's when it has one. */
  private serveBacked(rq: Request, now: SimTime): void {
    if (this.backing !== null && this.sink.wantsParts === true) this.mark(rq, V_BACKING, now)
    if (this.handing) this.handNs += this.handWork(rq)
    this.inHand++
    this.structure.take(rq, now)
  }

  /**
   * What handing `rq` to the structure costs the thread that does it: the driver maps its memory,
   * `segmentNs` a segment beyond the first (the backing queue's count: ring descriptors, bar the
   * header and status), and notifies the device when it had no request in hand (`notifyNs`: with
   * VIRTIO_RING_F_EVENT_IDX a device asks to be notified once it has drained its ring). Measured
   * on this machine's loop device over its virtio disk (dispatch-probe.ts, 2026-12-07, Linux
   * 6.18): the loop worker spent 15–18 µs past a 4 KiB request's dispatch when the disk had none
   * in hand and 0–2 µs when it had, and 12 µs past a 128-segment one's to a busy disk. Both are
   * charged after the hand-off: the notification comes after the request is on the ring, the
   * mapping before it (the device starts a request that much early here: ~11 µs for 128
   * segments, against its 512 KiB's service of some 200 µs).
   */
  private handWork(rq: Request): number {
    const c = this.cfg
    let ns = this.inHand === 0 ? c.notifyNs : 0
    if (c.segmentNs > 0) {
      const segments =
        this.backing !== null
          ? this.backing.slots(rq) - 2
          : Math.ceil((rq.nsect * SECTOR) / (rq.pages ? 4096 : this.segmentBytes))
      ns += c.segmentNs * Math.max(0, segments - 1)
    }
    return ns
  }

  onEvent(kind: number, data: unknown): void {
    const now = this.engine.now
    const rq = data as Request
    if (kind === EV_PATHED) {
      this.afterPath(rq, now)
      return
    }
    if (kind === EV_FLUSHED) return (data as () => void)()
    // a stall began while it was in service: it completes that much later, and holds what it holds
    // of the structure until then (its lane, or the contention it adds in the depth law)
    const owed = this.stalls !== null ? this.stalls.owed(rq.devMark) : 0
    if (owed > 0) {
      if (this.sink.wantsParts === true) this.mark(rq, V_STALL, now + owed)
      rq.devMark += owed
      this.engine.at(now + owed, this, EV_DONE, rq)
      return
    }
    this.structure.finished(rq, now)
  }

  /**
   * `rq`'s service — each upper request's in it, when it is the backing queue's — up to `t` went
   * to `part` (device-parts.ts).
   */
  mark(rq: Request, part: number, t: SimTime): void {
    if (this.backing === null) return markPart(rq, part, t)
    for (let b = rq.bioHead; b !== null; b = b.next) markPart(b.ref as Request, part, t)
  }

  /** Its service ends at `t`: the completion event, where a stall that began meanwhile moves it. */
  doneAt(rq: Request, t: SimTime): void {
    this.engine.at(t, this, EV_DONE, rq)
  }

  /** Run `fn` as the guest's interrupt handler (the host CPUs pick what it woke when it returns). */
  interrupt(fn: () => void): void {
    if (this.cpu?.interrupt !== undefined) this.cpu.interrupt(fn, this.cfg.irqCpu)
    else fn()
  }

  /** The service is done with a request: the backing queue's, or this device's own. */
  deliver(rq: Request, now: SimTime): void {
    this.inHand--
    if (this.backing !== null) this.backing.served(rq, now)
    else this.completed(rq, now)
  }

  private completed(rq: Request, now: SimTime): void {
    this.inFlight--
    this.sink.deviceCompleted(rq, now)
  }

  /**
   * A request starts its service with `workNs` of the host thread's serial work: the time a stall
   * under way holds its start back (0 without stalls). The link's schedule moves with every stall
   * (a link still busy now was busy through it).
   */
  stalled(rq: Request, now: SimTime, workNs: number): number {
    if (this.stalls === null) return 0
    const stall = this.stalls.start(now, workNs)
    rq.devMark = this.stalls.total
    this.link.stalled(now, this.stalls.total)
    return stall
  }
}

const EV_DONE = 0
const EV_PATHED = 1
const EV_FLUSHED = 2
