import type { SimTime } from '../../sim/time'
import { MS } from '../../sim/time'
import { kyberConstant } from './constants'

/** Bucket width is target / 2^LATENCY_SHIFT: a quarter of the target. */
export const LATENCY_SHIFT = kyberConstant('latency_shift')
/** Buckets 0–3 are at or under the target: "good". */
export const GOOD_BUCKETS = 1 << LATENCY_SHIFT
/** Buckets 4–7 are over it; the last one holds everything above 1¾ × target. */
export const LATENCY_BUCKETS = 2 << LATENCY_SHIFT
/** Latency types: from the request's allocation (total), from its dispatch (I/O, the device's). */
export const TOTAL_LATENCY = 0
export const IO_LATENCY = 1
/** Percentiles are computed once a domain has this many samples… */
export const MIN_SAMPLES = kyberConstant('min_samples')
/** …or this long after the first sample of its window, whichever comes first. */
export const SAMPLE_WINDOW: SimTime = kyberConstant('sample_window') * MS

const UNSET = -1

/**
 * Kyber's latency histograms (kqd->latency_buckets and calculate_percentile): per domain with a
 * target, two 8-bucket histograms, one per latency type. A percentile read empties the histogram
 * it read. The 1 s window is per domain and shared by both types, as in the kernel — so when a
 * window expires, the first type read in that timer run consumes it and the other waits for the
 * next window or for 500 samples.
 */
export class LatencyHistograms {
  private readonly buckets: Uint32Array
  private readonly timeout: SimTime[]
  /** Samples behind the last percentile read (what trace_kyber_latency reports). */
  lastSamples = 0

  constructor(readonly domains: number) {
    this.buckets = new Uint32Array(domains * 2 * LATENCY_BUCKETS)
    this.timeout = new Array<SimTime>(domains).fill(UNSET)
  }

  /** add_latency_sample: bucket = ⌊(latency − 1) / (target / 4)⌋, at most 7. */
  add(domain: number, type: number, target: number, latency: SimTime): void {
    let bucket = 0
    if (latency > 0) {
      const width = Math.max(Math.floor(target / GOOD_BUCKETS), 1)
      bucket = Math.min(Math.floor((latency - 1) / width), LATENCY_BUCKETS - 1)
    }
    this.buckets[(domain * 2 + type) * LATENCY_BUCKETS + bucket]++
  }

  /**
   * calculate_percentile: the bucket holding the `percentile`-th sample, or -1 when there are no
   * samples, or fewer than 500 and the domain's 1 s window has not passed (the first call opens it).
   */
  percentile(domain: number, type: number, percentile: number, now: SimTime): number {
    const base = (domain * 2 + type) * LATENCY_BUCKETS
    const samples = this.samples(base)
    if (samples === 0) return -1
    if (this.timeout[domain] === UNSET) this.timeout[domain] = now + SAMPLE_WINDOW
    if (samples < MIN_SAMPLES && this.timeout[domain] > now) return -1
    this.timeout[domain] = UNSET
    this.lastSamples = samples
    let rank = Math.ceil((samples * percentile) / 100)
    let bucket = 0
    for (; bucket < LATENCY_BUCKETS - 1; bucket++) {
      const n = this.buckets[base + bucket]
      if (n >= rank) break
      rank -= n
    }
    this.buckets.fill(0, base, base + LATENCY_BUCKETS)
    return bucket
  }

  private samples(base: number): number {
    let s = 0
    for (let b = 0; b < LATENCY_BUCKETS; b++) s += this.buckets[base + b]
    return s
  }
}
