import { K_FADVISE_DROP, K_FLUSHBUF_MORE, K_FLUSHBUF_WAIT } from './continuations'
import { PAGE, SECTORS_PER_PAGE } from './files'
import type { Task } from './task'

/**
 * Dropping a file's cached pages, as fio's `invalidate` does before each pass over its region:
 *  - posix_fadvise(POSIX_FADV_DONTNEED) on a file (mm/fadvise.c, generic_fadvise): start writeback
 *    of the range's dirty pages without waiting for it (WB_SYNC_NONE: async writes), then drop
 *    the range's clean pages (invalidate_mapping_pages); pages still dirty or under writeback stay.
 *  - ioctl(BLKFLSBUF) on a block device (block/ioctl.c, blkdev_flushbuf): write back every dirty
 *    page of the device's cache and wait for them (sync_blockdev), then drop its clean pages
 *    (invalidate_bdev).
 */

/** fadvise DONTNEED: the range's dirty pages go to the device (async), then its clean ones go. */
export function fadviseStart(t: Task): void {
  const f = t.file!
  t.pg = Math.floor(t.off / PAGE)
  t.endPg = Math.min(Math.ceil((t.off + t.len) / PAGE), f.pageCount)
  t.kernel.cache.writebackRange(f, t.pg, t.endPg, false, t, t.bios)
  if (!t.submitAll(K_FADVISE_DROP)) return
  fadviseDrop(t)
}

export function fadviseDrop(t: Task): void {
  t.kernel.cache.dropClean(t.file!, t.pg, t.endPg)
  t.syscallDone()
}

/**
 * BLKFLSBUF: write the device cache's dirty pages back (sync), wait, then drop its clean pages.
 * The pages go under writeback a request's worth at a time, as write_cache_pages sets each folio
 * under writeback just before its bio is built (mm/page-writeback.c, 6.x): while the caller waits
 * for a request slot the rest stay dirty — a direct reader that meets them writes them itself
 * instead of waiting behind the whole queue (dio-coherence.ts).
 */
export function flushBufStart(t: Task): void {
  const f = t.kernel.blockDeviceCache
  if (f === null) return t.syscallDone()
  t.file = f
  t.pg = 0
  // the pages dirty now (tag_pages_for_writeback): pages dirtied meanwhile wait for a later flush
  t.endPg = f.dirty
  flushBufMore(t)
}

export function flushBufMore(t: Task): void {
  const f = t.file!
  const cache = t.kernel.cache
  const chunk = Math.max(1, Math.floor(t.kernel.queue.maxSectors / SECTORS_PER_PAGE))
  while (f.dirty > 0 && t.endPg > 0) {
    const n = cache.writebackPages(f, Math.min(chunk, t.endPg), true, t, t.bios, t.pg)
    if (n === 0) break
    t.endPg -= n
    t.pg = f.writebackIndex
    if (!t.submitAll(K_FLUSHBUF_MORE)) return
  }
  flushBufWait(t)
}

export function flushBufWait(t: Task): void {
  const f = t.file!
  if (f.writeback > 0) {
    t.k = K_FLUSHBUF_WAIT
    t.block()
    t.kernel.waitWriteback(t, f, K_FLUSHBUF_WAIT)
    return
  }
  t.kernel.cache.dropClean(f, 0, f.pageCount)
  t.syscallDone()
}
