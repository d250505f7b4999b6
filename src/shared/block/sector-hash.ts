import type { Request } from './types'

/**
 * A hash from sector number to request: the block layer's merge hashes (the kernel's hash keyed by
 * end sector, and a start-sector index for front merges). Open addressing with linear probing and
 * backward-shift deletion over a Float64Array of keys. Sectors above 2^30 are not small integers
 * in V8, and a Map keyed by them is several times slower on this hot path — hence this table.
 * One request per key: a second request with the same key is simply not found (a missed merge).
 */
export class SectorHash {
  private keys: Float64Array
  private vals: (Request | null)[]
  private mask: number
  size = 0

  constructor(capacity = 256) {
    let n = 16
    while (n < capacity * 2) n *= 2
    this.keys = new Float64Array(n).fill(-1)
    this.vals = new Array<Request | null>(n).fill(null)
    this.mask = n - 1
  }

  private slot(key: number): number {
    const lo = key | 0 // the low 32 bits, as (key % 2^32) | 0, without a floating-point remainder
    const hi = (key / 4294967296) | 0
    return (Math.imul(lo ^ Math.imul(hi, 0x27d4eb2d), 0x9e3779b1) >>> 7) & this.mask
  }

  get(key: number): Request | undefined {
    if (this.size === 0) return undefined
    const keys = this.keys
    let i = this.slot(key)
    for (;;) {
      const k = keys[i]
      if (k === key) return this.vals[i]!
      if (k === -1) return undefined
      i = (i + 1) & this.mask
    }
  }

  /** Insert if the key is absent (the first request with a key keeps it). */
  add(key: number, rq: Request): void {
    if ((this.size + 1) * 2 > this.mask + 1) this.grow()
    const keys = this.keys
    let i = this.slot(key)
    for (;;) {
      const k = keys[i]
      if (k === key) return
      if (k === -1) {
        keys[i] = key
        this.vals[i] = rq
        this.size++
        return
      }
      i = (i + 1) & this.mask
    }
  }

  /** Remove `key` if it maps to `rq`. */
  remove(key: number, rq: Request): void {
    const keys = this.keys
    const mask = this.mask
    let i = this.slot(key)
    for (;;) {
      const k = keys[i]
      if (k === -1) return
      if (k === key) break
      i = (i + 1) & mask
    }
    if (this.vals[i] !== rq) return
    // backward-shift deletion keeps probe chains intact without tombstones
    let j = i
    for (;;) {
      j = (j + 1) & mask
      const kj = keys[j]
      if (kj === -1) break
      const home = this.slot(kj)
      // move j back to i if its home is not cyclically within (i, j]
      if (i <= j ? home <= i || home > j : home <= i && home > j) {
        keys[i] = kj
        this.vals[i] = this.vals[j]
        i = j
      }
    }
    keys[i] = -1
    this.vals[i] = null
    this.size--
  }

  private grow(): void {
    const oldK = this.keys
    const oldV = this.vals
    const n = oldK.length * 2
    this.keys = new Float64Array(n).fill(-1)
    this.vals = new Array<Request | null>(n).fill(null)
    this.mask = n - 1
    this.size = 0
    for (let i = 0; i < oldK.length; i++) if (oldK[i] !== -1) this.add(oldK[i], oldV[i]!)
  }
}
