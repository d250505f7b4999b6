import { describe, expect, it } from 'vitest'
import { PageRing } from '../../src/shared/host/page-ring'
import { Rng } from '../../src/shared/sim/rng'

// The LRU as runs of pages, against a list of single pages.

const runs = (r: PageRing) =>
  Array.from({ length: r.runs }, (_, i) => [r.fileAt(i), r.startAt(i), r.lenAt(i)])

const pages = (r: PageRing) =>
  runs(r).flatMap(([f, s, n]) => Array.from({ length: n }, (_, k) => `${f}:${s + k}`))

describe('page ring', () => {
  it('merges a run with the newest one only when it continues it, in the same file', () => {
    const r = new PageRing()
    r.pushBack(1, 10, 5)
    r.pushBack(1, 15, 3)
    r.pushBack(2, 18, 2)
    r.pushBack(1, 18, 1)
    r.pushBack(1, 30, 1)
    expect(runs(r)).toEqual([
      [1, 10, 8],
      [2, 18, 2],
      [1, 18, 1],
      [1, 30, 1],
    ])
    expect(r.count).toBe(12)
  })

  it('takes pages off the oldest run, splitting it, and puts pages in front of it', () => {
    const r = new PageRing()
    r.pushBack(1, 0, 4)
    r.popFront(3)
    expect(runs(r)).toEqual([[1, 3, 1]])
    r.pushBack(1, 0, 3) // taken pages back at the newest end: not merged (they come before 3)
    expect(pages(r)).toEqual(['1:3', '1:0', '1:1', '1:2'])
    r.pushFront(1, 2) // just before 3: extends the oldest run downwards
    r.pushFront(2, 9)
    expect(runs(r)).toEqual([
      [2, 9, 1],
      [1, 2, 2],
      [1, 0, 3],
    ])
    r.popFront(1)
    r.popFront(2)
    r.popFront(3)
    expect([r.runs, r.count]).toEqual([0, 0])
    r.pushFront(3, 3) // on an empty ring
    expect(runs(r)).toEqual([[3, 3, 1]])
  })

  it('keeps the order of a list of single pages through random use, growing past its start size', () => {
    const rng = new Rng(3)
    const r = new PageRing()
    const ref: string[] = []
    for (let k = 0; k < 20000; k++) {
      const op = rng.int(5)
      if (op <= 1) {
        const f = 1 + rng.int(2)
        const s = rng.int(64)
        const n = 1 + rng.int(5)
        r.pushBack(f, s, n)
        for (let i = 0; i < n; i++) ref.push(`${f}:${s + i}`)
      } else if (op === 2) {
        const f = 1 + rng.int(2)
        const p = rng.int(64)
        r.pushFront(f, p)
        ref.unshift(`${f}:${p}`)
      } else if (r.runs > 0) {
        const n = 1 + rng.int(r.headLen)
        expect(`${r.headFile}:${r.headStart}`).toBe(ref[0])
        r.popFront(n)
        ref.splice(0, n)
      }
      expect(r.count).toBe(ref.length)
      if (k % 97 === 0) expect(pages(r)).toEqual(ref)
    }
    expect(pages(r)).toEqual(ref)
  })
})
