import { describe, expect, it } from 'vitest'
import { noop } from '../../src/shared/schedulers/noop'
import type { Bio } from '../../src/shared/block/types'
import { ctx, makeRig } from '../helpers/rig'
import { PageCache } from '../../src/shared/host/pagecache'
import { SimFile } from '../../src/shared/host/files'
import { PG_ANY, PG_DIRTY, PG_UPTODATE, PG_WRITEBACK } from '../../src/shared/host/page-flags'

// Dropping clean pages (posix_fadvise DONTNEED, BLKFLSBUF) and starting writeback of a range.

const file = (id: number, pages: number) =>
  new SimFile(id, `f${id}`, pages * 4096, [{ fileSector: 0, devSector: id * 1_000_000, nsect: pages * 8 }])

function cacheWith(capacity: number) {
  const r = makeRig(noop)
  const cache = new PageCache(capacity, r.queue)
  return { r, cache }
}

/** Write a range back and complete its bios at once, so its pages are clean. */
function clean(cache: PageCache, f: SimFile, first: number, end: number): void {
  const bios: Bio[] = []
  cache.writebackRange(f, first, end, false, ctx(1), bios)
  for (const b of bios) cache.bioDone(b, 0)
}

describe('page cache: invalidation', () => {
  it('writes back only the dirty pages of the range, and drops only clean ones', () => {
    const { cache } = cacheWith(1000)
    const f = file(1, 100)
    cache.register(f)
    cache.dirtyPages(f, 0, 100, 0)
    const bios: Bio[] = []
    expect(cache.writebackRange(f, 20, 40, false, ctx(1), bios)).toBe(20)
    expect(f.dirty).toBe(80)
    expect(f.writeback).toBe(20)
    // one bio for the contiguous 20 pages, inside the range
    expect(bios.map((b) => [b.tag, b.nsect])).toEqual([[160, 160]])
    // under writeback and dirty pages stay; nothing is clean yet
    expect(cache.dropClean(f, 0, 100)).toBe(0)
    for (const b of bios) cache.bioDone(b, 0)
    expect(f.pages!.state(25) & (PG_DIRTY | PG_WRITEBACK)).toBe(0)
    expect(f.pages!.state(25) & PG_UPTODATE).toBe(PG_UPTODATE)
    expect(cache.dropClean(f, 0, 100)).toBe(20)
    expect(cache.cached).toBe(80)
    expect(f.pages!.state(25)).toBe(0)
    expect(f.pages!.state(50) & PG_DIRTY).toBe(PG_DIRTY)
  })

  it('keeps reclaim working after many invalidated passes (stale ring entries are compacted)', () => {
    const { cache } = cacheWith(100)
    const a = file(1, 3000)
    const b = file(2, 100)
    cache.register(a)
    cache.register(b)
    // 49 passes of 60 pages each (a new range each time), each dropped: 2940 ring entries made
    // for a ring of 101, every one of them stale
    for (let pass = 0; pass < 49; pass++) {
      cache.dirtyPages(a, pass * 60, 60, 0)
      clean(cache, a, pass * 60, pass * 60 + 60)
      expect(cache.dropClean(a, pass * 60, pass * 60 + 60)).toBe(60)
    }
    expect(cache.cached).toBe(0)
    // a's last range stays cached; then b fills the cache: a's pages must be reclaimable
    cache.dirtyPages(a, 2940, 60, 0)
    clean(cache, a, 2940, 3000)
    cache.dirtyPages(b, 0, 100, 0)
    clean(cache, b, 0, 100)
    expect(cache.overcommitted).toBe(0)
    expect(cache.cached).toBe(100)
    expect(a.pages!.countWhere(0, 3000, PG_ANY, true)).toBe(0)
  })
})
