import { describe, expect, it } from 'vitest'
import { noop } from '../../src/shared/schedulers/noop'
import type { Bio } from '../../src/shared/block/types'
import { Rng } from '../../src/shared/sim/rng'
import { SimFile } from '../../src/shared/host/files'
import { PageCache } from '../../src/shared/host/pagecache'
import { PageReporting } from '../../src/shared/host/page-reporting'
import { emptyScan } from '../../src/shared/host/reclaim'
import { ctx, makeRig } from '../helpers/rig'
import { PerPageCache, RefFile } from '../helpers/page-cache-per-page'

// The page cache works on runs of pages (page-flags.ts bitmaps, page-ring.ts's LRU of runs); the
// per-page cache it replaced is the reference: the same random operations on both must give the
// same page states, counts, bios and reclaim order, operation for operation.

const file = (id: number, pages: number) =>
  new SimFile(id, `f${id}`, pages * 4096, [{ fileSector: 0, devSector: id * 1_000_000, nsect: pages * 8 }])

const bioKeys = (bios: Bio[]) => bios.map((b) => [b.sector, b.nsect, b.op, b.sync, b.tag])

function run(
  seed: number,
  capacity: number,
  sizes: number[],
  ops: number,
  wm = { min: 4, low: 8, high: 12 },
) {
  const rng = new Rng(seed)
  let now = 0
  const c = new PageCache(capacity, makeRig(noop).queue)
  const ref = new PerPageCache(capacity, makeRig(noop).queue)
  c.wm = { ...wm }
  ref.wm = { ...wm }
  const lows = [0, 0]
  c.onLow = () => void lows[0]++
  ref.onLow = () => void lows[1]++
  c.reporting = new PageReporting(5, () => now)
  ref.reporting = new PageReporting(5, () => now)
  const files = sizes.map((n, i) => file(i + 1, n))
  const refs = files.map((f) => new RefFile(f))
  files.forEach((f) => c.register(f))
  refs.forEach((f) => ref.register(f))
  const inFlight: [Bio, Bio][] = []
  const counts = new Map<string, number>()

  const same = (what: string, a: unknown, b: unknown) => expect(a, what).toEqual(b)
  const compare = (what: string) => {
    same(
      `${what}: counts`,
      [c.cached, c.dirty, c.writeback, c.overcommitted, lows[0]],
      [ref.cached, ref.dirty, ref.writeback, ref.overcommitted, lows[1]],
    )
    files.forEach((f, i) => {
      const r = refs[i]
      same(
        `${what}: file ${f.id}`,
        [f.dirty, f.writeback, f.dirtiedWhen, f.writebackIndex],
        [r.dirty, r.writeback, r.dirtiedWhen, r.writebackIndex],
      )
      const states = Array.from({ length: f.pageCount }, (_, p) => (f.pages === null ? 0 : f.pages.state(p)))
      same(`${what}: pages of ${f.id}`, states, Array.from(r.pages ?? new Uint8Array(f.pageCount)))
    })
  }
  const outputs = (what: string, a: Bio[], b: Bio[]) => {
    same(`${what}: bios`, bioKeys(a), bioKeys(b))
    a.forEach((x, i) => inFlight.push([x, b[i]]))
  }

  for (let k = 0; k < ops; k++) {
    now += rng.int(3)
    const i = rng.int(files.length)
    const f = files[i]
    const r = refs[i]
    const first = rng.int(f.pageCount)
    const n = rng.int(4) === 0 ? rng.int(f.pageCount) + 1 : rng.int(40) + 1
    // a range of the file's pages, as callers give (dirtyPages and readPages clip their own)
    const end = Math.min(first + n, f.pageCount)
    const a: Bio[] = []
    const b: Bio[] = []
    const op = rng.int(12)
    const name = [
      'dirty',
      'read',
      'complete',
      'complete',
      'reclaimClean',
      'scan',
      'scan',
      'writeback',
      'range',
      'drop',
      'touch',
      'complete',
    ][op]
    counts.set(name, (counts.get(name) ?? 0) + 1)
    const what = `op ${k} ${name}(${f.id}, ${first}, ${n})`
    switch (name) {
      case 'dirty':
        same(what, c.dirtyPages(f, first, n, now), ref.dirtyPages(r, first, n, now))
        break
      case 'read': {
        const marker = rng.int(3) === 0 ? -1 : first + rng.int(n)
        same(what, c.readPages(f, first, n, marker, ctx(1), a), ref.readPages(r, first, n, marker, ctx(1), b))
        outputs(what, a, b)
        break
      }
      case 'complete':
        for (let j = rng.int(6); j > 0 && inFlight.length > 0; j--) {
          const [x, y] = inFlight.splice(rng.int(inFlight.length), 1)[0]
          c.bioDone(x, now)
          ref.bioDone(y, now)
        }
        break
      case 'reclaimClean':
        same(what, c.reclaimClean(n), ref.reclaimClean(n))
        break
      case 'scan': {
        const write = rng.int(2) === 0
        const s1 = emptyScan()
        const s2 = emptyScan()
        c.scanTail(n, write, ctx(2), a, s1)
        ref.scanTail(n, write, ctx(2), b, s2)
        same(what, s1, s2)
        outputs(what, a, b)
        break
      }
      case 'writeback': {
        const from = rng.int(3) === 0 ? rng.int(f.pageCount + 2) : undefined
        const sync = rng.int(2) === 0
        same(
          what,
          c.writebackPages(f, n, sync, ctx(3), a, from),
          ref.writebackPages(r, n, sync, ctx(3), b, from),
        )
        outputs(what, a, b)
        break
      }
      case 'range':
        same(
          what,
          c.writebackRange(f, first, end, false, ctx(3), a),
          ref.writebackRange(r, first, end, false, ctx(3), b),
        )
        outputs(what, a, b)
        break
      case 'drop':
        same(what, c.dropClean(f, first, end), ref.dropClean(r, first, end))
        break
      case 'touch':
        for (let p = first; p < Math.min(first + n, f.pageCount); p++)
          if (r.pages !== null && r.pages[p] !== 0) {
            c.touch(f, p)
            ref.touch(r, p)
          }
        break
    }
    compare(what)
  }
  return counts
}

describe('page cache in runs against the per-page cache', () => {
  it('matches it under pressure: a small cache, overcommitted, with invalidations', () => {
    for (let seed = 1; seed <= 6; seed++) run(seed, 60, [70, 100, 45], 1500)
  })

  it('matches it with room to spare (long runs, cyclic writeback across the whole file)', () => {
    for (let seed = 10; seed <= 12; seed++) run(seed, 400, [300, 65], 1500, { min: 0, low: 0, high: 0 })
  })

  it('matches it when no free memory is kept (direct reclaim only when over capacity)', () => {
    for (let seed = 20; seed <= 22; seed++) run(seed, 90, [130, 33, 64], 1500, { min: 0, low: 0, high: 0 })
  })

  it('compacts the LRU between two pages of one write when it fills: later pages are not cached yet', () => {
    // a cache of 5 pages (an LRU of 6 entries), no watermarks
    const c = new PageCache(5, makeRig(noop).queue)
    const f = file(1, 16)
    c.register(f)
    const clean = (first: number, end: number) => {
      const bios: Bio[] = []
      c.writebackRange(f, first, end, false, ctx(1), bios)
      for (const b of bios) c.bioDone(b, 0)
    }
    c.dirtyPages(f, 0, 5, 0)
    clean(0, 5)
    // pages 1–3 dropped: the LRU still holds their stale entries — 0 1 2 3 4
    expect(c.dropClean(f, 1, 4)).toBe(3)
    // page 1 fills the LRU; page 2 (cached now) finds it full: compaction keeps the old entry of
    // 2, drops the older one of 1 and the stale one of 3 (not cached yet): 0 2 4 1, then 2 and 3
    // go on: 0 2 4 1 2 3
    c.dirtyPages(f, 1, 3, 0)
    clean(1, 4)
    // the second chance clears the referenced bits, so 2's second entry frees it, then 0 goes
    expect(c.reclaimClean(2)).toBe(2)
    expect([0, 1, 2, 3, 4].map((p) => f.pages!.state(p) !== 0)).toEqual([false, true, false, true, true])
  })
})
