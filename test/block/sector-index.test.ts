// The sorted index of a scheduler's requests (the kernel's sort_list): inserts and removals keep
// sector order (ties by id) whether they move pointers by loop (short moves) or by splice (long).
import { expect, it } from 'vitest'
import { SectorIndex } from '../../src/shared/block/sector-index'
import type { Request } from '../../src/shared/block/types'

const rq = (id: number, sector: number): Request => ({ id, sector }) as Request

/** The index's requests in order, as [sector, id]. */
function contents(ix: SectorIndex): [number, number][] {
  return Array.from({ length: ix.size }, (_, i) => [ix.at(i).sector, ix.at(i).id])
}

for (const n of [40, 600]) {
  it(`keeps ${n} requests in (sector, id) order through inserts and removals`, () => {
    const ix = new SectorIndex()
    const all: Request[] = []
    let x = 12345
    for (let id = 0; id < n; id++) {
      x = (x * 1103515245 + 12345) % 2 ** 31
      const r = rq(id, x % 97) // many equal sectors: ties go by id
      all.push(r)
      ix.insert(r)
    }
    const order = (a: Request, b: Request): number => a.sector - b.sector || a.id - b.id
    expect(contents(ix)).toEqual([...all].sort(order).map((r) => [r.sector, r.id]))
    // remove every third, from the front, the middle and the back alike
    const gone = all.filter((_, i) => i % 3 === 0)
    // by request, or by the place indexOf found (what cfq does when it needs the place anyway)
    for (const [k, r] of gone.entries()) {
      if (k % 2 === 0) ix.remove(r)
      else ix.removeAt(ix.indexOf(r))
    }
    const left = all.filter((_, i) => i % 3 !== 0).sort(order)
    expect(contents(ix)).toEqual(left.map((r) => [r.sector, r.id]))
    expect(ix.first).toBe(left[0])
    expect(ix.next(left[0])).toBe(left[1])
    expect(() => ix.remove(gone[0])).toThrow(/not in this index/)
  })
}

it('keeps order through sizes 0, 1 and 2, where a lone request is held apart from the array', () => {
  const ix = new SectorIndex()
  const a = rq(1, 50)
  const b = rq(2, 10)
  expect(ix.size).toBe(0)
  expect(ix.first).toBeUndefined()
  expect(ix.ceiling(0)).toBeNull()
  ix.insert(a)
  expect([ix.size, ix.first, ix.at(0), ix.indexOf(a), ix.indexOf(b)]).toEqual([1, a, a, 0, -1])
  expect([ix.ceiling(50), ix.ceiling(51), ix.floor(51), ix.floor(50), ix.fromPos(20)]).toEqual([
    a,
    null,
    a,
    null,
    a,
  ])
  expect(ix.lowerBound(50, 0)).toBe(0)
  expect(ix.lowerBound(50, 2)).toBe(1)
  ix.insert(b)
  expect(contents(ix)).toEqual([
    [10, 2],
    [50, 1],
  ])
  expect(ix.next(b)).toBe(a)
  ix.remove(b)
  expect([ix.size, ix.first, ix.next(a)]).toEqual([1, a, null])
  // a front merge moved the lone request's start: it is removed by its old key all the same
  a.sector = 40
  ix.remove(a, 50)
  expect(ix.size).toBe(0)
  expect(() => ix.remove(a)).toThrow(/not in this index/)
  // two, then one left by removeAt, then none
  ix.insert(a)
  ix.insert(b)
  ix.removeAt(ix.indexOf(a))
  expect([ix.size, ix.first, ix.at(0)]).toEqual([1, b, b])
  ix.removeAt(0)
  expect([ix.size, ix.first]).toEqual([0, undefined])
})
