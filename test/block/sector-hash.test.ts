import { describe, expect, it } from 'vitest'
import { SectorHash } from '../../src/shared/block/sector-hash'
import { Request } from '../../src/shared/block/types'
import { Rng } from '../../src/shared/sim/rng'

describe('SectorHash', () => {
  it('agrees with a Map under random adds and removes, across growth, with large sector numbers', () => {
    const h = new SectorHash(4)
    const ref = new Map<number, Request>()
    const rng = new Rng(3)
    const live: number[] = []
    for (let i = 0; i < 50_000; i++) {
      if (live.length === 0 || rng.next() < 0.55) {
        const key = rng.int(2 ** 40) // far beyond small-integer range
        const rq = new Request()
        rq.id = i
        h.add(key, rq)
        if (!ref.has(key)) {
          ref.set(key, rq)
          live.push(key)
        }
      } else {
        const j = rng.int(live.length)
        const key = live[j]
        live[j] = live[live.length - 1]
        live.pop()
        h.remove(key, ref.get(key)!)
        ref.delete(key)
      }
      if (i % 997 === 0) for (const k of live) expect(h.get(k)).toBe(ref.get(k))
    }
    expect(h.size).toBe(ref.size)
    for (const k of live) expect(h.get(k)).toBe(ref.get(k))
    expect(h.get(12345)).toBeUndefined()
  })

  it('keeps the first request for a key and removes only the one it holds', () => {
    const h = new SectorHash()
    const a = new Request()
    const b = new Request()
    h.add(100, a)
    h.add(100, b)
    expect(h.get(100)).toBe(a)
    h.remove(100, b)
    expect(h.get(100)).toBe(a)
    h.remove(100, a)
    expect(h.get(100)).toBeUndefined()
  })
})
