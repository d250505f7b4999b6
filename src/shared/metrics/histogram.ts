import { MS } from '../sim/time'

/**
 * Log-linear bucketing (HdrHistogram's, fio's): values below 128 get a bucket each; above, every
 * range [2^k, 2^(k+1)) is split into 64 equal sub-buckets, so a bucket is narrower than 1/64 of
 * any value in it (relative error < 1.6 %). Indices run 0 … 3071 and cover every safe integer
 * (0 … 2^53 − 1 ns, about 104 days), the whole range of simulated time.
 */
const SUB_BITS = 6
const BUCKETS_PER_POW2 = 1 << SUB_BITS
const MAX_EXPONENT = 52
const BUCKET_COUNT = (MAX_EXPONENT - SUB_BITS + 2) << SUB_BITS
const TWO_POW_32 = 0x1_0000_0000
const MAX_VALUE = Number.MAX_SAFE_INTEGER

/** 2^s for every shift a bucket index may need. */
const POW2 = new Float64Array(MAX_EXPONENT + 1)
/** Smallest and largest integer in each bucket: shared by every histogram, built once. */
const LOWEST = new Float64Array(BUCKET_COUNT)
const HIGHEST = new Float64Array(BUCKET_COUNT)
for (let s = 0; s <= MAX_EXPONENT; s++) POW2[s] = 2 ** s
for (let i = 0; i < BUCKET_COUNT; i++) {
  if (i < 2 * BUCKETS_PER_POW2) {
    LOWEST[i] = i
    HIGHEST[i] = i
  } else {
    const shift = (i >> SUB_BITS) - 1
    const mantissa = (i & (BUCKETS_PER_POW2 - 1)) + BUCKETS_PER_POW2
    LOWEST[i] = mantissa * POW2[shift]
    HIGHEST[i] = LOWEST[i] + POW2[shift] - 1
  }
}

/** Bucket of a value in [0, 2^53): `(k − 6)·64 + ⌊v / 2^(k−6)⌋` where 2^k ≤ v < 2^(k+1). */
export function bucketIndex(v: number): number {
  if (v < 2 * BUCKETS_PER_POW2) return v | 0
  if (v < TWO_POW_32) {
    const shift = 31 - Math.clz32(v) - SUB_BITS
    return (shift << SUB_BITS) + (v >>> shift)
  }
  const shift = 63 - Math.clz32(v / TWO_POW_32) - SUB_BITS
  return (shift << SUB_BITS) + Math.floor(v / POW2[shift])
}

/** The serialised form: counts are sparse `[bucketIndex, count]` pairs in increasing index order. */
export interface LatencyHistogramJSON {
  bucketsPerPow2: number
  counts: Array<[number, number]>
  min: number
  max: number
  sum: number
  count: number
}

export interface CdfPoint {
  valueNs: number
  /** Fraction of recorded values ≤ `valueNs`, in (0, 1]. */
  fraction: number
}

/** The window of buckets held grows by whole rows (a power of two's 64 sub-buckets). */
const ROW = BUCKETS_PER_POW2
const EMPTY = new Float64Array(0)

/**
 * Streaming histogram of non-negative integer nanosecond values (latencies). Counts are kept for
 * a window of buckets, `base` … `base + counts.length − 1` (whole rows of 64), widened when a value
 * falls outside: a process's latencies span a few powers of two, so a histogram holds 1–3 KiB
 * instead of all 3072 buckets (24 KiB) — what lets a run of a thousand processes, each with its
 * own histogram, allocate and summarise them cheaply. Buckets outside the window are zero.
 * `record` allocates only when it widens the window (a few times in a histogram's life).
 * `count`, `min`, `max`, `mean` are exact; percentiles and the CDF are exact to the bucket.
 * Statistics of an empty histogram are NaN.
 */
export class LatencyHistogram {
  static readonly bucketsPerPow2 = BUCKETS_PER_POW2
  private counts: Float64Array = EMPTY
  /** Bucket index of counts[0]. */
  private base = 0
  private n = 0
  private total = 0
  private lo = Infinity
  private hi = -Infinity

  /** Record one value. Throws a RangeError for a negative, NaN or unsafe (≥ 2^53) value. */
  record(ns: number): void {
    if (!(ns >= 0 && ns <= MAX_VALUE)) throw new RangeError(`latency out of range: ${ns}`)
    const b = bucketIndex(ns)
    const i = b - this.base
    if (i >= 0 && i < this.counts.length) this.counts[i]++
    else this.countsFor(b, b)[b - this.base]++
    this.n++
    this.total += ns
    if (ns < this.lo) this.lo = ns
    if (ns > this.hi) this.hi = ns
  }

  get count(): number {
    return this.n
  }

  /** Sum of all recorded values (exact while below 2^53). */
  get sum(): number {
    return this.total
  }

  get min(): number {
    return this.n === 0 ? NaN : this.lo
  }

  get max(): number {
    return this.n === 0 ? NaN : this.hi
  }

  get mean(): number {
    return this.n === 0 ? NaN : this.total / this.n
  }

  /**
   * The value at percentile `p` (0 … 100, clamped): the upper edge of the bucket holding the
   * value of rank ⌈p/100 · count⌉ (nearest-rank), clamped to [min, max]. So at least p % of the
   * values are ≤ the result, which overstates the exact percentile by less than 1/64.
   * `percentile(0)` is the min and `percentile(100)` the max, both exact.
   */
  percentile(p: number): number {
    if (this.n === 0) return NaN
    if (!(p > 0)) return this.lo
    if (p >= 100) return this.hi
    // The relative epsilon keeps e.g. 99.9 % of 1000 at rank 999 despite 0.999 · 1000 > 999 in floats.
    const rank = Math.max(1, Math.ceil((p / 100) * this.n * (1 - 1e-12)))
    const counts = this.counts
    const base = this.base
    let cum = 0
    for (let i = 0; i < counts.length; i++) {
      cum += counts[i]
      if (cum >= rank) return this.clamp(HIGHEST[base + i])
    }
    return this.hi
  }

  /** The fraction of the values at or below `ns`, read off the CDF (0 when none is). */
  fractionAtMost(ns: number): number {
    let below = 0
    for (const c of this.cdf(100_000)) if (c.valueNs <= ns) below = c.fraction
    return below
  }

  /**
   * Up to `maxPoints` points of the empirical CDF, increasing in both value and fraction, the last
   * one being (max, 1). Each point is a bucket's upper edge (clamped to [min, max]) and the exact
   * fraction of values ≤ it; when more buckets are occupied than `maxPoints`, evenly spaced ones
   * (in bucket order, hence roughly log-spaced in value) are kept.
   */
  cdf(maxPoints = 200): CdfPoint[] {
    if (this.n === 0 || maxPoints < 1) return []
    const occupied: number[] = []
    for (let i = 0; i < this.counts.length; i++) if (this.counts[i] > 0) occupied.push(this.base + i)
    const cumulative = new Float64Array(occupied.length)
    let cum = 0
    for (let j = 0; j < occupied.length; j++) {
      cum += this.counts[occupied[j] - this.base]
      cumulative[j] = cum
    }
    const m = Math.min(Math.floor(maxPoints), occupied.length)
    const last = occupied.length - 1
    const points: CdfPoint[] = []
    for (let j = 0; j < m; j++) {
      const k = m === 1 ? last : Math.round((j * last) / (m - 1))
      points.push({ valueNs: this.clamp(HIGHEST[occupied[k]]), fraction: cumulative[k] / this.n })
    }
    return points
  }

  /** Add another histogram's values to this one (as if they had been recorded here). */
  merge(other: LatencyHistogram): this {
    if (other.n === 0) return this
    const b = other.counts
    if (b.length > 0) {
      const a = this.countsFor(other.base, other.base + b.length - 1)
      const at = other.base - this.base
      for (let i = 0; i < b.length; i++) a[at + i] += b[i]
    }
    this.n += other.n
    this.total += other.total
    if (other.lo < this.lo) this.lo = other.lo
    if (other.hi > this.hi) this.hi = other.hi
    return this
  }

  /**
   * Record `xs[from]`, `xs[from + stride]` … below `to`, as `record` would each: one loop, the
   * count, sum and bounds updated once (a hot path that gathers its values first, then records).
   */
  recordEvery(xs: Float64Array, from: number, to: number, stride: number): void {
    // the window widened once for the values' range, not value by value: a widening allocates
    // (the window is not part of the figures: only its counts are)
    let least = Infinity
    let most = -Infinity
    for (let i = from; i < to; i += stride) {
      const v = xs[i]
      if (!(v >= 0 && v <= MAX_VALUE)) throw new RangeError(`latency out of range: ${v}`)
      if (v < least) least = v
      if (v > most) most = v
    }
    if (!(least <= most)) return
    const counts = this.countsFor(bucketIndex(least), bucketIndex(most))
    const base = this.base
    let total = 0
    let lo = this.lo
    let hi = this.hi
    let n = 0
    for (let i = from; i < to; i += stride) {
      const v = xs[i]
      counts[bucketIndex(v) - base]++
      total += v
      if (v < lo) lo = v
      if (v > hi) hi = v
      n++
    }
    this.n += n
    this.total += total
    this.lo = lo
    this.hi = hi
  }

  /** Record the value 0 `n` times (as `n` calls of `record(0)` would). */
  recordZeros(n: number): void {
    if (!(n > 0)) return
    this.countsFor(0, 0)[-this.base] += n
    this.n += n
    if (this.lo > 0) this.lo = 0
    if (this.hi < 0) this.hi = 0
  }

  reset(): void {
    this.counts.fill(0)
    this.n = 0
    this.total = 0
    this.lo = Infinity
    this.hi = -Infinity
  }

  /** Compact, JSON-safe form (an empty histogram has min = max = 0). */
  toJSON(): LatencyHistogramJSON {
    const counts: Array<[number, number]> = []
    for (let i = 0; i < this.counts.length; i++)
      if (this.counts[i] > 0) counts.push([this.base + i, this.counts[i]])
    const empty = this.n === 0
    return {
      bucketsPerPow2: BUCKETS_PER_POW2,
      counts,
      min: empty ? 0 : this.lo,
      max: empty ? 0 : this.hi,
      sum: this.total,
      count: this.n,
    }
  }

  /**
   * `toJSON()` with `zeros` more values of 0, as `recordZeros` on a copy would give, without the
   * copy (values of 0 counted apart on a hot path: a short run's why makes dozens of these).
   */
  toJSONWithZeros(zeros: number): LatencyHistogramJSON {
    const json = this.toJSON()
    if (!(zeros > 0)) return json
    const first = json.counts[0]
    if (first !== undefined && first[0] === 0) first[1] += zeros
    else json.counts.unshift([0, zeros])
    json.count += zeros
    json.min = 0
    return json
  }

  /** Rebuild from `toJSON()`'s output; throws on a different bucketing or inconsistent counts. */
  static fromJSON(json: LatencyHistogramJSON): LatencyHistogram {
    if (json.bucketsPerPow2 !== BUCKETS_PER_POW2) {
      throw new Error(
        `histogram has ${json.bucketsPerPow2} buckets per power of 2, expected ${BUCKETS_PER_POW2}`,
      )
    }
    const h = new LatencyHistogram()
    let n = 0
    for (const [i, c] of json.counts) {
      if (!Number.isInteger(i) || i < 0 || i >= BUCKET_COUNT) throw new Error(`bad histogram bucket ${i}`)
      if (!(c >= 0 && Number.isFinite(c))) throw new Error(`bad histogram count ${c}`)
      h.countsFor(i, i)[i - h.base] += c
      n += c
    }
    if (n !== json.count) throw new Error(`histogram counts sum to ${n}, expected ${json.count}`)
    h.n = n
    h.total = json.sum
    if (n > 0) {
      h.lo = json.min
      h.hi = json.max
    }
    return h
  }

  /**
   * The counts, the window widened first if needed to hold buckets `from` … `to` (whole rows,
   * the old counts copied to their new places). A row to spare is added on the side it grows
   * (both sides at first): latencies wander a little, and each widening copies the window.
   */
  private countsFor(from: number, to: number): Float64Array {
    const old = this.counts
    const held = old.length > 0
    const oldEnd = this.base + old.length
    if (held && from >= this.base && to < oldEnd) return old
    let lo = Math.floor(from / ROW) * ROW
    if (held && this.base <= lo) lo = this.base
    else lo = Math.max(0, lo - ROW)
    let hi = (Math.floor(to / ROW) + 1) * ROW
    if (held && oldEnd >= hi) hi = oldEnd
    else hi = Math.min(BUCKET_COUNT, hi + ROW)
    const counts = new Float64Array(hi - lo)
    if (held) counts.set(old, this.base - lo)
    this.counts = counts
    this.base = lo
    return counts
  }

  private clamp(v: number): number {
    return v < this.lo ? this.lo : v > this.hi ? this.hi : v
  }
}

/** Headline latency figures, all in milliseconds (NaN for an empty histogram). */
export interface LatencySummary {
  p50: number
  p90: number
  p95: number
  p99: number
  p999: number
  max: number
  mean: number
}

export function summarizeLatency(h: LatencyHistogram): LatencySummary {
  return {
    p50: h.percentile(50) / MS,
    p90: h.percentile(90) / MS,
    p95: h.percentile(95) / MS,
    p99: h.percentile(99) / MS,
    p999: h.percentile(99.9) / MS,
    max: h.max / MS,
    mean: h.mean / MS,
  }
}
