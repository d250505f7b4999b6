import { READ, WRITE } from '../block/types'
import type { Op } from '../block/types'
import { MS } from '../sim/time'
import type { SimTime } from '../sim/time'
import { PidTable } from '../util/pid-table'
import { DEFAULT_INTERVAL_NS, DEFAULT_MAX_BINS } from './timeseries'
import type { TimeSeriesRates } from './timeseries'

/** Completions held before they go into their processes' rows (~340 KiB of log). */
const LOG_SIZE = 16384
/** A TimeSeries' defaults, which each process's series follows: bins of 100 ms, at most 4 096. */
const INTERVAL = DEFAULT_INTERVAL_NS
const MAX_BINS = DEFAULT_MAX_BINS
/** Bins a row may hold: one more than a series, so a time at its very edge needs no merge (`finish`). */
const MAX_CAPACITY = MAX_BINS + 1
const INITIAL_BINS = 64
const INITIAL_ROWS = 64

/** One process's transfers, closed at the end of the run: its read and write MB/s. */
export interface ProcessTransfersData {
  pid: number
  /** The name its requests carried first. */
  name: string
  series: TimeSeriesRates
}

/**
 * Each process's bytes over time, for its read and write MB/s: what a TimeSeries per process gives
 * (its `rates`), kept in one table — a row of bins per process, every row with the same bin width,
 * grown and merged together — instead of a thousand series each with arrays of its own, allocated
 * and grown apart (jobs-1024 under cfq: 1 024 series each grew 64 → 128 → 256 bins; their growth
 * and construction were ~9 µs a process in the profile, besides what collecting them cost).
 *
 * With a thousand processes completing in turn, adding each completion to its own row at once
 * touches a line no longer in the CPU's caches every time. Completions of a process other than the
 * last one's are logged instead (pid slot, time, op, bytes: contiguous typed arrays) and added in
 * batches grouped by process (a stable counting sort of the log), row by row.
 *
 * The same figures as a TimeSeries per process: a bin sums integers (bytes) exactly in any order
 * and grouping, so a row kept at a finer width than a process's series would have is merged to
 * that width at the end with the same sums. A series' width at its close is the least 100 ms · 2^k
 * that holds both its latest transfer and `now − 1` in MAX_BINS bins; the table's never exceeds it
 * (it merges only past MAX_CAPACITY bins), so each row is merged to its own series' width.
 */
export class ProcessTransfers {
  private readonly pids: number[] = []
  private readonly names: string[] = []
  private readonly slotOf = new PidTable<number>()
  /** Bins per row, and their width. */
  private capacity = INITIAL_BINS
  private interval = INTERVAL
  /** Rows allocated. */
  private rows = INITIAL_ROWS
  /**
   * Read and write bytes: bin `b`, slot `s`, direction `op` at `2·(b·rows + s) + op` — a bin's
   * slots side by side: the processes' current bin is one stretch of memory, and a growth copies
   * a bin's slots in use in one piece. (Row by row, a slot's bins together, each growth of the bins
   * copied every row apart: 1 025 of them twice in a 1 024-job run.) The bins grow 4× at a time.
   */
  private bytes = new Float64Array(2 * INITIAL_ROWS * INITIAL_BINS)
  /** Each slot's latest transfer time (its own series' width follows it). */
  private latest = new Float64Array(INITIAL_ROWS)
  /** The last completion's process: its next ones (a process's requests complete in runs) go straight in. */
  private lastPid = -1
  private lastSlot = -1
  private logged = 0
  private readonly logSlot = new Int32Array(LOG_SIZE)
  private readonly logTime = new Float64Array(LOG_SIZE)
  private readonly logBytes = new Float64Array(LOG_SIZE)
  private readonly logOp = new Uint8Array(LOG_SIZE)
  /** The flush's counting sort: entries per slot, then where each slot's run starts; the order. */
  private starts = new Int32Array(64)
  private readonly order = new Int32Array(LOG_SIZE)

  /** Count a completed transfer of process `p.pid` (its requests named `p.name`). */
  add(p: { readonly pid: number; readonly name: string }, now: SimTime, op: Op, bytes: number): void {
    const pid = p.pid
    if (pid === this.lastPid) return this.put(this.lastSlot, now, op, bytes)
    const slot = this.slotOf.get(pid) ?? this.newSlot(pid, p.name)
    this.lastPid = pid
    this.lastSlot = slot
    const i = this.logged++
    this.logSlot[i] = slot
    this.logTime[i] = now
    this.logBytes[i] = bytes
    this.logOp[i] = op
    if (this.logged === LOG_SIZE) this.flush()
  }

  /** Every process's series closed at `now`, in pid order. */
  finish(now: SimTime): ProcessTransfersData[] {
    this.flush()
    return this.pids
      .map((pid, slot) => ({ pid, slot }))
      .sort((a, b) => a.pid - b.pid)
      .map(({ pid, slot }) => ({ pid, name: this.names[slot], series: this.rates(slot, now) }))
  }

  /** TimeSeries.rates of the process's series: its bins at its own width, closed at `now`. */
  private rates(slot: number, now: SimTime): TimeSeriesRates {
    // the series' width: its bins hold its latest transfer and now − 1 (TimeSeries.makeRoom, close)
    const reach = Math.max(this.latest[slot], now - 1)
    let interval = INTERVAL
    while (Math.floor(reach / interval) >= MAX_BINS) interval *= 2
    if (interval < this.interval) throw new Error('process transfers: a row is coarser than its series')
    const f = interval / this.interval
    const n = Math.ceil(now / interval)
    const readMBps = new Array<number>(n)
    const writeMBps = new Array<number>(n)
    for (let i = 0; i < n; i++) {
      readMBps[i] = this.sum(slot, i * f, f, READ)
      writeMBps[i] = this.sum(slot, i * f, f, WRITE)
    }
    // bin n holds only transfers at `now` exactly: the series folds it into bin n − 1 when `now`
    // ends a bin (TimeSeries.close)
    if (n > 0 && n * interval === now) {
      readMBps[n - 1] += this.sum(slot, n * f, f, READ)
      writeMBps[n - 1] += this.sum(slot, n * f, f, WRITE)
    }
    for (let i = 0; i < n; i++) {
      const span = Math.min(interval, now - i * interval)
      readMBps[i] = (readMBps[i] * 1e3) / span
      writeMBps[i] = (writeMBps[i] * 1e3) / span
    }
    return { intervalMs: interval / MS, readMBps, writeMBps }
  }

  /** Bytes in direction `op` of the slot's bins `from` … `from + count − 1` (those it holds). */
  private sum(slot: number, from: number, count: number, op: Op): number {
    const to = Math.min(from + count, this.capacity)
    const stride = 2 * this.rows
    const at = 2 * slot + op
    let sum = 0
    for (let j = from; j < to; j++) sum += this.bytes[at + stride * j]
    return sum
  }

  private newSlot(pid: number, name: string): number {
    const slot = this.pids.length
    if (slot === this.rows) this.resize(2 * this.rows, this.capacity)
    this.pids.push(pid)
    this.names.push(name)
    this.latest[slot] = -1
    this.slotOf.set(pid, slot)
    return slot
  }

  /** Add a transfer to the slot's row (TimeSeries.addTransfer). */
  private put(slot: number, t: SimTime, op: Op, bytes: number): void {
    let bin = Math.floor(t / this.interval)
    if (bin >= this.capacity) bin = this.makeRoom(t, bin)
    this.bytes[2 * (bin * this.rows + slot) + op] += bytes
    if (t > this.latest[slot]) this.latest[slot] = t
  }

  /** Grow the rows, or merge pairs of bins, until `bin` (the bin of time `t`) is held; its index then. */
  private makeRoom(t: SimTime, bin: number): number {
    let capacity = this.capacity
    while (bin >= capacity && capacity < MAX_CAPACITY) capacity = Math.min(4 * capacity, MAX_CAPACITY)
    if (capacity !== this.capacity) this.resize(this.rows, capacity)
    while (bin >= this.capacity) {
      this.halve()
      bin = Math.floor(t / this.interval)
    }
    return bin
  }

  /**
   * `rows` rows of `capacity` bins, the old ones copied in: bin by bin, the slots in use only, so
   * the new table's pages past them are not written (a fresh table's pages cost a fault each at
   * their first write, and the rows double: 1 025 processes have 2 048).
   */
  private resize(rows: number, capacity: number): void {
    const bytes = new Float64Array(2 * rows * capacity)
    const old = this.rows
    const used = 2 * this.pids.length
    for (let b = 0; b < this.capacity; b++)
      bytes.set(this.bytes.subarray(2 * b * old, 2 * b * old + used), 2 * b * rows)
    this.bytes = bytes
    if (rows !== this.rows) {
      const latest = new Float64Array(rows)
      latest.set(this.latest)
      this.latest = latest
    }
    this.rows = rows
    this.capacity = capacity
  }

  /** Merge bins 2i and 2i + 1 of every row into bin i and double the width. */
  private halve(): void {
    const c = this.capacity
    const b = this.bytes
    const stride = 2 * this.rows
    const n = 2 * this.pids.length
    // bin i takes bins 2i and 2i + 1, which no lower bin's merge has written over
    for (let i = 0; 2 * i < c; i++)
      for (let k = 0; k < n; k++) {
        const hi = 2 * i + 1 < c ? b[(2 * i + 1) * stride + k] : 0
        b[i * stride + k] = b[2 * i * stride + k] + hi
      }
    b.fill(0, Math.ceil(c / 2) * stride, c * stride)
    this.interval *= 2
  }

  /**
   * Add the logged completions, process by process (each one's in the order they came). The
   * counting sort's loops are functions of their own: with them in one function, V8 compiled it on
   * the stack (OSR) at its first loop, before the later loops had ever run, and that code left for
   * the interpreter at the next loop on every flush (24 times in 3 jobs-1024 cfq runs).
   */
  private flush(): void {
    const n = this.logged
    if (n === 0) return
    const slots = this.pids.length
    if (this.starts.length < slots + 1) this.starts = new Int32Array(2 * (slots + 1))
    const starts = this.starts
    starts.fill(0, 0, slots + 1)
    countSlots(this.logSlot, n, starts)
    prefixSums(starts, slots)
    placeInOrder(this.logSlot, n, starts, this.order)
    for (let k = 0; k < n; k++) {
      const i = this.order[k]
      this.put(this.logSlot[i], this.logTime[i], this.logOp[i] as Op, this.logBytes[i])
    }
    this.logged = 0
  }
}

function countSlots(slot: Int32Array, n: number, starts: Int32Array): void {
  for (let i = 0; i < n; i++) starts[slot[i] + 1]++
}

function prefixSums(starts: Int32Array, slots: number): void {
  for (let s = 0; s < slots; s++) starts[s + 1] += starts[s]
}

function placeInOrder(slot: Int32Array, n: number, starts: Int32Array, order: Int32Array): void {
  for (let i = 0; i < n; i++) order[starts[slot[i]]++] = i
}
