import type { Op } from '../block/types'
import type { SimTime } from '../sim/time'
import { TimeSeries } from './timeseries'
import { PidTable } from '../util/pid-table'
import type { TimeSeriesRates } from './timeseries'

/** Completions held before they go into their processes' series (~340 KiB of log). */
const LOG_SIZE = 16384

/** One process's transfers, closed at the end of the run: its read and write MB/s. */
export interface ProcessTransfersData {
  pid: number
  /** The name its requests carried first. */
  name: string
  series: TimeSeriesRates
}

/**
 * Each process's bytes and requests over time (a TimeSeries per pid, for its MB/s). With a
 * thousand processes completing in turn, adding each completion to its own process's series at
 * once touches a series no longer in the CPU's caches every time — several misses per request.
 * Completions of a process other than the last one's are logged instead (pid slot, time, op,
 * bytes: contiguous typed arrays) and added in batches grouped by process (a stable counting sort
 * of the log), so each series is brought into the cache once per batch.
 *
 * The result is the same as adding each one at once: a series' bins sum integers (bytes, counts)
 * exactly in any order, and a completion added after its series doubled its interval lands in the
 * merged bin it would have been merged into (⌊⌊t/i⌋/2⌋ = ⌊t/2i⌋; TimeSeries takes any time up to
 * its next `finish`).
 */
export class ProcessTransfers {
  private readonly series: TimeSeries[] = []
  private readonly pids: number[] = []
  private readonly names: string[] = []
  private readonly slotOf = new PidTable<number>()
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
    if (pid === this.lastPid) {
      this.series[this.lastSlot].addTransfer(now, op, bytes)
      return
    }
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
      .map((pid, slot) => ({ pid, name: this.names[slot], series: this.series[slot] }))
      .sort((a, b) => a.pid - b.pid)
      .map(({ pid, name, series }) => ({ pid, name, series: series.rates(now) }))
  }

  private newSlot(pid: number, name: string): number {
    const slot = this.series.length
    this.series.push(new TimeSeries())
    this.pids.push(pid)
    this.names.push(name)
    this.slotOf.set(pid, slot)
    return slot
  }

  /** Add the logged completions, process by process (each one's in the order they came). */
  private flush(): void {
    const n = this.logged
    if (n === 0) return
    const slots = this.series.length
    if (this.starts.length < slots + 1) this.starts = new Int32Array(2 * (slots + 1))
    const starts = this.starts
    starts.fill(0, 0, slots + 1)
    const { logSlot, order } = this
    for (let i = 0; i < n; i++) starts[logSlot[i] + 1]++
    for (let s = 0; s < slots; s++) starts[s + 1] += starts[s]
    for (let i = 0; i < n; i++) order[starts[logSlot[i]]++] = i
    for (let k = 0; k < n; k++) {
      const i = order[k]
      this.series[logSlot[i]].addTransfer(this.logTime[i], this.logOp[i] as Op, this.logBytes[i])
    }
    this.logged = 0
  }
}
