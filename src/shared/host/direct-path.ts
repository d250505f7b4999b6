import type { Bio, Op } from '../block/types'
import { READ } from '../block/types'
import type { SimTime } from '../sim/time'
import { K_AIO, K_AIO_WAIT, K_DIRECT, K_DIRECT_WAIT, K_STEP } from './continuations'
import { dioCoherent } from './dio-coherence'
import type { Task } from './task'
import { addBuilt, submitAll, submitOne } from './submit-path'

/**
 * Direct I/O: bios straight from the process, past the page cache — synchronous (O_DIRECT
 * read/write, raw devices; BSD physio issues one chunk at a time) and asynchronous (libaio:
 * io_submit, io_getevents).
 */

/** One asynchronous I/O in flight. */
export class AioSlot {
  remaining = 0
  start: SimTime = 0
  bytes = 0
  op: Op = READ
}

/** Issue the next bios of a synchronous direct transfer (all of it, or one chunk under physio). */
export function direct(t: Task): void {
  if (!dioCoherent(t, K_DIRECT)) return
  const f = t.file!
  const q = t.kernel.queue
  const physio = t.kernel.h.physio
  const end = t.dirEnd
  let fs = t.dirNext
  let first: Bio | null = null
  let n = 0
  while (fs < end) {
    const len = Math.min(end - fs, f.contiguousFrom(fs), q.maxSectors)
    const b = ownBio(t, f.map(fs), len, null)
    if (n++ === 0) first = b
    else addBuilt(t, first!, n, b)
    t.outstanding++
    fs += len
    if (physio) break
  }
  t.dirNext = fs
  if (n === 1 ? submitOne(t, first!, K_DIRECT_WAIT) : submitAll(t, K_DIRECT_WAIT)) directWait(t)
}

function ownBio(t: Task, sector: number, nsect: number, slot: AioSlot | null): Bio {
  return t.kernel.queue.makeBio(sector, nsect, t.op, t.opSync, t, t, slot, 0)
}

export function directWait(t: Task): void {
  if (t.outstanding > 0) {
    t.k = K_DIRECT_WAIT
    t.block()
  } else directNext(t)
}

export function directNext(t: Task): void {
  if (t.dirNext >= t.dirEnd) {
    t.opDone()
    return
  }
  // physio: the next chunk is issued from the process, which needs the CPU for it
  t.k = K_DIRECT
  t.burst(t.kernel.h.submit)
}

/** io_submit of one iocb: its bios go to the queue; the program goes on at once. */
export function aioIssue(t: Task): void {
  if (!dioCoherent(t, K_AIO)) return
  const q = t.kernel.queue
  const f = t.file!
  const slot = t.aioPool.pop() ?? new AioSlot()
  // fio's clat of an asynchronous I/O starts when io_submit has returned (libaio's commit stamps
  // issue_time after it: fio engines/libaio.c fio_libaio_queued), not before its system call
  slot.start = t.now
  slot.bytes = t.len
  slot.op = t.op
  slot.remaining = 0
  let fs = Math.floor(t.off / 512)
  const endSector = Math.ceil(Math.min(t.off + t.len, f.size) / 512)
  let first: Bio | null = null
  while (fs < endSector) {
    const len = Math.min(endSector - fs, f.contiguousFrom(fs), q.maxSectors)
    const b = ownBio(t, f.map(fs), len, slot)
    if (++slot.remaining === 1) first = b
    else addBuilt(t, first!, slot.remaining, b)
    fs += len
  }
  t.aioInFlight++
  const n = slot.remaining
  if (n === 0) aioComplete(t, slot)
  if (!(n === 1 ? submitOne(t, first!, K_STEP, true) : submitAll(t, K_STEP, true))) return
  t.k = K_STEP
  t.program.step(t)
}

/** The last bio of an iocb is done: an event for io_getevents. */
export function aioComplete(t: Task, slot: AioSlot): void {
  t.aioReady.push(slot)
  t.aioDone++
  if (t.isBlockedOn(K_AIO_WAIT) && t.aioDone >= t.aioMin) t.wake(K_AIO_WAIT)
}

/**
 * io_getevents: reap what is done once at least the minimum is — at most the call's maximum, the
 * oldest first; the rest wait for the next call. fio takes an event's completion time when it
 * reaps it (after io_getevents returns, a sleeping submitter's wake-up included), so its latency
 * ends here, not when the device finished.
 */
export function aioCollect(t: Task): void {
  if (t.aioDone >= t.aioMin) {
    const ready = t.aioReady
    const n = Math.min(ready.length, t.aioMax)
    for (let i = 0; i < n; i++) {
      const slot = ready[i]
      t.recordLatency(t.now - slot.start)
      t.ops++
      if (slot.op === READ) t.bytesRead += slot.bytes
      else t.bytesWritten += slot.bytes
      t.aioPool.push(slot)
    }
    // not `length = 0` nor `splice`: a runtime call on every reap (splice was 2 % of bfq at QD32,
    // whose completions come in runs that io_getevents reaps a part of)
    let kept = 0
    for (let i = n; i < ready.length; i++) ready[kept++] = ready[i]
    while (ready.length > kept) ready.pop()
    t.reaped = n
    t.aioInFlight -= n
    t.aioDone -= n
    t.k = K_STEP
    t.program.step(t)
    return
  }
  t.k = K_AIO_WAIT
  t.block()
}
