import { K_BALANCE, K_FSYNC_MORE, K_FSYNC_WAIT } from './continuations'
import { SYNC_SLEEP, SYNC_SUBMIT } from '../fs/types'
import { PAGE, SECTORS_PER_PAGE } from './files'
import type { SimFile } from './files'
import type { Task } from './task'
import { submitAll } from './submit-path'

/**
 * The buffered write path: dirty the pages, copy from user space, then balance_dirty_pages; and
 * fsync, which writes the file's dirty pages back and waits for them.
 */
export function bufferedWrite(t: Task): void {
  const f = t.file!
  const k = t.kernel
  const first = Math.floor(t.off / PAGE)
  const end = Math.min(Math.ceil((t.off + t.len) / PAGE), f.pageCount)
  if (k.h.folioOrder > 0 && (end - first > 1 || f.folio !== null)) f.makeFolios(first, end, k.h.folioOrder)
  const fresh = k.cache.dirtyPages(f, first, end - first, t.now)
  if (k.fs !== null) k.fs.written(t, f, t.off, t.len, false)
  t.dirtied = end - first
  t.written = 0
  t.k = K_BALANCE
  // the call's own work, the copy, and the first touch of pages the hypervisor had taken back
  // (page-reporting.ts)
  const call = k.writeCall !== null ? k.writeCall() : k.h.writeCall
  t.burst(call + Math.round((t.len / 1024) * k.h.copyPerKiB) + fresh * k.h.freshPage)
}

/** balance_dirty_pages: throttle a writer that pushed dirty memory over the limit. */
export function balance(t: Task): void {
  const k = t.kernel
  k.flusher.maybeBackground()
  if (!k.overDirtyLimit()) {
    t.opDone()
    return
  }
  if (k.h.throttle === 'sleep') {
    t.k = K_BALANCE
    t.block()
    k.waitDirty(t)
    return
  }
  // 2.5–3.1: the writer writes back 1.5× what it dirtied, then it has done its duty.
  const chunk = Math.ceil(t.dirtied * 1.5) - t.written
  if (chunk > 0 && k.cache.dirty > 0) {
    const n = k.flusher.collect(chunk, t, t.bios)
    t.written += n
    if (n > 0) {
      if (!submitAll(t, K_BALANCE)) return
      balance(t)
      return
    }
  }
  if (t.written >= Math.ceil(t.dirtied * 1.5)) {
    t.opDone()
    return
  }
  // Nothing of ours left to write: congestion_wait(WRITE, HZ/10).
  t.k = K_BALANCE
  t.block()
  k.waitCongestion(t)
}

/**
 * fsync: write the file's dirty pages back (sync); then, with a file system, what it needs for the
 * file to be durable — a journal commit (the caller sleeps until the journal thread has written
 * it) or the inode block written from the caller — before or after waiting for the data, as the
 * file system does it; then wait for the file's writeback to end.
 */
export function fsyncStart(t: Task): void {
  t.fsPhase = 0
  t.fsWait = null
  t.flushAfter = t.file!.raw || t.file!.blockDevice
  startSyncWriteback(t)
  fsyncMore(t)
}

export function fsyncMore(t: Task): void {
  if (syncWritebackChunks(t, K_FSYNC_MORE)) fsyncWait(t)
}

/**
 * A sync writeback of the task's file (fsync's file_write_and_wait_range, BLKFLSBUF's
 * sync_blockdev): the pages dirty now are the ones to write (tag_pages_for_writeback), from the
 * file's start; pages dirtied meanwhile wait for a later sync.
 */
export function startSyncWriteback(t: Task): void {
  t.pg = 0
  t.endPg = t.file!.dirty
}

/**
 * The pages go under writeback a request's worth at a time, as write_cache_pages sets each folio
 * under writeback just before its bio is built (mm/page-writeback.c, 6.x): while the caller waits
 * for a request slot the rest stay dirty — a direct reader that meets them writes them itself
 * (dio-coherence.ts) and a buffered writer may dirty them again, instead of waiting behind the
 * whole queue. Returns true once all are submitted; false while the task waits for a slot (it
 * comes back with continuation `k`).
 */
export function syncWritebackChunks(t: Task, k: number): boolean {
  const f = t.file!
  const cache = t.kernel.cache
  const chunk = Math.max(1, Math.floor(t.kernel.queue.maxPageSectors / SECTORS_PER_PAGE))
  for (;;) {
    // the chunk's bios go once the task has done their work (host writebackPageUs)
    if (t.bios.length > 0 && !submitAll(t, k)) return false
    if (f.dirty <= 0 || t.endPg <= 0) return true
    const n = cache.writebackPages(f, Math.min(chunk, t.endPg), true, t, t.bios, t.pg)
    if (n === 0) return true
    t.endPg -= n
    t.pg = f.writebackIndex
    if (paceWriteback(t, n, k)) return false
  }
}

/**
 * The task's CPU for the `n` pages it just put under writeback (their bios are built): true if it
 * must run first, coming back with `k` to submit them.
 */
export function paceWriteback(t: Task, n: number, k: number): boolean {
  const ns = n * t.kernel.h.writebackPage
  if (ns <= 0) return false
  t.k = k
  t.burst(ns)
  return true
}

export function fsyncWait(t: Task): void {
  const f = t.file!
  const fs = t.kernel.fs
  if (t.fsPhase === 0) {
    if (fs !== null) {
      if (fs.dataBeforeCommit && f.writeback > 0) return sleepOnWriteback(t, f)
      t.fsPhase = 1
      const r = fs.sync(t, f, t.datasync, K_FSYNC_WAIT)
      if (r === SYNC_SLEEP) {
        t.k = K_FSYNC_WAIT
        t.block()
        return
      }
      if (r === SYNC_SUBMIT) {
        t.fsWait = fs.meta
        if (!submitAll(t, K_FSYNC_WAIT)) return
      }
    }
    t.fsPhase = 1
  }
  if (f.writeback > 0) return sleepOnWriteback(t, f)
  const m = t.fsWait
  if (m !== null && m.writeback > 0) return sleepOnWriteback(t, m)
  t.fsWait = null
  if (t.flushAfter) return flushDevice(t)
  t.opDone()
}

/**
 * fsync of a block device, its data written: block/fops.c blkdev_fsync then calls
 * blkdev_issue_flush, an empty REQ_PREFLUSH bio the task waits for — done at once where the
 * queue has no volatile write cache (submit_bio_noacct drops the flag), else as long as the
 * device's flush takes (a loop device: its backing file's fsync, virtual.ts flushUs).
 */
function flushDevice(t: Task): void {
  t.flushAfter = false
  const q = t.kernel.queue
  if (q.deviceInfo.writeCache !== true) return t.opDone()
  t.k = K_FSYNC_WAIT
  t.block()
  q.flush(() => t.resume(K_FSYNC_WAIT))
}

function sleepOnWriteback(t: Task, f: SimFile): void {
  t.k = K_FSYNC_WAIT
  t.block()
  t.kernel.waitWriteback(t, f)
}
