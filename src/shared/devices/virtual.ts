import type { DeviceInfo, Request } from '../block/types'
import type { Engine, Handler } from '../sim/engine'
import type { Rng } from '../sim/rng'
import type { SimTime } from '../sim/time'
import type { CompletionSink, Device, HostCpu } from './device'
import { HostStalls } from './host-stalls'
import { BackingStack } from './backing-stack'
import { largestTransferSectors } from './virtual-params'
import { PathThread } from './path-thread'
import { laneSpeeds } from './lane-speeds'
import { RequestRing } from './request-ring'
import type { VirtualConfig } from './virtual-params'
import { markPart } from './device-parts'
import { VirtualLink } from './virtual-link'
import { DepthLaw } from './virtual-depth-law'
import type { VirtualHost } from './virtual-structure'
import { V_BACKING, V_LANE_WAIT, V_PATH, V_SERVICE, V_STALL, VIRTUAL_PARTS } from './virtual-parts'

/**
 * A virtual device (loop, virtio, device-mapper): what is measurable at its block interface.
 * A request first takes the device's own path on the host — `pathUs` of CPU in one of its threads
 * (a loop device's worker runs the file I/O of each request in turn), competing with the
 * processes for the host's CPUs — then waits, in arrival order, for a lane of its direction: the
 * device serves `readParallel` reads and `writeParallel` writes at once (a fractional last lane
 * serves a request at full speed, then rests, so that it does that fraction of a lane's work — a
 * lane at a twentieth of the speed would instead hold a request twenty times as long, a latency
 * the device never shows). A lane is held for the request's service time, drawn
 * from the measured distribution of its direction (a 4 KiB request's), and then for the transfer
 * of the rest of its data over the device's one link, shared by every lane. With `sharedLanes`, reads and writes queue in
 * one line, so a read waits behind the writes that came before it (a virtio ring, one backing
 * disk), and a small request is answered only once the data of the large ones before it has
 * crossed the link; without, each direction has its own line.
 *
 * With `readContentionUs`/`writeContentionUs` set, the lanes give way to the depth law measured on
 * this machine's loop device over a Firecracker virtio disk: every request is served at once, in
 * its drawn time plus what each request already in flight adds — so at depth n a request takes its
 * QD1 time and n − 1 contentions (fio 4 KiB randread means 59, 100, 157, 478 µs at QD 1, 4, 8, 32:
 * 57 + (n − 1) × 14 µs within 6 %; a reader beside QD8 and QD32 writers took its QD1 time plus the
 * writers' share). The guest CPU of the device's own thread stays on the path (`pathUs`); the
 * scheduler's work per request joins its contention. A host that signals once per pass over its
 * queue (`signalPerPass`: signal-pass.ts) delivers each pass whole.
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
  /** Per direction: lane speeds (fastest first) and which are busy. */
  private readonly speed: [Float64Array, Float64Array]
  private readonly busy: [Uint8Array, Uint8Array]
  /** Per direction: the lanes' work in parallel (`parallel`): a request's share of the host thread is its service ÷ this. */
  private readonly laneWork: [number, number]
  private readonly free = [0, 0]
  /** Waiting for a lane: one line, or one per direction. */
  private readonly lines: [RequestRing, RequestRing]
  /** The link the data beyond a request's first 4 KiB crosses (virtual-link.ts). */
  readonly link: VirtualLink
  private readonly threads: PathThread[] = []
  private nextThread = 0
  private cpu: HostCpu | null = null
  /** The I/O scheduler's work per request, done on the device's path (see `schedulerWork`). */
  private schedNs: SimTime = 0
  /** The depth law (virtual-depth-law.ts), when `contentionNs` is set (null: the lanes). */
  private readonly law: DepthLaw | null
  /** The host's pauses under load (null: none). */
  readonly stalls: HostStalls | null
  /** The device under this one, with its own scheduler and ring (null: part of the service). */
  private readonly backing: BackingStack | null

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
    this.info = {
      name: cfg.name,
      capacitySectors: cfg.capacitySectors,
      rotational: cfg.rotational,
      queueDepth: cfg.queueDepth,
      maxTransferSectors: largestTransferSectors(cfg, segmentKiB),
      pageMaxSectors: largestTransferSectors(cfg, 4),
      writeCache: cfg.writeCache,
    }
    this.speed = [laneSpeeds(cfg.parallel[0]), laneSpeeds(cfg.parallel[1])]
    this.laneWork = [Math.max(cfg.parallel[0], 1e-3), Math.max(cfg.parallel[1], 1e-3)]
    this.busy = [new Uint8Array(this.speed[0].length), new Uint8Array(this.speed[1].length)]
    this.free[0] = this.speed[0].length
    this.free[1] = this.speed[1].length
    const shared = new RequestRing()
    this.lines = cfg.sharedLanes ? [shared, shared] : [shared, new RequestRing()]
    const contention = cfg.contentionNs[0] > 0 || cfg.contentionNs[1] > 0
    this.law = contention ? new DepthLaw(cfg, engine, rng, this) : null
    this.link = new VirtualLink(cfg, this)
    for (let i = 0; i < cfg.pathThreads; i++) this.threads.push(new PathThread(10 + i, this))
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
    else this.toLanes(rq, now)
  }

  /** The request has been through the host path: it waits for a lane (or the backing queue). */
  toLanes(rq: Request, now: SimTime): void {
    markPart(rq, V_PATH, now)
    if (this.backing !== null) return this.backing.submit(rq)
    this.serveBacked(rq, now)
  }

  /** Serve a request: this device's, or the backing queue's when it has one. */
  private serveBacked(rq: Request, now: SimTime): void {
    if (this.backing !== null && this.sink.wantsParts === true) this.mark(rq, V_BACKING, now)
    if (this.law !== null) return this.law.take(rq, now)
    const line = this.lines[rq.op]
    line.push(rq)
    this.pump(line, now)
  }

  onEvent(kind: number, data: unknown): void {
    const now = this.engine.now
    const rq = data as Request
    if (kind === EV_PATHED) {
      this.toLanes(rq, now)
      return
    }
    if (kind === EV_LANE_FREE) {
      const lane = data as RestingLane
      this.busy[lane.op][lane.lane] = 0
      this.free[lane.op]++
      this.pump(this.lines[lane.op], now)
      return
    }
    // a stall began while it was in service: it completes that much later (its lane held)
    const owed = this.stalls !== null ? this.stalls.owed(rq.devMark) : 0
    if (owed > 0) {
      if (this.sink.wantsParts === true) this.mark(rq, V_STALL, now + owed)
      rq.devMark += owed
      this.engine.at(now + owed, this, EV_DONE, rq)
      return
    }
    if (this.law !== null) return this.law.finished(rq, now)
    // a lane is done with its request (a fractional lane rests first: EV_LANE_FREE)
    const op = rq.op
    if (rq.devInt >= 0) {
      this.busy[op][rq.devInt] = 0
      this.free[op]++
      this.pump(this.lines[op], now)
    }
    this.deliver(rq, now)
  }

  /**
   * `rq`'s service — each upper request's in it, when it is the backing queue's — up to `t` went
   * to `part` (device-parts.ts).
   */
  mark(rq: Request, part: number, t: SimTime): void {
    if (this.backing === null) return markPart(rq, part, t)
    for (let b = rq.bioHead; b !== null; b = b.next) markPart(b.ref as Request, part, t)
  }

  doneAt(rq: Request, t: SimTime): void {
    this.engine.at(t, this, EV_DONE, rq)
  }

  /** The service is done with a request: the backing queue's, or this device's own. */
  deliver(rq: Request, now: SimTime): void {
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

  /** Start the requests at the head of a line while their direction has a free lane. */
  private pump(line: RequestRing, now: SimTime): void {
    while (line.size > 0) {
      const rq = line.peek()
      if (this.free[rq.op] === 0) return
      line.shift()
      this.serve(rq, now)
    }
  }

  private serve(rq: Request, now: SimTime): void {
    const op = rq.op
    const speeds = this.speed[op]
    const busy = this.busy[op]
    let lane = 0
    while (busy[lane] !== 0) lane++
    busy[lane] = 1
    this.free[op]--
    rq.devInt = lane
    const service = this.cfg.service[op].draw(this.rng.next()) * 1000
    const speed = speeds[lane]
    // the host thread serves the lanes: a request takes its share of the thread, so that lanes all
    // busy keep it busy throughout (the depth law's contention is that share, measured)
    const stall = this.stalled(rq, now, service / this.laneWork[op])
    if (speed < 1) {
      // the fractional lane: free again once it has rested (1/speed − 1) × the service
      rq.devInt = -1
      this.engine.at(Math.round(now + stall + service / speed), this, EV_LANE_FREE, new RestingLane(op, lane))
    }
    if (this.sink.wantsParts === true) {
      this.mark(rq, V_LANE_WAIT, now)
      this.mark(rq, V_STALL, now + stall)
      this.mark(rq, V_SERVICE, now + stall + service)
    }
    // beyond its first 4 KiB, a request's data follows over the device's one link
    const extra = this.link.extraNs(rq)
    const done = this.link.after(rq, extra, now + stall + service)
    this.doneAt(rq, Math.round(done))
  }
}

const EV_DONE = 0
const EV_PATHED = 1
const EV_LANE_FREE = 2

/** A fractional lane resting after a request. */
class RestingLane {
  constructor(
    readonly op: number,
    readonly lane: number,
  ) {}
}
