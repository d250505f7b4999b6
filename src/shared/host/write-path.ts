import { K_BALANCE, K_FSYNC_WAIT } from './continuations'
import { PAGE } from './files'
import type { Task } from './task'

/**
 * The buffered write path: dirty the pages, copy from user space, then balance_dirty_pages; and
 * fsync, which writes the file's dirty pages back and waits for them.
 */
export function bufferedWrite(t: Task): void {
  const f = t.file!
  const k = t.kernel
  const first = Math.floor(t.off / PAGE)
  const end = Math.min(Math.ceil((t.off + t.len) / PAGE), f.pageCount)
  k.cache.dirtyPages(f, first, end - first, t.now)
  t.dirtied = end - first
  t.written = 0
  t.k = K_BALANCE
  t.burst(Math.round((t.len / 1024) * k.h.copyPerKiB))
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
      if (!t.submitAll(K_BALANCE)) return
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

/** fsync: write the file's dirty pages back (sync), then wait for its writeback to end. */
export function fsyncStart(t: Task): void {
  const k = t.kernel
  const f = t.file!
  k.cache.writebackPages(f, f.dirty, true, t, t.bios, 0)
  if (!t.submitAll(K_FSYNC_WAIT)) return
  fsyncWait(t)
}

export function fsyncWait(t: Task): void {
  const f = t.file!
  if (f.writeback > 0) {
    t.k = K_FSYNC_WAIT
    t.block()
    t.kernel.waitWriteback(t, f)
    return
  }
  t.opDone()
}
