import type { Rng } from '../sim/rng'

/**
 * Visits every block of a region once per pass in a random order without storing a map, as fio's
 * default random map does: a full-period linear congruential generator over the next power of two
 * (Hull–Dobell: c odd, a ≡ 1 mod 4), skipping values past the region. O(1) memory.
 */
export class RandomBlockOrder {
  private readonly mask: number
  private readonly a: number
  private readonly c: number
  private x: number

  constructor(
    readonly blocks: number,
    rng: Rng,
  ) {
    let m = 1
    while (m < blocks) m *= 2
    this.mask = m - 1
    this.a = (rng.int(Math.max(1, m / 4)) * 4 + 1) % Math.max(m, 2) || 1
    this.c = (rng.int(Math.max(1, m / 2)) * 2 + 1) % Math.max(m, 2) || 1
    this.x = rng.int(m)
  }

  next(): number {
    const m = this.mask + 1
    if (this.blocks <= 1) return 0
    if (m <= 0x8000_0000) {
      // a·x mod m is the product's low bits: Math.imul's low 32 (exact for a, x < 2^31), masked
      for (;;) {
        this.x = (Math.imul(this.a, this.x) + this.c) & this.mask
        if (this.x < this.blocks) return this.x
      }
    }
    // beyond 2^31 `&` would cut the sum to 32 signed bits: the remainder in doubles instead
    for (;;) {
      this.x = modPow2(mulMod(this.a, this.x, m) + this.c, m)
      if (this.x < this.blocks) return this.x
    }
  }
}

/** (a·x) mod m for a power-of-two m up to 2^52, exact in doubles (26-bit limbs). */
function mulMod(a: number, x: number, m: number): number {
  const L = 67108864 // 2^26
  if (m <= L) return modPow2(a * x, m)
  const a0 = modPow2(a, L)
  const a1 = Math.floor(a / L)
  const x0 = modPow2(x, L)
  const x1 = Math.floor(x / L)
  const high = modPow2(a1 * x0 + a0 * x1, m / L)
  return modPow2(a0 * x0 + high * L, m)
}

/**
 * v mod m for an integer 0 ≤ v < 2^53 and a power of two m: `%` itself, without the slow
 * floating-point remainder — dividing by a power of two is exact, so is the rest.
 */
function modPow2(v: number, m: number): number {
  return v - Math.floor(v / m) * m
}
