import { LatencyHistogram } from './histogram'

/** Values held before they go into the histogram: 512 bytes a process. */
const GATHER = 64

/**
 * A process's operation latencies, recorded into a histogram a batch at a time. With a thousand
 * processes, each records one value a thousand requests after its last, when nothing of its
 * histogram is in the CPU's caches: recorded one by one, each value cost the misses of the
 * histogram, its counts and the counts' line (a fifth of a 1 024-job run whose every job had a
 * request slot), and the windows of a thousand histograms grew value by value. Written to a small
 * buffer instead, a value costs one store; the buffer is recorded with the histogram's lines warm
 * through the batch (LatencyHistogram.recordEvery). The histogram read through `histogram()` holds every value
 * recorded, as if recorded one by one (its counts, sum and bounds do not depend on the order).
 */
export class LatencyGather {
  private readonly into = new LatencyHistogram()
  private readonly pending = new Float64Array(GATHER)
  private count = 0

  record(ns: number): void {
    this.pending[this.count] = ns
    if (++this.count === GATHER) this.flush()
  }

  /** The histogram of every value recorded so far. */
  histogram(): LatencyHistogram {
    this.flush()
    return this.into
  }

  /** Forget every value recorded so far. */
  reset(): void {
    this.count = 0
    this.into.reset()
  }

  private flush(): void {
    if (this.count === 0) return
    this.into.recordEvery(this.pending, 0, this.count, 1)
    this.count = 0
  }
}
