import { MS } from '../sim/time'
import type { SimTime } from '../sim/time'

/** Columns of the kept dispatches, in dispatch order; every `stride`-th dispatch was kept. */
export interface DispatchSampleData {
  stride: number
  tMs: number[]
  sector: number[]
  nsect: number[]
  op: number[]
  pid: number[]
}

const INITIAL_CAPACITY = 1024

/**
 * A bounded, deterministic sample of dispatches for a sector-over-time plot: systematic
 * decimation, no RNG. Dispatch number i (from 0) is kept when i is a multiple of `stride`; when
 * the buffer is full, every second entry is dropped and the stride doubles, so the sample always
 * spans the whole run evenly (in dispatch order) with between capacity/2 and capacity entries
 * once the first decimation has happened. Columns are typed arrays grown by doubling up to
 * `capacity`; `add` allocates nothing otherwise.
 */
export class DispatchSample {
  private readonly capacity: number
  private size = 0
  private step = 1
  /** Dispatches offered so far, and the number of the next one to keep. */
  private seen = 0
  private nextKept = 0
  private time: Float64Array
  private sectors: Float64Array
  private lengths: Uint32Array
  private ops: Uint8Array
  private pids: Int32Array

  /** `capacity`: an even number ≥ 2 (default 20 000). */
  constructor(capacity = 20_000) {
    if (!(Number.isInteger(capacity) && capacity >= 2 && capacity % 2 === 0)) {
      throw new RangeError(`capacity must be an even integer ≥ 2, got ${capacity}`)
    }
    this.capacity = capacity
    const initial = Math.min(INITIAL_CAPACITY, capacity)
    this.time = new Float64Array(initial)
    this.sectors = new Float64Array(initial)
    this.lengths = new Uint32Array(initial)
    this.ops = new Uint8Array(initial)
    this.pids = new Int32Array(initial)
  }

  /** Entries held. */
  get count(): number {
    return this.size
  }

  /** Dispatches offered so far. */
  get total(): number {
    return this.seen
  }

  get stride(): number {
    return this.step
  }

  add(timeNs: SimTime, sector: number, nsect: number, op: number, pid: number): void {
    const i = this.seen++
    if (i !== this.nextKept) return
    if (this.size === this.time.length) {
      if (this.size < this.capacity) this.grow()
      // i = capacity · stride and capacity is even, so i is a multiple of the doubled stride: still kept.
      else this.decimate()
    }
    const k = this.size++
    this.time[k] = timeNs
    this.sectors[k] = sector
    this.lengths[k] = nsect
    this.ops[k] = op
    this.pids[k] = pid
    this.nextKept = i + this.step
  }

  reset(): void {
    this.size = 0
    this.step = 1
    this.seen = 0
    this.nextKept = 0
  }

  toJSON(): DispatchSampleData {
    const n = this.size
    const out: DispatchSampleData = { stride: this.step, tMs: [], sector: [], nsect: [], op: [], pid: [] }
    for (let k = 0; k < n; k++) {
      out.tMs.push(this.time[k] / MS)
      out.sector.push(this.sectors[k])
      out.nsect.push(this.lengths[k])
      out.op.push(this.ops[k])
      out.pid.push(this.pids[k])
    }
    return out
  }

  /** Keep entries 0, 2, 4 … (dispatch numbers that are multiples of 2·stride) and double the stride. */
  private decimate(): void {
    const half = this.size >> 1
    for (let k = 0; k < half; k++) {
      const j = 2 * k
      this.time[k] = this.time[j]
      this.sectors[k] = this.sectors[j]
      this.lengths[k] = this.lengths[j]
      this.ops[k] = this.ops[j]
      this.pids[k] = this.pids[j]
    }
    this.size = half
    this.step *= 2
  }

  private grow(): void {
    const length = Math.min(2 * this.time.length, this.capacity)
    this.time = grown(new Float64Array(length), this.time)
    this.sectors = grown(new Float64Array(length), this.sectors)
    this.lengths = grown(new Uint32Array(length), this.lengths)
    this.ops = grown(new Uint8Array(length), this.ops)
    this.pids = grown(new Int32Array(length), this.pids)
  }
}

function grown<T extends Float64Array | Uint32Array | Uint8Array | Int32Array>(into: T, from: T): T {
  into.set(from)
  return into
}
