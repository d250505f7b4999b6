import type { BlkparseEvent } from '../formats/blkparse-line'
import { DispatchSample } from '../metrics/dispatch-sample'
import type { DispatchSampleData } from '../metrics/dispatch-sample'
import { TimeSeries } from '../metrics/timeseries'
import type { RunWhy } from '../metrics/why'
import { READ, WRITE } from '../block/types'
import type { ProcessSeries } from './result'
import type { RequestRecord } from './request-tap'
import type { StageAccount } from './stage-recorder'
import { StageRecorder } from './stage-recorder'
import { TraceRequests } from './trace-requests'
import type { TraceRequest } from './trace-requests'

/**
 * btt's request stages from a blktrace (blkparse's events, blkparse-line.ts), per process, in the
 * shape simulated runs have (metrics/why.ts), with the dispatches for the sector-over-time plot
 * and each process's completed bytes over time. trace-requests.ts matches the events to requests.
 *
 * Events a request may lack, and what stands in for them:
 * - no G (a request the trace saw first at I or D): G = Q — no wait for a request slot was seen;
 * - no I (blk-mq issued it directly, bypassing the scheduler: `none`, flushes, passthrough): I = D —
 *   it spent no time in a scheduler, and G…D counts as G2I (the submission path);
 * - no D before C: D = C.
 * An event stamped before the one it follows (the CPUs' clocks differ) counts as at that one
 * (StageRecorder.request): the stages add up to Q2C, and `missing` says how many requests had one.
 * A request whose Q the trace did not see (queued before tracing began) has no stages and no
 * owner; one that had not completed when tracing stopped is left out; both are counted in
 * `missing`.
 *
 * Dispatch order gives each process's batches (runs of consecutive dispatches), seeks and head
 * travel (sectors from the end of the previous dispatch), as the simulator counts them
 * (collector.ts). FIFO expiries are not in a trace: they stay 0, and `missing` says so.
 */
export interface TraceStagesOptions {
  /**
   * The process a pid's requests belong to, asked once per pid at its first queued bio: its
   * command, the bio's first sector and direction (trace-owners.ts names a real run's fio jobs).
   * Default: the command, or `pid N`.
   */
  nameOf?(pid: number, comm: string, sector: number, write: boolean): string
  /** The message (blkparse `m` event) that marks t = 0; default: the trace's own start. */
  anchor?: string
  /** Events to read at most; later ones are left out, and `missing` says where the trace was cut. */
  maxEvents?: number
  /**
   * Each completed request's stages as they were recorded (a test's look at each request, as
   * RunHooks.requests gives a simulated run's; `parts` null: a trace has no device parts).
   */
  requests?(r: RequestRecord): void
}

export const DEFAULT_MAX_TRACE_EVENTS = 5_000_000

/** A trace read into stages: see the module comment. Feed it events in time order, then `finish`. */
export class TraceStages {
  private readonly recorder = new StageRecorder()
  private readonly sample = new DispatchSample()
  private readonly names = new Map<number, string>()
  private readonly series = new Map<string, { pid: number; ts: TimeSeries }>()
  private readonly requests = new TraceRequests((e, write) => this.owner(e, write))
  private readonly maxEvents: number
  private events = 0
  private cutAtNs = -1
  private anchorNs = -1
  /** The first event's time: series and dispatches count from it (tracefs prints time since boot). */
  private baseNs = -1
  private lastNs = 0
  private lastEnd = -1
  private lastDispatched: StageAccount | null = null
  private seeks = 0
  private travel = 0
  private unowned = 0
  private dispatchedUnowned = 0
  private outOfOrder = 0

  constructor(private readonly o: TraceStagesOptions = {}) {
    this.maxEvents = o.maxEvents ?? DEFAULT_MAX_TRACE_EVENTS
  }

  /** Events read so far (not counting those past the cut). */
  get count(): number {
    return this.events
  }

  /** The trace was cut at `maxEvents`. */
  get cut(): boolean {
    return this.cutAtNs >= 0
  }

  add(e: BlkparseEvent): void {
    if (this.cutAtNs >= 0) return
    if (this.events >= this.maxEvents) {
      this.cutAtNs = e.ns
      return
    }
    this.events++
    if (this.baseNs < 0) this.baseNs = e.ns
    if (e.ns > this.lastNs) this.lastNs = e.ns
    switch (e.action) {
      case 'm':
        if (this.anchorNs < 0 && this.o.anchor !== undefined && e.message === this.o.anchor)
          this.anchorNs = e.ns
        return
      case 'Q':
        return this.requests.queued(e)
      case 'M':
      case 'F': {
        const acc = this.requests.merged(e)
        if (acc) acc.merged++
        return
      }
      case 'X':
        return this.requests.split(e)
      case 'G':
      case 'I':
        return this.requests.got(e)
      case 'D':
        return this.issued(e)
      case 'R':
        return this.requests.requeued(e)
      case 'C':
        return this.completed(e)
    }
  }

  /**
   * The account of a queued I/O's process (its pid named at its first I/O). An empty flush names
   * no sector: a pid first seen so is not named by it, and its flush counts for no one.
   */
  private owner(e: BlkparseEvent, write: boolean): StageAccount | null {
    if (e.sector < 0 && this.o.nameOf && !this.names.has(e.pid)) return null
    let name = this.names.get(e.pid)
    if (name === undefined) {
      name = this.o.nameOf?.(e.pid, e.process, e.sector, write) ?? (e.process || `pid ${e.pid}`)
      this.names.set(e.pid, name)
    }
    return this.recorder.of(e.pid, name)
  }

  private issued(e: BlkparseEvent): void {
    const r = this.requests.issued(e)
    this.dispatched(e, r)
    // its C came first (stamped on a CPU whose clock is behind): completed now, at that C
    if (r.c >= 0) this.record(r, r.c)
  }

  /** A dispatch: the sector-over-time plot, seeks, travel and batches. */
  private dispatched(e: BlkparseEvent, r: TraceRequest): void {
    if (e.sector < 0) return
    const a = r.acc
    if (this.lastEnd >= 0 && e.sector !== this.lastEnd) {
      const dist = Math.abs(e.sector - this.lastEnd)
      this.seeks++
      this.travel += dist
      if (a) {
        a.seeks++
        a.travelSectors += dist
      }
    }
    this.lastEnd = e.sector + e.nsect
    this.sample.add(e.ns - this.baseNs, e.sector, e.nsect, r.write ? WRITE : READ, r.pid)
    if (!a) {
      this.dispatchedUnowned++
      return
    }
    if (a !== this.lastDispatched) {
      a.batches++
      this.lastDispatched = a
    }
  }

  private completed(e: BlkparseEvent): void {
    const r = this.requests.completed(e)
    if (r) this.record(r, e.ns)
  }

  /** A request completed at `c`: its stages, in its process's account. */
  private record(r: TraceRequest, c: number): void {
    if (r.q < 0 || r.acc === null) {
      // without data: the flush machinery's own flush request, no one's I/O
      if (r.sector >= 0) this.unowned++
      return
    }
    const d = r.d >= 0 ? r.d : c
    const i = r.i >= 0 ? r.i : d
    const g = r.g >= 0 ? r.g : r.q
    if (!this.recorder.request(r.acc, r.write, r.q, g, i, d, c)) this.outOfOrder++
    if (this.o.requests) {
      const x = this.recorder.lastStages
      this.o.requests({
        pid: r.pid,
        process: r.acc.process,
        write: r.write,
        q2g: x[0],
        g2i: x[1],
        i2d: x[2],
        d2c: x[3],
        q2c: x[4],
        parts: null,
      })
    }
    if (r.nsect > 0)
      this.seriesOf(r.pid).addTransfer(Math.max(0, c - this.baseNs), r.write ? WRITE : READ, r.nsect * 512)
  }

  /** Completed bytes over time of the process `pid` belongs to (its instance name: `rr/3`). */
  private seriesOf(pid: number): TimeSeries {
    const n = this.names.get(pid) ?? `pid ${pid}`
    let s = this.series.get(n)
    if (!s) this.series.set(n, (s = { pid, ts: new TimeSeries({ intervalNs: 10e6 }) }))
    return s.ts
  }

  /** The run's t = 0, ns after the trace's first event: the anchor, or that first event. */
  get originNs(): number {
    return this.anchorNs >= 0 && this.baseNs >= 0 ? this.anchorNs - this.baseNs : 0
  }

  /**
   * The stages (`missing` also names what the trace could not tell), the dispatches with times
   * from the run's t = 0, and the trace's seeks.
   */
  /**
   * The stages and the rest of what the trace held; `source`: what read it — blktrace (and
   * blkparse), or the kernel's tracepoints through tracefs (ftrace-capture.ts).
   */
  finish(missing: readonly string[] = [], source: 'blktrace' | 'tracefs' = 'blktrace'): TraceStagesResult {
    // completed, their D never seen: at their C
    for (const r of this.requests.takeEarly()) this.record(r, r.c)
    const left = this.requests.inFlight
    const notes = [...missing]
    if (this.o.anchor !== undefined && this.anchorNs < 0)
      notes.push(`the trace has no start mark ("${this.o.anchor}"): its times count from its first event`)
    if (this.cutAtNs >= 0)
      notes.push(
        `the trace was cut after ${this.maxEvents} events (${((this.cutAtNs - this.baseNs - this.originNs) / 1e9).toFixed(3)} s into the run): ` +
          'stages, dispatches and per-process throughput cover the run up to there',
      )
    if (this.unowned > 0)
      notes.push(
        `${this.unowned} requests queued before tracing began have no stages (their Q is not in the trace)`,
      )
    if (left > 0)
      notes.push(`${left} requests had not completed when tracing stopped: left out of the stages`)
    if (this.outOfOrder > 0)
      notes.push(
        `${this.outOfOrder} requests had an event stamped before the one it follows (the CPUs' trace clocks differ): ` +
          'it counts as at that one, its stage 0',
      )
    notes.push('FIFO expiries are not in a trace (it has no deadlines): `expired` stays 0')
    const origin = this.originNs
    const d = this.sample.toJSON()
    // ms from the run's t = 0, to the ns
    const tMs = d.tMs.map((t) => Math.round((t - origin / 1e6) * 1e6) / 1e6)
    const keep = tMs.map((t) => t >= 0)
    const dispatches: DispatchSampleData = {
      stride: d.stride,
      tMs: tMs.filter((_, k) => keep[k]),
      sector: d.sector.filter((_, k) => keep[k]),
      nsect: d.nsect.filter((_, k) => keep[k]),
      op: d.op.filter((_, k) => keep[k]),
      pid: d.pid.filter((_, k) => keep[k]),
    }
    // ended at a bin's end, so that every bin's rate is over its whole width
    const last = Math.max(0, this.lastNs - this.baseNs)
    const end = (ts: TimeSeries): number => Math.ceil((last + 1) / ts.intervalNs) * ts.intervalNs
    const series = [...this.series].map(([name, s]) => ({ name, pid: s.pid, data: s.ts.finish(end(s.ts)) }))
    return {
      why: this.recorder.toJSON(source, false, notes),
      dispatches,
      cut: this.cutAtNs >= 0,
      seeks: this.seeks,
      meanSeekSectors: this.seeks > 0 ? this.travel / this.seeks : 0,
      processSeries(tMs, intervalMs) {
        return series.map(({ name, pid, data }) => ({
          name,
          pid,
          ...rebin(data.tMs, data.intervalMs, data.readMBps, data.writeMBps, origin / 1e6, tMs, intervalMs),
        }))
      },
    }
  }
}

export interface TraceStagesResult {
  why: RunWhy
  dispatches: DispatchSampleData
  /** The trace was cut at `maxEvents`: the figures cover its start only. */
  cut: boolean
  /** Dispatches that did not start where the previous one ended, and their mean distance. */
  seeks: number
  meanSeekSectors: number
  /**
   * Each process's read and write MB/s in the bins `tMs` (starts, ms from the run's t = 0; the
   * last is `intervalMs` long): the run's time series', so that they plot together.
   */
  processSeries(tMs: readonly number[], intervalMs: number): ProcessSeries[]
}

/** Move MB/s from fine bins (trace time, ms) into the bins `tMs` (run time = trace time − origin). */
function rebin(
  fineT: readonly number[],
  fineMs: number,
  read: readonly number[],
  write: readonly number[],
  originMs: number,
  tMs: readonly number[],
  intervalMs: number,
): { readMBps: number[]; writeMBps: number[] } {
  const r = tMs.map(() => 0)
  const w = tMs.map(() => 0)
  let k = 0
  for (let j = 0; j < fineT.length; j++) {
    const mid = fineT[j] + fineMs / 2 - originMs
    while (k + 1 < tMs.length && mid >= tMs[k + 1]) k++
    if (tMs.length === 0 || mid < tMs[0] || mid >= tMs[k] + binMs(tMs, k, intervalMs)) continue
    // MB in the fine bin
    r[k] += (read[j] * fineMs) / 1000
    w[k] += (write[j] * fineMs) / 1000
  }
  const per = (x: number, i: number): number => x / (binMs(tMs, i, intervalMs) / 1000)
  return { readMBps: r.map(per), writeMBps: w.map(per) }
}

const binMs = (tMs: readonly number[], i: number, intervalMs: number): number =>
  i + 1 < tMs.length ? tMs[i + 1] - tMs[i] : intervalMs
