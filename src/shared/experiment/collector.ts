import type { BlockObserver } from '../block/observer'
import type { Bio, Request } from '../block/types'
import { SECTOR } from '../block/types'
import { DispatchSample } from '../metrics/dispatch-sample'
import { LatencyHistogram } from '../metrics/histogram'
import type { LatencyHistogramJSON } from '../metrics/histogram'
import { TimeSeries } from '../metrics/timeseries'
import { ProcessTransfers } from '../metrics/process-transfers'
import type { SimTime } from '../sim/time'
import { SECOND } from '../sim/time'
import type { DeviceTotals, ProcessSeries } from './result'
import type { StageAccount } from './stage-recorder'
import { StageRecorder } from './stage-recorder'
import type { RunWhy } from '../metrics/why'
import type { WaitKind, WaitObserver } from '../block/waits'
import { W_DELAYED, W_FLUSH, WAIT_KINDS } from '../block/waits'

/**
 * Device-side metrics of a run, fed by the block layer: bytes and requests per direction, busy
 * time, seeks, per-request latency, the 100 ms time series and a bounded dispatch sample. All of
 * it is fixed-size, so memory stays flat however long the run.
 */
export class RunCollector implements BlockObserver, WaitObserver {
  readonly series = new TimeSeries()
  readonly sample = new DispatchSample()
  /** Inserted to completed (I→C); with the why, part of it is in the stages (`latencies`). */
  private readonly requestLatency = new LatencyHistogram()
  /** Device service time, dispatch to completion (blktrace's D→C); with the why, in the stages. */
  private readonly serviceLatency = new LatencyHistogram()
  /**
   * Bytes per process (by the requests' pid), in the same bins as `series`, with the name its
   * requests carry (the kernel's own: "flush" for writeback).
   */
  private readonly perPid = new ProcessTransfers()
  private readonly bytes = [0, 0]
  private readonly reqs = [0, 0]
  private inFlight = 0
  private busySince = -1
  private busy = 0
  private lastEnd = -1
  private seeks = 0
  private seekDistance = 0
  /** Per-process stages and decisions (why.ts); null when the run does without them. */
  readonly stages: StageRecorder | null
  /** Whose requests the device was last sent (batches; whom a scheduler's wait is for). */
  private lastDispatched: StageAccount | null = null
  /** An open idle wait: since when, for whom, since when others waited (−1: not yet). */
  private idleSince = -1
  private idleFor: StageAccount | null = null
  private othersSince = -1
  /** The machinery's events (block/waits.ts WaitObserver.happened), by kind: count, ns. */
  private readonly events = new Float64Array(2 * WAIT_KINDS)
  /** The stages' latencies are in `requestLatency` and `serviceLatency` (latencies()). */
  private latenciesIn = false

  constructor(why = true) {
    this.stages = why ? new StageRecorder() : null
  }

  /** The account of `rq`'s process, kept on the request from its insertion on. */
  private accountOf(rq: Request): StageAccount {
    const a = rq.stat as StageAccount | null
    if (a !== null) return a
    return (rq.stat = this.stages!.of(rq.ctx.pid, rq.ctx.name))
  }

  dispatched(rq: Request, now: SimTime): void {
    const a = this.stages === null ? null : this.accountOf(rq)
    if (this.lastEnd >= 0 && rq.sector !== this.lastEnd) {
      const dist = Math.abs(rq.sector - this.lastEnd)
      this.seeks++
      this.seekDistance += dist
      if (a !== null) {
        a.seeks++
        a.travelSectors += dist
      }
    }
    this.lastEnd = rq.sector + rq.nsect
    this.sample.add(now, rq.sector, rq.nsect, rq.op, rq.ctx.pid)
    if (a === null) return
    if (a !== this.lastDispatched) {
      a.batches++
      // the device moves on from a process whose last dispatch left it nothing queued: it looked idle
      const left = this.lastDispatched
      if (left !== null && left.emptyAt >= 0) left.deceivedNext = true
      this.lastDispatched = a
    }
    if (rq.fifoTime > 0 && now > rq.fifoTime) a.expired++
    if (this.idleSince >= 0) this.closeIdle(now, a === this.idleFor)
    if (a.deceivedNext) {
      // back after the device left it looking idle: how soon its next request came, how long it waited
      a.deceivedNext = false
      a.deceived++
      a.deceivedGapNs += (a.nextAt >= 0 ? a.nextAt : rq.insertedAt) - a.emptyAt
      a.deceivedWaitNs += now - rq.insertedAt
    }
    if (!rq.bypass) a.queued--
    a.emptyAt = a.queued === 0 ? now : -1
    a.nextAt = -1
  }

  inserted(rq: Request, now: SimTime): void {
    if (this.stages === null) return
    const a = this.accountOf(rq)
    a.queued++
    if (a.emptyAt >= 0 && a.nextAt < 0) a.nextAt = now
  }

  idled(now: SimTime, held: boolean): void {
    if (this.stages === null) return
    if (this.idleSince < 0) {
      // the scheduler waits for the process it served last (AS's anticipated reader, CFQ's or
      // BFQ's active queue, ROW's reading queue)
      const owner = this.lastDispatched
      if (owner === null) return
      this.idleSince = now
      this.idleFor = owner
      owner.idleWaits++
    }
    if (held && this.othersSince < 0) this.othersSince = now
  }

  drained(now: SimTime): void {
    if (this.idleSince >= 0) this.closeIdle(now, false)
  }

  merged(bio: Bio, absorbed: boolean): void {
    if (this.stages === null) return
    const a = this.stages.of(bio.ctx.pid, bio.ctx.name)
    a.merged++
    if (absorbed) a.queued--
  }

  private closeIdle(now: SimTime, rewarded: boolean): void {
    const a = this.idleFor!
    a.idleNs += now - this.idleSince
    if (this.othersSince >= 0) a.idleOthersNs += now - this.othersSince
    if (rewarded) a.idleRewarded++
    else a.idleExpired++
    this.idleSince = this.othersSince = -1
    this.idleFor = null
  }

  waited(rq: Request, kind: WaitKind, ns: SimTime): void {
    const w = this.accountOf(rq).waits
    w[2 * kind]++
    w[2 * kind + 1] += ns
  }

  happened(kind: WaitKind, ns: SimTime): void {
    this.events[2 * kind]++
    this.events[2 * kind + 1] += ns
  }

  /** The run's stages and decisions, or undefined when it was run without them. */
  why(): RunWhy | undefined {
    const why = this.stages?.toJSON('simulated', true)
    if (!why) return why
    const e = this.events
    for (const [name, k] of [
      ['delayedRun', W_DELAYED],
      ['flush', W_FLUSH],
    ] as const)
      if (e[2 * k] > 0) (why.events ??= {})[name] = { count: e[2 * k], ns: e[2 * k + 1] }
    return why
  }

  completed(rq: Request, now: SimTime): void {
    const b = rq.nsect * SECTOR
    this.bytes[rq.op] += b
    this.reqs[rq.op]++
    this.series.addTransfer(now, rq.op, b)
    this.perPid.add(rq.ctx, now, rq.op, b)
    const st = this.stages
    if (st === null) {
      this.requestLatency.record(now - rq.insertedAt)
      this.serviceLatency.record(now - rq.dispatchedAt)
      return
    }
    // the simulated block layer inserts a request the instant it gets one (G = I): no plug delay.
    // Its D2C, and its Q2C when Q = I, are its service and request latencies (latencies())
    const a = this.accountOf(rq)
    st.requestInserted(a, rq, now)
    if (rq.queuedAt !== rq.insertedAt) this.requestLatency.record(now - rq.insertedAt)
    if (rq.devParts !== null) st.takeParts(rq, a.parts)
  }

  /** The run's request (I→C) and service (D→C) latencies, once: with the why, from its stages. */
  latencies(): { requestLatency: LatencyHistogramJSON; serviceLatency: LatencyHistogramJSON } {
    if (!this.latenciesIn && this.stages !== null)
      this.stages.latencyInto(this.serviceLatency, this.requestLatency)
    this.latenciesIn = true
    return { requestLatency: this.requestLatency.toJSON(), serviceLatency: this.serviceLatency.toJSON() }
  }

  levels(now: SimTime, queued: number, inFlight: number): void {
    if (inFlight > 0 && this.inFlight === 0) this.busySince = now
    else if (inFlight === 0 && this.inFlight > 0) this.busy += now - this.busySince
    this.inFlight = inFlight
    this.series.setLevels(now, queued, inFlight)
  }

  /**
   * Each process's read and write MB/s over time, ended at `now` as `series` is (so in its bins),
   * named by `names` (pid → name) or else by the name their requests carry, in pid order.
   */
  processSeries(now: SimTime, names: ReadonlyMap<number, string>): ProcessSeries[] {
    return this.perPid.finish(now).map(({ pid, name: own, series: d }) => {
      const name = names.get(pid) ?? own ?? `pid ${pid}`
      return { name, pid, readMBps: d.readMBps, writeMBps: d.writeMBps }
    })
  }

  totals(now: SimTime): DeviceTotals {
    const secs = now / SECOND || 1e-12
    const busy = this.busy + (this.inFlight > 0 ? now - this.busySince : 0)
    const requests = this.reqs[0] + this.reqs[1]
    return {
      readMBps: this.bytes[0] / 1e6 / secs,
      writeMBps: this.bytes[1] / 1e6 / secs,
      readIops: this.reqs[0] / secs,
      writeIops: this.reqs[1] / secs,
      readBytes: this.bytes[0],
      writeBytes: this.bytes[1],
      requests,
      utilisation: now > 0 ? busy / now : 0,
      seeks: this.seeks,
      meanSeekSectors: this.seeks ? this.seekDistance / this.seeks : 0,
      meanRequestKiB: requests ? (this.bytes[0] + this.bytes[1]) / 1024 / requests : 0,
    }
  }
}
