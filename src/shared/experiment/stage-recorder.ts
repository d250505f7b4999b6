import { LatencyHistogram } from '../metrics/histogram'
import type { LatencyHistogramJSON } from '../metrics/histogram'
import { groupOf } from './process-groups'
import { PidTable } from '../util/pid-table'
import type { IdleWaits, LagPreemption, ProcessStages, RunWhy } from '../metrics/why'
import { WAIT_NAMES } from '../metrics/why'
import type { Request } from '../block/types'
import { addMarkedParts } from '../devices/device-parts'

/**
 * One process's requests as they pass the block layer: btt's stage histograms and the counters
 * of what the scheduler did for them. Instances of a spec process (`rr/0 … rr/7`, fio's numjobs)
 * share one account, so memory follows the spec's processes, not the instances.
 */
export class StageAccount {
  requests = 0
  readRequests = 0
  writeRequests = 0
  readonly q2g = new LatencyHistogram()
  readonly g2i = new LatencyHistogram()
  readonly i2d = new LatencyHistogram()
  readonly d2c = new LatencyHistogram()
  /**
   * Q2C of its requests queued the instant they were inserted (Q = I): their Q2C is their I2C too,
   * the value the run's requestLatency takes (StageRecorder.latencyInto). The others' are `q2cLater`.
   */
  readonly q2c = new LatencyHistogram()
  readonly q2cLater = new LatencyHistogram()
  /** D2C, Q2C of requests not yet in their histograms, two numbers a request. */
  readonly gather = new Float64Array(2 * 256)
  gathered = 0
  /** Their I2D where it was not 0, one number a request. */
  readonly gatherI2d = new Float64Array(256)
  gatheredI2d = 0
  /**
   * Requests whose G2I (Q2G, I2D) was 0 and not recorded in `g2i` (`q2g`, `i2d`):
   * StageRecorder.requestInserted.
   */
  zeroG2i = 0
  zeroQ2g = 0
  zeroI2d = 0
  /** D2C parts, ns, indexed as the recorder's `partNames` (empty when the device names none): StageRecorder.takeParts. */
  readonly parts: Float64Array
  batches = 0
  expired = 0
  merged = 0
  travelSectors = 0
  seeks = 0
  idleWaits = 0
  idleNs = 0
  idleRewarded = 0
  idleExpired = 0
  idleOthersNs = 0
  /** Its requests in the scheduler now. */
  queued = 0
  /**
   * Deceptive idleness: when its last dispatch left it nothing queued (−1: it had more), when its
   * next request came after that (−1: not yet), and whether the device moved on to another
   * process meanwhile (its next dispatch then counts a switch).
   */
  emptyAt = -1
  nextAt = -1
  deceivedNext = false
  deceived = 0
  deceivedGapNs = 0
  deceivedWaitNs = 0
  /** The machinery's waits (block/waits.ts), by kind: requests, ns. */
  readonly waits = new Float64Array(2 * WAIT_NAMES.length)
  /** Its tasks' preemptions by lag, summed (the run adds them at its end). */
  lag: LagPreemption | null = null

  constructor(
    readonly process: string,
    parts: number,
  ) {
    this.parts = new Float64Array(parts)
  }

  /** Record the gathered stages in their histograms. */
  flush(): void {
    const n = this.gathered
    if (n > 0) {
      this.d2c.recordEvery(this.gather, 0, n, 2)
      this.q2c.recordEvery(this.gather, 1, n, 2)
      this.gathered = 0
    }
    const m = this.gatheredI2d
    if (m > 0) {
      this.i2d.recordEvery(this.gatherI2d, 0, m, 1)
      this.gatheredI2d = 0
    }
  }

  toJSON(partNames: readonly string[], withIdle: boolean): ProcessStages {
    this.flush()
    const out: ProcessStages = {
      process: this.process,
      requests: this.requests,
      readRequests: this.readRequests,
      writeRequests: this.writeRequests,
      stages: {
        q2g: this.q2g.toJSONWithZeros(this.zeroQ2g),
        g2i: this.g2i.toJSONWithZeros(this.zeroG2i),
        i2d: this.i2d.toJSONWithZeros(this.zeroI2d),
        d2c: this.d2c.toJSON(),
        q2c: joined(this.q2c, this.q2cLater),
      },
      batches: this.batches,
      expired: this.expired,
      merged: this.merged,
      travelSectors: this.travelSectors,
      seeks: this.seeks,
    }
    if (withIdle)
      out.deceived = { switches: this.deceived, gapNs: this.deceivedGapNs, waitNs: this.deceivedWaitNs }
    if (partNames.length > 0) out.device = Object.fromEntries(partNames.map((n, i) => [n, this.parts[i]]))
    if (withIdle) out.idle = this.idle()
    const w = this.waits
    WAIT_NAMES.forEach((n, k) => {
      if (w[2 * k] > 0) (out.waits ??= {})[n] = { requests: w[2 * k], ns: w[2 * k + 1] }
    })
    if (this.lag !== null) out.lag = { ...this.lag }
    return out
  }

  private idle(): IdleWaits {
    return {
      waits: this.idleWaits,
      ns: this.idleNs,
      rewarded: this.idleRewarded,
      expired: this.idleExpired,
      othersWaitingNs: this.idleOthersNs,
    }
  }
}

/** The JSON of two histograms' values together, merged into a new one only when both hold some. */
function joined(a: LatencyHistogram, b: LatencyHistogram): LatencyHistogramJSON {
  if (b.count === 0) return a.toJSON()
  if (a.count === 0) return b.toJSON()
  return new LatencyHistogram().merge(a).merge(b).toJSON()
}

/**
 * Accounts by process for a run's requests, fed with each request's Q, G, I, D and C times (the
 * simulator's block layer, or a parsed blktrace). Stages never go negative, and a request's add up
 * to its Q2C: an event stamped before the one it follows (a trace's per-CPU clocks) counts as at
 * that one (`request`).
 */
export class StageRecorder {
  private readonly byPid = new PidTable<StageAccount>()
  private readonly byName = new Map<string, StageAccount>()
  /** The last account looked up, and its pid: a process's bios and requests come in runs. */
  private last: StageAccount | null = null
  private lastPid = -1

  /** Add a completed request's D2C parts to its account's `parts` (Device.takeParts). */
  takeParts: (rq: Request, into: Float64Array) => void = addMarkedParts

  constructor(private partNames: readonly string[] = []) {}

  /**
   * Name the device's D2C parts (Device.parts), and how to take a request's (Device.takeParts),
   * before the first request is accounted.
   */
  useParts(names: readonly string[], take: (rq: Request, into: Float64Array) => void = addMarkedParts): void {
    if (this.byName.size > 0) throw new Error('device parts named after requests were accounted')
    if (names.length > 31)
      throw new Error(`a device names at most 31 parts (a request's bit mask), not ${names.length}`)
    this.partNames = names
    this.takeParts = take
  }

  /** The account of the process with `pid`, named `name` (its spec process: `rr/3` → `rr`). */
  of(pid: number, name: string): StageAccount {
    if (pid === this.lastPid && this.last !== null) return this.last
    let a = this.byPid.get(pid)
    if (a !== undefined) {
      this.lastPid = pid
      return (this.last = a)
    }
    const group = groupOf(name)
    a = this.byName.get(group)
    if (a === undefined) this.byName.set(group, (a = new StageAccount(group, this.partNames.length)))
    this.byPid.set(pid, a)
    return a
  }

  /**
   * A completed request inserted the instant it got its request slot (G = I, no plugging: the
   * simulator's block layer). Its G2I is 0, counted, not recorded one by one (`zeroG2i`), as its I2D
   * is when it was dispatched the instant it was inserted (`zeroI2d`: most are). Its D2C
   * and, when it was queued the instant it was inserted, its Q2C are the values a run's service and
   * request latencies take: latencyInto gives them those, so the run records each value once.
   * Given the request, not its times: where this is not inlined into its caller (the completion
   * path of a thousand processes' requests is too big for V8 to inline it), a time passed as an
   * argument was a number boxed anew, three a request (~48 B: jobs-1024 cfq allocated 12.6 MB a run
   * at this call).
   */
  requestInserted(a: StageAccount, rq: Request, c: number): void {
    const q = rq.queuedAt
    const i = rq.insertedAt
    const d = rq.dispatchedAt
    a.requests++
    if (rq.op !== 0) a.writeRequests++
    else a.readRequests++
    a.zeroG2i++
    if (i === q) a.zeroQ2g++
    else {
      a.q2g.record(i - q)
      a.i2d.record(d - i)
      a.d2c.record(c - d)
      a.q2cLater.record(c - q)
      return
    }
    // D2C and Q2C gathered, and I2D unless 0, recorded a batch at a time (StageAccount.flush)
    if (d === i) a.zeroI2d++
    else {
      a.gatherI2d[a.gatheredI2d] = d - i
      if (++a.gatheredI2d === a.gatherI2d.length) a.flush()
    }
    const k = a.gathered
    const g = a.gather
    g[k] = c - d
    g[k + 1] = c - q
    if ((a.gathered = k + 2) === g.length) a.flush()
  }

  /**
   * The stages `request` recorded last, ns: Q2G, G2I, I2D, D2C, Q2C (for a test's look at each
   * request: TraceStagesOptions.requests).
   */
  readonly lastStages = new Float64Array(5)

  /**
   * A completed request's times (ns) as a trace stamped them; `write`: its direction. Returns
   * false when one of its events was stamped before the one it follows.
   *
   * Each CPU stamps the events it traces: tracefs on the instance's clock, by default `local`,
   * which "may not be in sync across CPUs" (Documentation/trace/ftrace.rst, trace_clock), and a
   * request's events come from several — queued by its process on one CPU, issued by a kworker on
   * another, completed in a third's interrupt — so a D may be stamped before its I, a C before its
   * D. Such an event counts as at the one it follows (each time the latest so far): its stage is
   * 0, the next counts from there, and the stages add up to Q2C exactly. (Clamping each stage at
   * 0 on its own counted the step back again in the next stage: G 10 µs before Q made Q2G 0 and
   * G2I 10 µs too long, and the stages added up to more than Q2C.)
   */
  request(a: StageAccount, write: boolean, q: number, g: number, i: number, d: number, c: number): boolean {
    a.requests++
    if (write) a.writeRequests++
    else a.readRequests++
    const inOrder = q <= g && g <= i && i <= d && d <= c
    const g1 = g > q ? g : q
    const i1 = i > g1 ? i : g1
    const d1 = d > i1 ? d : i1
    const c1 = c > d1 ? c : d1
    const x = this.lastStages
    x[0] = g1 - q
    x[1] = i1 - g1
    x[2] = d1 - i1
    x[3] = c1 - d1
    x[4] = c1 - q
    a.q2g.record(x[0])
    a.g2i.record(x[1])
    a.i2d.record(x[2])
    a.d2c.record(x[3])
    a.q2c.record(x[4])
    return inOrder
  }

  /**
   * Add every account's D2C to `service` and the Q2C of its requests queued the instant they were
   * inserted (their I2C) to `request`: the values requestInserted was given for a run's service
   * and request latencies.
   */
  latencyInto(service: LatencyHistogram, request: LatencyHistogram): void {
    for (const a of this.byName.values()) {
      a.flush()
      service.merge(a.d2c)
      request.merge(a.q2c)
    }
  }

  /** The account of spec process `name`, if its requests made one. */
  named(name: string): StageAccount | undefined {
    return this.byName.get(groupOf(name))
  }

  /** The accounts, in first-seen order. `withIdle`: the source can tell idle choices (a simulation). */
  toJSON(source: RunWhy['source'], withIdle: boolean, missing?: string[]): RunWhy {
    const why: RunWhy = {
      source,
      processes: [...this.byName.values()].map((a) => a.toJSON(this.partNames, withIdle)),
    }
    if (missing && missing.length > 0) why.missing = missing
    return why
  }
}
