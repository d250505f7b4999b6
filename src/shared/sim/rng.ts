/**
 * Seeded PRNG: sfc32 (Chris Doty-Humphrey's Small Fast Chaotic generator, 128-bit state) seeded
 * through splitmix32. Pure 32-bit integer arithmetic, so a seed gives the same stream in every
 * JavaScript engine and process. `fork(label)` derives an independent stream, so adding a process
 * to a workload does not change the numbers another process draws.
 */
export class Rng {
  private a: number
  private b: number
  private c: number
  private d: number
  /** The 32-bit seed this stream was built from; `fork` derives from it, not from the state. */
  readonly seed32: number

  constructor(seed: number | string) {
    let s = typeof seed === 'number' ? (seed >>> 0) ^ Math.floor(seed / 0x1_0000_0000) : hashString(seed)
    this.seed32 = s >>> 0
    // splitmix32, four steps (no closure: a run makes many streams)
    const v = [0, 0, 0, 0]
    for (let i = 0; i < 4; i++) {
      s = (s + 0x9e3779b9) | 0
      let z = s
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b)
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35)
      v[i] = (z ^ (z >>> 16)) >>> 0
    }
    this.a = v[0]
    this.b = v[1]
    this.c = v[2]
    this.d = v[3]
    for (let i = 0; i < 12; i++) this.u32()
  }

  /** A uniformly distributed unsigned 32-bit integer. */
  u32(): number {
    const a = this.a,
      b = this.b,
      c = this.c,
      d = this.d
    const t = (((a + b) | 0) + d) | 0
    this.d = (d + 1) | 0
    this.a = b ^ (b >>> 9)
    this.b = (c + (c << 3)) | 0
    this.c = (((c << 21) | (c >>> 11)) + t) | 0
    return t >>> 0
  }

  /** Uniform in [0, 1) with 53 random bits. */
  next(): number {
    const hi = this.u32() >>> 5
    const lo = this.u32() >>> 6
    return (hi * 67108864 + lo) / 9007199254740992
  }

  /** Uniform integer in [0, n) for n ≤ 2^53, without modulo bias worth measuring. */
  int(n: number): number {
    if (n <= 0x1_0000_0000) {
      return Math.floor((this.u32() / 0x1_0000_0000) * n)
    }
    return Math.floor(this.next() * n)
  }

  /** Exponentially distributed with the given mean. */
  exp(mean: number): number {
    return -mean * Math.log(1 - this.next())
  }

  /**
   * An independent generator derived from this one's seed and a label. It does not depend on how
   * many numbers were drawn before, so streams stay stable as a model grows.
   */
  fork(label: string): Rng {
    return new Rng((hashString(label) ^ Math.imul(this.seed32, 0x9e3779b1)) >>> 0)
  }
}

/** FNV-1a over UTF-16 code units: a stable 32-bit hash of a string. */
export function hashString(s: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}
