import { describe, expect, it } from 'vitest'
import { IndexedHeap } from '../../src/shared/util/indexed-heap'
import { Rng } from '../../src/shared/sim/rng'

interface Item {
  heapIndex: number
  key: number
  seq: number
}

const before = (a: Item, b: Item): boolean => a.key < b.key || (a.key === b.key && a.seq < b.seq)

describe('IndexedHeap', () => {
  it('gives the least item first, ties by the order the comparison breaks them', () => {
    const h = new IndexedHeap<Item>(before)
    const items = [5, 1, 3, 1, 2].map((key, seq) => ({ heapIndex: -1, key, seq }))
    for (const x of items) h.push(x)
    const out: number[] = []
    for (let x = h.pop(); x !== null; x = h.pop()) out.push(x.seq)
    expect(out).toEqual([1, 3, 4, 2, 0])
    expect(h.size).toBe(0)
    expect(items.every((x) => x.heapIndex === -1)).toBe(true)
  })

  it('removes any item and keeps each one knowing its place', () => {
    const h = new IndexedHeap<Item>(before)
    const items = Array.from({ length: 20 }, (_, i) => ({ heapIndex: -1, key: (i * 7) % 11, seq: i }))
    for (const x of items) h.push(x)
    h.remove(items[4])
    h.remove(items[0])
    expect(items[4].heapIndex).toBe(-1)
    for (let i = 0; i < h.size; i++) expect(h.at(i).heapIndex).toBe(i)
    expect(() => h.remove(items[4])).toThrow(/not in this heap/)
    expect(() => h.push(items[5])).toThrow(/already in a heap/)
  })

  it('matches a sorted list under random pushes, pops and removals', () => {
    const rng = new Rng(7)
    for (let round = 0; round < 20; round++) {
      const h = new IndexedHeap<Item>(before)
      const naive: Item[] = []
      let seq = 0
      for (let step = 0; step < 2000; step++) {
        const r = rng.next()
        if (r < 0.5 || naive.length === 0) {
          // few distinct keys, so ties are common and the tie-break is tested
          const x = { heapIndex: -1, key: rng.int(8), seq: seq++ }
          h.push(x)
          naive.push(x)
        } else if (r < 0.75) {
          const got = h.pop()
          naive.sort((a, b) => (before(a, b) ? -1 : 1))
          expect(got).toBe(naive.shift())
        } else {
          const x = naive.splice(rng.int(naive.length), 1)[0]
          h.remove(x)
        }
        expect(h.size).toBe(naive.length)
        const least = naive.reduce<Item | null>((m, x) => (m === null || before(x, m) ? x : m), null)
        expect(h.first).toBe(least)
      }
    }
  })
})
