import { WRITE } from '../block/types'
import { PAGE } from './files'
import type { SimFile } from './files'
import { PG_WRITEBACK } from './page-flags'
import type { Task } from './task'
import { paceWriteback } from './write-path'
import { submitAll } from './submit-path'

/**
 * O_DIRECT and the page cache (Linux): before a direct transfer reaches the device, the cached
 * data it overlaps is written back and waited for, by the process itself — kiocb_write_and_wait
 * (mm/filemap.c, 6.x: filemap_write_and_wait_range, WB_SYNC_ALL, so the writes are REQ_SYNC and
 * the I/O scheduler sees them as the process's own sync I/O), called from blkdev_read_iter /
 * blkdev_direct_write (block/fops.c) and iomap_dio_rw (fs/iomap/direct-io.c) for reads and writes,
 * and inside io_submit for asynchronous ones. Writeback works on whole folios, so a 4 KiB read
 * inside data a 1 MiB buffered write dirtied writes that 1 MiB first. A direct write then drops
 * the cached pages of its range (kiocb_invalidate_pages). The cache is the file's own, or for the
 * raw device the block device's page cache (buffered I/O on /dev). Not on the BSD raw device
 * (`physio`): a character device outside the buffer cache.
 *
 * Returns true when the transfer may go on; otherwise the task is writing back or waiting and
 * comes back with continuation `k` (once per transfer, as the kernel: data dirtied again while it
 * waits is not written a second time).
 */
export function dioCoherent(t: Task, k: number): boolean {
  if (t.dioState === DIO_CLEAR) return true
  const c = coherentCache(t)
  if (c === null) {
    t.dioState = DIO_CLEAR
    return true
  }
  // coherentCache: the transfer starts inside the cache's pages
  const first = c.folioStart(Math.floor(t.off / PAGE))
  const end = c.folioEnd(Math.min(Math.ceil((t.off + t.len) / PAGE), c.pageCount) - 1)
  const cache = t.kernel.cache
  if (t.dioState === DIO_UNCHECKED) {
    t.dioState = DIO_FLUSHED
    const n = c.dirty > 0 ? cache.writebackRange(c, first, end, true, t, t.bios) : 0
    if (n > 0 && paceWriteback(t, n, k)) return false
  }
  if (t.bios.length > 0 && !submitAll(t, k)) return false
  if (c.writeback > 0 && c.anyPage(first, end, PG_WRITEBACK)) {
    t.k = k
    t.block()
    t.kernel.waitWritebackRange(t, c, first, end, k)
    return false
  }
  if (t.op === WRITE) cache.dropClean(c, first, end)
  t.dioState = DIO_CLEAR
  return true
}

/** The cached copy a direct transfer of the task's file must agree with, if it holds pages. */
function coherentCache(t: Task): SimFile | null {
  const f = t.file!
  if (t.kernel.h.physio) return null
  const c = f.raw ? t.kernel.blockDeviceCache : f
  if (c === null || c.pages === null || t.len <= 0 || t.off >= c.size) return null
  return c.dirty > 0 || c.writeback > 0 || t.op === WRITE ? c : null
}

/** Task.dioState: not looked at yet, written back (now waiting), nothing (more) in the way. */
export const DIO_UNCHECKED = 0
export const DIO_FLUSHED = 1
export const DIO_CLEAR = 2
