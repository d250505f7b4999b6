import { K_FSYNC_WAIT, K_READ } from './continuations'
import { fsyncWait } from './write-path'
import type { Task } from './task'
import { submitAll } from './submit-path'

/**
 * A namespace operation (create, stat, unlink) through the file system: done at once, a read of
 * the inode's block when it is not cached (through the page cache, as any read), or a wait for
 * the metadata the file system wrote synchronously from this process.
 */
export function metaStep(t: Task): void {
  const fs = t.kernel.fs!
  const r = fs.metaOp(t, t.metaKind, t.metaN)
  if (r.kind === 'done') {
    t.opDone()
    return
  }
  if (r.kind === 'read') {
    t.file = r.file
    t.pg = r.page
    t.endPg = r.page + 1
    t.k = K_READ
    t.cpuDone()
    return
  }
  t.file = r.file
  t.fsPhase = 1
  t.flushAfter = false
  t.fsWait = null
  if (!submitAll(t, K_FSYNC_WAIT)) return
  fsyncWait(t)
}
