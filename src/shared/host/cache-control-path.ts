import { K_FADVISE_DROP, K_FLUSHBUF_MORE, K_FLUSHBUF_WAIT } from './continuations'
import { PAGE } from './files'
import { startSyncWriteback, syncWritebackChunks } from './write-path'
import type { Task } from './task'
import { submitAll } from './submit-path'

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
  if (!submitAll(t, K_FADVISE_DROP)) return
  fadviseDrop(t)
}

export function fadviseDrop(t: Task): void {
  t.kernel.cache.dropClean(t.file!, t.pg, t.endPg)
  t.syscallDone()
}

/**
 * BLKFLSBUF: write the device cache's dirty pages back (sync, a request's worth at a time:
 * write-path.ts syncWritebackChunks), wait, then drop its clean pages.
 */
export function flushBufStart(t: Task): void {
  const f = t.kernel.blockDeviceCache
  if (f === null) return t.syscallDone()
  t.file = f
  startSyncWriteback(t)
  flushBufMore(t)
}

export function flushBufMore(t: Task): void {
  if (syncWritebackChunks(t, K_FLUSHBUF_MORE)) flushBufWait(t)
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
