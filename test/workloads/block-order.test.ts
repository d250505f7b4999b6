// fio's random map without a map (block-order.ts): a full-period LCG over the next power of two,
// values past the region skipped. Its steps must be the exact (a·x + c) mod m — up to m = 2^31 by
// Math.imul's low bits, beyond it in doubles (a region of 8 TiB of 4 KiB blocks and more) — as a
// BigInt reference computes them.
import { expect, it } from 'vitest'
import { RandomBlockOrder } from '../../src/shared/workloads/block-order'
import { Rng } from '../../src/shared/sim/rng'

/** The same generator's first `n` blocks, in BigInt arithmetic. */
function reference(o: RandomBlockOrder, n: number): number[] {
  const p = o as unknown as { a: number; c: number; x: number; mask: number }
  const m = BigInt(p.mask) + 1n
  let x = BigInt(p.x)
  const out: number[] = []
  while (out.length < n) {
    x = (BigInt(p.a) * x + BigInt(p.c)) % m
    if (x < BigInt(o.blocks)) out.push(Number(x))
  }
  return out
}

for (const blocks of [1000, 2_000_000, 2 ** 30 + 3, 2 ** 31 - 5, 2 ** 31, 2 ** 31 + 7, 2 ** 40 - 3]) {
  it(`steps exactly for a region of ${blocks} blocks`, () => {
    for (const seed of [1, 2, 3]) {
      const o = new RandomBlockOrder(blocks, new Rng(seed))
      const want = reference(o, 2000)
      expect(Array.from({ length: 2000 }, () => o.next())).toEqual(want)
    }
  })
}

it('visits every block once per pass', () => {
  const o = new RandomBlockOrder(1000, new Rng(7))
  const seen = new Set(Array.from({ length: 1000 }, () => o.next()))
  expect(seen.size).toBe(1000)
})
