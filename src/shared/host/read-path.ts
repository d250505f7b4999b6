import { PG_LOCKED, PG_READAHEAD, PG_UPTODATE } from './page-flags'
import type { SimFile } from './files'
import { K_OP_DONE, K_READ } from './continuations'
import { RaState, ondemand, raMax } from './readahead'
import type { Task } from './task'
import { submitAll } from './submit-path'

/**
 * The buffered read path (generic_file_read / filemap_read): page by page through the page cache,
 * with on-demand read-ahead (synchronous on a miss, asynchronous at a PG_readahead marker), and
 * waits on pages still locked under I/O. Ends with the copy to user space.
 */
export function readLoop(t: Task): void {
  const f = t.file!
  const pages = f.pageStates()
  const k = t.kernel
  const max = raMax(raState(t, f), k.raPages)
  while (t.pg < t.endPg) {
    const p = t.pg
    const s = pages.state(p)
    if (s === 0) {
      const w = ondemand(raState(t, f), max, p, t.endPg - p, false, (a, l) => k.nextHole(f, a, l))
      if (w !== null) readPages(t, f, w.start, w.size, w.marker)
      if (pages.state(p) === 0) readPages(t, f, p, t.endPg - p, -1)
      if (!submitAll(t, K_READ)) return
      continue
    }
    if (s & PG_READAHEAD) {
      pages.update(p, p + 1, 0, PG_READAHEAD)
      const w = ondemand(raState(t, f), max, p, t.endPg - p, true, (a, l) => k.nextHole(f, a, l))
      if (w !== null) {
        readPages(t, f, w.start, w.size, w.marker)
        if (!submitAll(t, K_READ)) return
      }
      continue
    }
    if (s & PG_LOCKED || !(s & PG_UPTODATE)) {
      t.k = K_READ
      t.block()
      k.waitPage(t, f, p)
      return
    }
    // the run of pages from here that are up to date, not locked and not marked: accessed at once
    const q = pages.runEnd(p, t.endPg, PG_UPTODATE, true, PG_LOCKED | PG_READAHEAD, false)
    k.cache.touchRange(f, p, q)
    t.pg = q
  }
  raState(t, f).prevPage = t.endPg - 1
  if (k.fs !== null) k.fs.accessed(t, f)
  t.k = K_OP_DONE
  // the copy, and the first touch of the pages it allocated that the hypervisor had taken back
  // (charged here, at the end of the read, rather than before each read-ahead's submission)
  t.burst(Math.round((t.len / 1024) * k.h.copyPerKiB) + t.freshPages * k.h.freshPage)
  t.freshPages = 0
}

/** Read pages not cached yet into the cache, for `t` (its bios), counting the fresh pages it allocated. */
function readPages(t: Task, f: SimFile, first: number, n: number, marker: number): void {
  t.freshPages += t.kernel.cache.readPages(f, first, n, marker, t, t.bios)
}

/** The task's read-ahead state for a file (struct file_ra_state), made on first use. */
export function raState(t: Task, f: SimFile): RaState {
  let r = t.ra.get(f.id)
  if (r === undefined) {
    r = new RaState()
    t.ra.set(f.id, r)
  }
  return r
}
