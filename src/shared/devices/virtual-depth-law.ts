import { WRITE } from '../block/types'
import type { Request } from '../block/types'
import type { Engine, Handler } from '../sim/engine'
import type { Rng } from '../sim/rng'
import type { SimTime } from '../sim/time'
import { PassServer } from './signal-pass'
import type { SignalPass } from './signal-pass'
import type { VirtualConfig } from './virtual-params'
import {
  V_COMPLETE,
  V_CONTENTION,
  V_LINK,
  V_PASS,
  V_SERVICE,
  V_SIGNAL,
  V_STALL,
  V_THREAD,
  V_THREAD_WAIT,
} from './virtual-parts'
import type { ServingStructure, VirtualHost } from './virtual-structure'

/**
 * The depth law of a virtual device (virtual.ts), in place of its lanes when
 * `readContentionUs`/`writeContentionUs` are set — measured on this machine's loop device over a
 * Firecracker virtio disk: every request is served at once, in its drawn time plus what each
 * request already in flight adds — so at depth n a request takes its QD1 time and n − 1
 * contentions (fio 4 KiB randread means 59, 100, 157, 478 µs at QD 1, 4, 8, 32:
 * 57 + (n − 1) × 14 µs within 6 %; a reader beside QD8 and QD32 writers took its QD1 time plus the
 * writers' share). The guest CPU of the device's own thread stays on the path (`pathUs`); the
 * scheduler's work per request joins its contention. A host that signals once per pass over its
 * queue (`signalPerPass`: signal-pass.ts) delivers each pass whole. The host thread's serial work,
 * which its stalls (host-stalls.ts) count, is each request's contention.
 */
export class DepthLaw implements ServingStructure, Handler {
  /** The I/O scheduler's work per request: a contention of its own (VirtualDevice.schedulerWork). */
  schedNs: SimTime = 0
  /** What the requests in flight add to one started now. */
  private inFlightCost: SimTime = 0
  /** With `signalPerPass`: the host's thread and its passes (null: off). */
  private readonly passes: PassServer | null
  /** A pass's writes complete after its softirq, by the dio kworker (`dioDoneNs`, a backing file). */
  private readonly defersWrites: boolean

  constructor(
    private readonly cfg: VirtualConfig,
    private readonly engine: Engine,
    private readonly rng: Rng,
    private readonly dev: VirtualHost,
  ) {
    this.passes = cfg.signalPerPass ? new PassServer() : null
    this.defersWrites = cfg.backing !== null && cfg.dioDoneNs > 0
  }

  /**
   * Every request is served at once, in the time drawn for its direction plus what each request
   * already in flight adds (its direction's contention and the scheduler's work per request), plus
   * its data beyond 4 KiB over the link. The depth law of a device whose host side serves its
   * requests with shared resources: at depth n a request takes its QD1 time and n − 1
   * contentions, so the rate is n / (t₁ + (n − 1) c), bounded by 1 / c.
   */
  take(rq: Request, now: SimTime): void {
    const op = rq.op
    const own = this.cfg.contentionNs[op] + this.schedNs
    if (this.passes !== null) return this.takeInPass(rq, now, own)
    const service = this.cfg.service[op].draw(this.rng.next()) * 1000
    const cost = this.inFlightCost
    this.inFlightCost += own
    rq.devInt = own
    const stall = this.dev.stalled(rq, now, own)
    if (this.dev.wantsParts) {
      this.dev.mark(rq, V_SERVICE, now + service)
      this.dev.mark(rq, V_CONTENTION, now + service + cost)
      this.dev.mark(rq, V_STALL, now + service + cost + stall)
    }
    const extra = this.dev.link.extraNs(rq)
    const done = this.dev.link.after(rq, extra, now + service + cost + stall)
    this.dev.doneAt(rq, Math.round(done))
  }

  finished(rq: Request, now: SimTime): void {
    this.inFlightCost -= rq.devInt
    this.dev.deliver(rq, now)
  }

  /**
   * Signalled per pass (signal-pass.ts): the host's one thread performs the requests in turn —
   * each its contention and its data beyond 4 KiB — between the way there (the kick of a request
   * that opens a pass) and back (the pass's interrupt) that make up the rest of the drawn QD1
   * time; a pass is delivered all at once.
   */
  private takeInPass(rq: Request, now: SimTime, own: number): void {
    const op = rq.op
    const drawn = this.cfg.service[op].draw(this.rng.next()) * 1000
    const extra = this.dev.link.extraNs(rq)
    const stalls = this.dev.stalls
    const stall = stalls !== null ? stalls.start(now, own) : 0
    const server = this.passes!
    const pass = server.start(rq, now, drawn, own, extra, stall, stalls?.total ?? 0)
    if (this.dev.wantsParts) {
      // its way there (none when it joined a pass under way), the pass's way back
      this.dev.mark(rq, V_SIGNAL, server.arrived - stall)
      this.dev.mark(rq, V_STALL, server.arrived)
      this.dev.mark(rq, V_THREAD_WAIT, server.begun)
      this.dev.mark(rq, V_THREAD, server.begun + own)
      this.dev.mark(rq, V_LINK, server.begun + own + extra)
      this.dev.mark(rq, V_SIGNAL, server.begun + own + extra + pass.back)
    }
    if (pass.due < 0) {
      pass.due = pass.end
      this.engine.at(pass.due, this, EV_PASS, pass)
    }
  }

  /**
   * A pass's end event: later if it grew (or a stall moved it), else every request of it done —
   * at once, or (`irqCompleteNs`) one after another as the guest completes them.
   */
  onEvent(kind: number, data: unknown): void {
    const pass = data as SignalPass
    const now = this.engine.now
    if (kind === EV_COMPLETE) return this.completeNext(pass, now)
    const stalls = this.dev.stalls
    if (!this.passes!.ended(pass, now, stalls !== null ? stalls.owed(pass.mark) : 0)) {
      pass.due = pass.end
      this.engine.at(pass.due, this, EV_PASS, pass)
      return
    }
    if (this.dev.wantsParts) for (const rq of pass.held) this.dev.mark(rq, V_PASS, now)
    if (this.cfg.irqCompleteNs > 0) {
      pass.signalled = pass.held.length
      this.engine.at(now + this.completionNs(pass), this, EV_COMPLETE, pass)
      return
    }
    // one interrupt for the pass: the guest completes its requests in one handler
    this.dev.interrupt(() => {
      for (const rq of pass.held) this.dev.deliver(rq, now)
    })
  }

  /**
   * The guest completes the pass's next request, in the order the host finished them (the used
   * ring's), `irqCompleteNs` after the one before: the block softirq's work for each
   * (virtual-params.ts irqCompleteUs). What it wakes is picked for its CPU as an interrupt's.
   */
  private completeNext(pass: SignalPass, now: SimTime): void {
    const held = pass.held
    const rq = held[pass.completed++]
    if (this.defersWrites && pass.completed <= pass.signalled && rq.op === WRITE) {
      // in the softirq, a write's disk completion only; its own comes from the dio kworker
      ;(pass.deferred ??= []).push(rq)
    } else {
      if (this.dev.wantsParts) this.dev.mark(rq, V_COMPLETE, now)
      this.dev.interrupt(() => this.dev.deliver(rq, now))
    }
    if (pass.completed === pass.signalled && pass.deferred !== null) {
      // the softirq is through the pass: the kworker completes its writes, in their order
      for (const w of pass.deferred) held.push(w)
      pass.deferred = null
    }
    if (pass.completed < held.length) this.engine.at(now + this.completionNs(pass), this, EV_COMPLETE, pass)
  }

  /**
   * The guest's work for the pass's next completion: the softirq's (`irqCompleteNs`; for a write
   * whose completion the dio kworker owns, only the disk's, half of a read's two), or after the
   * softirq the kworker's for a write (`dioDoneNs`).
   */
  private completionNs(pass: SignalPass): SimTime {
    const k = pass.completed
    if (k >= pass.signalled) return this.cfg.dioDoneNs
    const c = this.cfg.irqCompleteNs
    return this.defersWrites && pass.held[k].op === WRITE ? c / 2 : c
  }
}

const EV_PASS = 0
const EV_COMPLETE = 1
