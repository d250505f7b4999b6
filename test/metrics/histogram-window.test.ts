import { describe, expect, it } from 'vitest'
import { LatencyHistogram, bucketIndex } from '../../src/shared/metrics/histogram'
import { Rng } from '../../src/shared/sim/rng'

/** Every bucket held, as the histogram was before it kept a window: the reference. */
class FullHistogram {
  readonly counts = new Float64Array(3072)
  n = 0
  record(v: number): void {
    this.counts[bucketIndex(v)]++
    this.n++
  }
  merge(o: FullHistogram): void {
    for (let i = 0; i < this.counts.length; i++) this.counts[i] += o.counts[i]
    this.n += o.n
  }
  pairs(): [number, number][] {
    const out: [number, number][] = []
    for (let i = 0; i < this.counts.length; i++) if (this.counts[i] > 0) out.push([i, this.counts[i]])
    return out
  }
  /** The bucket holding the value of rank ⌈p/100 · n⌉. */
  bucketAt(p: number): number {
    const rank = Math.max(1, Math.ceil((p / 100) * this.n * (1 - 1e-12)))
    let cum = 0
    for (let i = 0; i < this.counts.length; i++) if ((cum += this.counts[i]) >= rank) return i
    return -1
  }
}

/** The largest value in bucket `b` (the histogram's bucketing, written out). */
function highest(b: number): number {
  if (b < 128) return b
  const shift = (b >> 6) - 1
  return ((b & 63) + 64) * 2 ** shift + 2 ** shift - 1
}

/** A value around one of a few scales (a process's latencies cluster), sometimes anywhere. */
function value(rng: Rng): number {
  const r = rng.next()
  if (r < 0.05) return 0
  if (r < 0.1) return Math.floor(rng.next() * 2 ** (rng.int(53) + 1)) % Number.MAX_SAFE_INTEGER
  const scale = [100, 20_000, 150_000, 3_000_000][rng.int(4)]
  return Math.floor(scale * (0.5 + rng.next()))
}

describe('histogram window', () => {
  it('matches a histogram holding every bucket under random records, batches, zeros and merges', () => {
    const rng = new Rng(9)
    for (let round = 0; round < 30; round++) {
      const hs = [new LatencyHistogram(), new LatencyHistogram(), new LatencyHistogram()]
      const refs = [new FullHistogram(), new FullHistogram(), new FullHistogram()]
      for (let step = 0; step < 400; step++) {
        const k = rng.int(3)
        const r = rng.next()
        if (r < 0.6) {
          const v = value(rng)
          hs[k].record(v)
          refs[k].record(v)
        } else if (r < 0.8) {
          const xs = new Float64Array(9).map(() => value(rng))
          hs[k].recordEvery(xs, 1, 9, 2)
          for (let i = 1; i < 9; i += 2) refs[k].record(xs[i])
        } else if (r < 0.9) {
          const z = rng.int(3)
          hs[k].recordZeros(z)
          for (let i = 0; i < z; i++) refs[k].record(0)
        } else {
          const j = (k + 1 + rng.int(2)) % 3
          hs[k].merge(hs[j])
          refs[k].merge(refs[j])
        }
      }
      for (let k = 0; k < 3; k++) {
        const json = hs[k].toJSON()
        expect(json.counts).toEqual(refs[k].pairs())
        expect(json.count).toBe(refs[k].n)
        expect(LatencyHistogram.fromJSON(json).toJSON()).toEqual(json)
        for (const p of [1, 50, 90, 99, 99.9]) {
          const b = refs[k].bucketAt(p)
          const want = Math.min(hs[k].max, Math.max(hs[k].min, highest(b)))
          if (refs[k].n > 0) expect(hs[k].percentile(p)).toBe(want)
        }
        const cdf = hs[k].cdf(1000)
        expect(cdf.map((x) => x.fraction).at(-1) ?? 1).toBe(1)
        expect(cdf.length).toBe(refs[k].pairs().length)
      }
    }
  })
})
