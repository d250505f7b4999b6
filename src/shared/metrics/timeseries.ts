import { READ, WRITE } from '../block/types'
import type { Op } from '../block/types'
import { MS } from '../sim/time'
import type { SimTime } from '../sim/time'

export interface TimeSeriesOptions {
  /** Initial bin width in ns (a positive integer); doubles whenever the bins are merged. Default 100 ms. */
  intervalNs?: SimTime
  /** Most bins ever held (an even number ≥ 2). Default 4096. */
  maxBins?: number
}

/** Per-bin series, ready to plot. Rates are per second of the bin (MB = 10^6 bytes). */
export interface TimeSeriesData {
  intervalMs: number
  /** Start of each bin. */
  tMs: number[]
  readMBps: number[]
  writeMBps: number[]
  readIops: number[]
  writeIops: number[]
  /** Time-weighted mean number of requests queued in the scheduler. */
  queued: number[]
  /** Time-weighted mean number of requests in flight at the device. */
  inFlight: number[]
}

/** A series' read and write MB/s alone (TimeSeries.rates). */
export type TimeSeriesRates = Pick<TimeSeriesData, 'intervalMs' | 'readMBps' | 'writeMBps'>

const INITIAL_BINS = 64
/** The default bin width (ns) and most bins: process-transfers.ts keeps its rows to the same. */
export const DEFAULT_INTERVAL_NS = 100 * MS
export const DEFAULT_MAX_BINS = 4096
const NO_LEVELS = new Float64Array(0)

/**
 * Throughput, IOPS and queue levels over simulated time, in fixed bins [i·interval, (i+1)·interval)
 * from time 0. Memory is bounded: bins are typed arrays grown by doubling up to `maxBins`; a time
 * beyond the last bin merges adjacent pairs and doubles the interval, so any run length fits in
 * `maxBins` bins. Nothing is allocated per call except on growth and merging, which happen
 * O(log) times in a run.
 *
 * Time must not go backwards across `setLevels` / `finish` calls (it throws if it does);
 * `addTransfer` may be given any time up to the next `finish`.
 */
export class TimeSeries {
  private interval: number
  private readonly maxBins: number
  /** Bytes and completed requests, two slots per bin: index `2·bin + op`. */
  private bytes: Float64Array
  private ops: Float64Array
  /**
   * Level × ns, summed per bin; empty until a level other than 0 is integrated (a series that
   * only counts transfers — the collector's one per process — never needs them).
   */
  private queuedArea: Float64Array = NO_LEVELS
  private inFlightArea: Float64Array = NO_LEVELS
  private capacity: number
  private queuedLevel = 0
  private inFlightLevel = 0
  /** Time up to which the levels have been integrated. */
  private levelTime: SimTime = 0
  /**
   * The bin last found by a division, [binStart, binEnd) (empty: none yet, or the interval changed
   * since): a time inside it is in that bin without dividing again — events come microseconds
   * apart and bins are 100 ms or more. Exact: below 2^53 the quotient never rounds across a bin edge.
   */
  private bin = 0
  private binStart = Infinity
  private binEnd = -Infinity

  constructor(options: TimeSeriesOptions = {}) {
    const intervalNs = options.intervalNs ?? DEFAULT_INTERVAL_NS
    const maxBins = options.maxBins ?? DEFAULT_MAX_BINS
    if (!(Number.isSafeInteger(intervalNs) && intervalNs > 0))
      throw new RangeError(`bad interval ${intervalNs}`)
    if (!(Number.isInteger(maxBins) && maxBins >= 2 && maxBins % 2 === 0)) {
      throw new RangeError(`maxBins must be an even integer ≥ 2, got ${maxBins}`)
    }
    this.interval = intervalNs
    this.maxBins = maxBins
    this.capacity = Math.min(INITIAL_BINS, maxBins)
    this.bytes = new Float64Array(2 * this.capacity)
    this.ops = new Float64Array(2 * this.capacity)
  }

  /** Current bin width in ns. */
  get intervalNs(): SimTime {
    return this.interval
  }

  /** Count a completed transfer of `bytes` in direction `op` at time `now`. */
  addTransfer(now: SimTime, op: Op, bytes: number): void {
    let bin = this.bin
    if (now < this.binStart || now >= this.binEnd) {
      bin = Math.floor(now / this.interval)
      if (bin >= this.capacity) bin = this.makeRoom(now, bin)
      this.holdBin(bin)
    }
    const slot = 2 * bin + op
    this.bytes[slot] += bytes
    this.ops[slot]++
  }

  /** The levels changed at `now`: the previous levels held since the last call. */
  setLevels(now: SimTime, queued: number, inFlight: number): void {
    if (now !== this.levelTime) this.integrate(now)
    this.queuedLevel = queued
    this.inFlightLevel = inFlight
  }

  /** Total bytes transferred in one direction so far (unchanged by merging). */
  totalBytes(op: Op): number {
    let sum = 0
    for (let i = op; i < 2 * this.capacity; i += 2) sum += this.bytes[i]
    return sum
  }

  /** Total requests completed in one direction so far. */
  totalRequests(op: Op): number {
    let sum = 0
    for (let i = op; i < 2 * this.capacity; i += 2) sum += this.ops[i]
    return sum
  }

  /**
   * Close the series at `now` (the end of the run) and return it: bins 0 … ⌈now/interval⌉ − 1,
   * the last one possibly partial and averaged over the part covered. Transfers at exactly `now`
   * when it falls on a bin boundary are counted in the last bin. Does not reset: more data and
   * another `finish` may follow (handy for progress snapshots).
   */
  finish(now: SimTime): TimeSeriesData {
    const n = this.close(now)
    const interval = this.interval
    const levels = this.queuedArea.length > 0
    // arrays made at their size: pushing grew and copied each one ~log n times
    const tMs = new Array<number>(n)
    const queued = new Array<number>(n)
    const inFlight = new Array<number>(n)
    const readIops = new Array<number>(n)
    const writeIops = new Array<number>(n)
    for (let i = 0; i < n; i++) {
      const start = i * interval
      const span = Math.min(interval, now - start)
      tMs[i] = start / MS
      readIops[i] = (this.ops[2 * i + READ] * 1e9) / span
      writeIops[i] = (this.ops[2 * i + WRITE] * 1e9) / span
      queued[i] = levels ? this.queuedArea[i] / span : 0
      inFlight[i] = levels ? this.inFlightArea[i] / span : 0
    }
    const { readMBps, writeMBps } = this.rates(now, n)
    return { intervalMs: interval / MS, tMs, readMBps, writeMBps, readIops, writeIops, queued, inFlight }
  }

  /**
   * `finish`'s read and write MB/s alone (what a process's series is kept for): a thousand
   * processes' series closed at the end of a run built five more arrays each that were dropped.
   * `n`: the bins, when the series is already closed at `now`.
   */
  rates(now: SimTime, n = this.close(now)): TimeSeriesRates {
    const interval = this.interval
    const readMBps = new Array<number>(n)
    const writeMBps = new Array<number>(n)
    for (let i = 0; i < n; i++) {
      const span = Math.min(interval, now - i * interval)
      readMBps[i] = (this.bytes[2 * i + READ] * 1e3) / span
      writeMBps[i] = (this.bytes[2 * i + WRITE] * 1e3) / span
    }
    return { intervalMs: interval / MS, readMBps, writeMBps }
  }

  /** Integrate up to `now` and hold its last bin; returns the number of bins, ⌈now/interval⌉. */
  private close(now: SimTime): number {
    this.integrate(now)
    let n = Math.ceil(now / this.interval)
    if (n > 0 && n - 1 >= this.capacity) {
      this.makeRoom(now - 1, n - 1)
      n = Math.ceil(now / this.interval)
    }
    // A completion at exactly `now` on a boundary went into bin n: fold it into bin n − 1.
    if (n > 0 && n < this.capacity && n * this.interval === now) {
      for (let op = READ; op <= WRITE; op++) {
        this.bytes[2 * (n - 1) + op] += this.bytes[2 * n + op]
        this.ops[2 * (n - 1) + op] += this.ops[2 * n + op]
        this.bytes[2 * n + op] = 0
        this.ops[2 * n + op] = 0
      }
    }
    return n
  }

  /** Add level × time from `levelTime` to `now`, split at bin boundaries. */
  private integrate(now: SimTime): void {
    let t = this.levelTime
    if (now < t) throw new RangeError(`time went backwards: ${now} < ${t}`)
    if (now === t) return
    const q = this.queuedLevel
    const f = this.inFlightLevel
    this.levelTime = now
    if (q === 0 && f === 0) return
    if (t >= this.binStart && now <= this.binEnd && this.queuedArea.length > 0) {
      // within one bin (the loop below, once), once the level arrays exist
      const dt = now - t
      this.queuedArea[this.bin] += q * dt
      this.inFlightArea[this.bin] += f * dt
      return
    }
    // The last nanosecond covered is now − 1: make room for its bin first (merging may change the interval).
    const lastBin = Math.floor((now - 1) / this.interval)
    if (lastBin >= this.capacity) this.makeRoom(now - 1, lastBin)
    if (this.queuedArea.length === 0) {
      this.queuedArea = new Float64Array(this.capacity)
      this.inFlightArea = new Float64Array(this.capacity)
    }
    const interval = this.interval
    let bin = Math.floor(t / interval)
    while (t < now) {
      const binEnd = (bin + 1) * interval
      const end = now < binEnd ? now : binEnd
      const dt = end - t
      this.queuedArea[bin] += q * dt
      this.inFlightArea[bin] += f * dt
      t = end
      bin++
    }
    this.holdBin(bin - 1)
  }

  /** Remember bin `bin` (held: below `capacity`) as the one to try first. */
  private holdBin(bin: number): void {
    this.bin = bin
    this.binStart = bin * this.interval
    this.binEnd = (bin + 1) * this.interval
  }

  /** Grow, or merge pairs of bins, until `bin` (the bin of time `t`) is held; returns its new index. */
  private makeRoom(t: SimTime, bin: number): number {
    while (bin >= this.capacity && this.capacity < this.maxBins) this.grow()
    while (bin >= this.maxBins) {
      this.halve()
      bin = Math.floor(t / this.interval)
    }
    while (bin >= this.capacity) this.grow()
    return bin
  }

  private grow(): void {
    const capacity = Math.min(2 * this.capacity, this.maxBins)
    this.bytes = grown(this.bytes, 2 * capacity)
    this.ops = grown(this.ops, 2 * capacity)
    if (this.queuedArea.length > 0) {
      this.queuedArea = grown(this.queuedArea, capacity)
      this.inFlightArea = grown(this.inFlightArea, capacity)
    }
    this.capacity = capacity
  }

  /** Merge bins 2i and 2i + 1 into bin i and double the interval. */
  private halve(): void {
    const half = this.capacity >> 1
    for (let i = 0; i < half; i++) {
      for (let op = READ; op <= WRITE; op++) {
        this.bytes[2 * i + op] = this.bytes[4 * i + op] + this.bytes[4 * i + 2 + op]
        this.ops[2 * i + op] = this.ops[4 * i + op] + this.ops[4 * i + 2 + op]
      }
      if (this.queuedArea.length === 0) continue
      this.queuedArea[i] = this.queuedArea[2 * i] + this.queuedArea[2 * i + 1]
      this.inFlightArea[i] = this.inFlightArea[2 * i] + this.inFlightArea[2 * i + 1]
    }
    this.bytes.fill(0, 2 * half)
    this.ops.fill(0, 2 * half)
    this.queuedArea.fill(0, half)
    this.inFlightArea.fill(0, half)
    this.interval *= 2
    this.binStart = Infinity
    this.binEnd = -Infinity
  }
}

function grown(a: Float64Array, length: number): Float64Array {
  const b = new Float64Array(length)
  b.set(a)
  return b
}
