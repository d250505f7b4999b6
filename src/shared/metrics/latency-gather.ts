import { LatencyHistogram } from './histogram'

/** Values held before they go into their histograms: 8192 (192 KiB with the flush's copy). */
const GATHER = 8192

/**
 * Every process's operation latencies, recorded into their histograms a batch at a time. With a
 * thousand processes, each records one value a thousand requests after its last, when nothing of
 * its histogram is in the CPU's caches: recorded one by one, each value cost the misses of the
 * histogram, its counts and the counts' line (a fifth of a 1 024-job run whose every job had a
 * request slot), and the windows of a thousand histograms grew value by value. A buffer per
 * process still cost a cold line a value (its own, and the objects that led to it). So the values
 * of all the processes go to one log (value, histogram: contiguous typed arrays, always warm),
 * and a full log is recorded grouped by histogram (a stable counting sort), each histogram's
 * lines warm through its run (LatencyHistogram.recordEvery).
 *
 * A histogram read through `histogram()` holds every value recorded, as if recorded one by one:
 * its values go in in the order they came, so its window widens as it would have, and its counts,
 * sum and bounds do not depend on the batch boundaries.
 */
export class LatencyGather {
  private readonly into: LatencyHistogram[] = []
  private readonly values = new Float64Array(GATHER)
  private readonly owners = new Int32Array(GATHER)
  private count = 0
  /** The flush's counting sort: values per histogram, then where each one's run ends; the runs. */
  private ends = new Int32Array(64)
  private readonly grouped = new Float64Array(GATHER)

  /** A new, empty histogram recorded through this gather: its number, for the others. */
  open(): number {
    this.into.push(new LatencyHistogram())
    return this.into.length - 1
  }

  record(h: number, ns: number): void {
    const i = this.count
    this.values[i] = ns
    this.owners[i] = h
    if (++this.count === GATHER) this.flush()
  }

  /** Histogram `h` with every value recorded so far. */
  histogram(h: number): LatencyHistogram {
    this.flush()
    return this.into[h]
  }

  /** Forget every value recorded so far into histogram `h`. */
  reset(h: number): void {
    this.flush()
    this.into[h].reset()
  }

  private flush(): void {
    const n = this.count
    if (n === 0) return
    const hs = this.into.length
    if (this.ends.length < hs + 1) this.ends = new Int32Array(2 * (hs + 1))
    const { ends, owners, values, grouped } = this
    ends.fill(0, 0, hs + 1)
    for (let i = 0; i < n; i++) ends[owners[i] + 1]++
    for (let h = 0; h < hs; h++) ends[h + 1] += ends[h]
    for (let i = 0; i < n; i++) grouped[ends[owners[i]]++] = values[i]
    // ends[h] is now where h's run ends, and the previous one's end where it starts
    let from = 0
    for (let h = 0; h < hs; h++) {
      const to = ends[h]
      if (to > from) this.into[h].recordEvery(grouped, from, to, 1)
      from = to
    }
    this.count = 0
  }
}
