import {
  K_AIO,
  K_AIO_WAIT,
  K_BALANCE,
  K_DIRECT,
  K_DIRECT_NEXT,
  K_DIRECT_WAIT,
  K_FADVISE,
  K_FADVISE_DROP,
  K_FAULT_WAIT,
  K_FLUSHBUF,
  K_FLUSHBUF_MORE,
  K_FLUSHBUF_WAIT,
  K_FSYNC,
  K_FSYNC_MORE,
  K_FSYNC_WAIT,
  K_META,
  K_OP_DONE,
  K_READ,
  K_SPAWN,
  K_STEP,
  K_SUBMIT,
  K_TOUCH,
  K_WRITE,
} from './continuations'
import { fadviseDrop, fadviseStart, flushBufMore, flushBufStart, flushBufWait } from './cache-control-path'
import { aioCollect, aioIssue, direct, directNext, directWait } from './direct-path'
import { faultWait, touchLoop } from './fault-path'
import { metaStep } from './meta-path'
import { forkChild } from './process-tree'
import { readLoop } from './read-path'
import { submitRest } from './submit-path'
import type { Task } from './task'
import { balance, bufferedWrite, fsyncMore, fsyncStart, fsyncWait } from './write-path'

/**
 * The task's state machine: it holds a CPU again (its burst ended, or it was woken and
 * scheduled), and goes on with its continuation `k` in the path that set it.
 */
export function continueTask(t: Task): void {
  switch (t.k) {
    case K_STEP:
      t.program.step(t)
      return
    case K_READ:
      readLoop(t)
      return
    case K_WRITE:
      bufferedWrite(t)
      return
    case K_BALANCE:
      balance(t)
      return
    case K_DIRECT:
      direct(t)
      return
    case K_OP_DONE:
      t.opDone()
      return
    case K_FSYNC:
      fsyncStart(t)
      return
    case K_AIO:
      aioIssue(t)
      return
    case K_AIO_WAIT:
      aioCollect(t)
      return
    case K_SUBMIT:
      submitRest(t)
      return
    case K_DIRECT_WAIT:
      directWait(t)
      return
    case K_DIRECT_NEXT:
      directNext(t)
      return
    case K_FSYNC_WAIT:
      fsyncWait(t)
      return
    case K_FSYNC_MORE:
      fsyncMore(t)
      return
    case K_FADVISE:
      fadviseStart(t)
      return
    case K_FADVISE_DROP:
      fadviseDrop(t)
      return
    case K_FLUSHBUF:
      flushBufStart(t)
      return
    case K_FLUSHBUF_WAIT:
      flushBufWait(t)
      return
    case K_FLUSHBUF_MORE:
      flushBufMore(t)
      return
    case K_SPAWN:
      forkChild(t)
      return
    case K_TOUCH:
      touchLoop(t)
      return
    case K_FAULT_WAIT:
      faultWait(t)
      return
    case K_META:
      metaStep(t)
      return
  }
}
