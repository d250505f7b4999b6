import type { Request } from '../block/types'
import type { Engine, Handler } from '../sim/engine'
import type { Rng } from '../sim/rng'
import type { SimTime } from '../sim/time'
import { laneSpeeds } from './lane-speeds'
import { RequestRing } from './request-ring'
import type { VirtualConfig } from './virtual-params'
import { V_LANE_WAIT, V_SERVICE, V_STALL } from './virtual-parts'
import type { ServingStructure, VirtualHost } from './virtual-structure'

/**
 * The lanes of a virtual device (virtual.ts): a request waits, in arrival order, for a lane of its
 * direction: the device serves `readParallel` reads and `writeParallel` writes at once (a
 * fractional last lane serves a request at full speed, then rests, so that it does that fraction
 * of a lane's work — a lane at a twentieth of the speed would instead hold a request twenty times
 * as long, a latency the device never shows). A lane is held for the request's service time, drawn
 * from the measured distribution of its direction (a 4 KiB request's), and then for the transfer
 * of the rest of its data over the device's one link (virtual-link.ts), shared by every lane. With
 * `sharedLanes`, reads and writes queue in one line, so a read waits behind the writes that came
 * before it (a virtio ring, one backing disk), and a small request is answered only once the data
 * of the large ones before it has crossed the link; without, each direction has its own line.
 * The host thread's serial work, which its stalls (host-stalls.ts) count, is each request's share
 * of the lanes (its service over `parallel`), so that lanes all busy keep the thread busy
 * throughout.
 */
export class VirtualLanes implements ServingStructure, Handler {
  /** Per direction: lane speeds (fastest first) and which are busy. */
  private readonly speed: [Float64Array, Float64Array]
  private readonly busy: [Uint8Array, Uint8Array]
  /** Per direction: the lanes' work in parallel (`parallel`): a request's share of the host thread is its service ÷ this. */
  private readonly laneWork: [number, number]
  private readonly free = [0, 0]
  /** Waiting for a lane: one line, or one per direction. */
  private readonly lines: [RequestRing, RequestRing]

  constructor(
    private readonly cfg: VirtualConfig,
    private readonly engine: Engine,
    private readonly rng: Rng,
    private readonly dev: VirtualHost,
  ) {
    this.speed = [laneSpeeds(cfg.parallel[0]), laneSpeeds(cfg.parallel[1])]
    this.laneWork = [Math.max(cfg.parallel[0], 1e-3), Math.max(cfg.parallel[1], 1e-3)]
    this.busy = [new Uint8Array(this.speed[0].length), new Uint8Array(this.speed[1].length)]
    this.free[0] = this.speed[0].length
    this.free[1] = this.speed[1].length
    const shared = new RequestRing()
    this.lines = cfg.sharedLanes ? [shared, shared] : [shared, new RequestRing()]
  }

  take(rq: Request, now: SimTime): void {
    const line = this.lines[rq.op]
    line.push(rq)
    this.pump(line, now)
  }

  /** A lane is done with its request (a fractional lane rests first: `onEvent`). */
  finished(rq: Request, now: SimTime): void {
    const op = rq.op
    if (rq.devInt >= 0) {
      this.busy[op][rq.devInt] = 0
      this.free[op]++
      this.pump(this.lines[op], now)
    }
    this.dev.deliver(rq, now)
  }

  /** A fractional lane has rested: it is free again. */
  onEvent(_kind: number, data: unknown): void {
    const lane = data as RestingLane
    this.busy[lane.op][lane.lane] = 0
    this.free[lane.op]++
    this.pump(this.lines[lane.op], this.engine.now)
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
    const stall = this.dev.stalled(rq, now, service / this.laneWork[op])
    if (speed < 1) {
      // the fractional lane: free again once it has rested (1/speed − 1) × the service
      rq.devInt = -1
      this.engine.at(Math.round(now + stall + service / speed), this, EV_RESTED, new RestingLane(op, lane))
    }
    if (this.dev.wantsParts) {
      this.dev.mark(rq, V_LANE_WAIT, now)
      this.dev.mark(rq, V_STALL, now + stall)
      this.dev.mark(rq, V_SERVICE, now + stall + service)
    }
    // beyond its first 4 KiB, a request's data follows over the device's one link
    const extra = this.dev.link.extraNs(rq)
    const done = this.dev.link.after(rq, extra, now + stall + service)
    this.dev.doneAt(rq, Math.round(done))
  }
}

const EV_RESTED = 0

/** A fractional lane resting after a request. */
class RestingLane {
  constructor(
    readonly op: number,
    readonly lane: number,
  ) {}
}
