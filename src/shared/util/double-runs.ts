/**
 * Runs of `stride` doubles in one Float64Array, one run per object that keeps its numbers here
 * instead of in fields: a field holding a number that is no small integer (a time in nanoseconds,
 * a virtual time) points to a number boxed apart from its object, so with a thousand processes
 * each such field a request reads is a cold line of its own, where a run is one or two lines, and
 * every run lies in one array. A run is taken with `open` (zeroed) and never given back; the array
 * doubles as needed, so read `data` afresh after an `open`. Measure before using it elsewhere:
 * cfq's context statistics gained (jobs-1024 cfq 0.61 → 0.54 s), but the host's time account and
 * bfq's queue times kept this way measured no gain (within ±2 %), and the CPU scheduler's task
 * times behind accessors cost runs of one process 5–7 %.
 */
export class DoubleRuns {
  data: Float64Array
  private used = 0

  constructor(private readonly stride: number) {
    this.data = new Float64Array(64 * stride)
  }

  /** A new run, zeroed: where it starts in `data`. */
  open(): number {
    if (this.used + this.stride > this.data.length) {
      const grown = new Float64Array(2 * this.data.length)
      grown.set(this.data)
      this.data = grown
    }
    const at = this.used
    this.used += this.stride
    return at
  }
}
