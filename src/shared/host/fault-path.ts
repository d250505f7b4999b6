import { K_FAULT_WAIT, K_STEP, K_TOUCH } from './continuations'
import type { Task } from './task'
import { submitAll } from './submit-path'

/**
 * The fault path: a process touches its anonymous memory page by page; a page not resident is a
 * fault that may wait for swap-in or for memory to be freed (after reclaiming some itself when
 * memory is below the min watermark). The computation before the fault and the CPU time of its
 * own reclaim are charged first; then the bios the fault built (its swap-in read, its reclaim's
 * writes) are submitted as the task's own, and it sleeps until swap I/O completes, a write
 * completes (congestion), or HZ/10 passes.
 */
export function touchLoop(t: Task): void {
  const k = t.kernel
  const sp = (t.anon ??= k.anon.space())
  while (t.touchNext < t.touchEnd) {
    if (k.anon.touch(sp, t.touchNext, t.touchWrite, t) === 'wait') {
      const cpu = t.touchPending
      t.touchPending = 0
      t.k = K_FAULT_WAIT
      if (cpu > 0) t.burst(cpu)
      else faultWait(t)
      return
    }
    t.touchNext++
    t.touchPending += t.touchCpu
  }
  const cpu = t.touchPending
  t.touchPending = 0
  t.k = K_STEP
  t.burst(Math.max(1, cpu))
}

/** Submit what the fault built, then sleep until memory or the page may be there. */
export function faultWait(t: Task): void {
  if (t.bios.length > 0 && !submitAll(t, K_FAULT_WAIT)) return
  t.k = K_TOUCH
  t.block()
  t.kernel.waitMemory(t)
}
