import { K_STEP, K_TOUCH } from './continuations'
import type { Task } from './task'

/**
 * The fault path: a process touches its anonymous memory page by page; a page not resident is a
 * fault that may wait for swap-in or for memory to be freed. The computation between faults is
 * charged before the task sleeps on one.
 */
export function touchLoop(t: Task): void {
  const k = t.kernel
  const sp = (t.anon ??= k.anon.space())
  while (t.touchNext < t.touchEnd) {
    if (k.anon.touch(sp, t.touchNext, t.touchWrite) === 'wait') {
      if (t.touchPending > 0) {
        // charge the computation done so far before sleeping on the fault
        const cpu = t.touchPending
        t.touchPending = 0
        t.k = K_TOUCH
        t.burst(cpu)
        return
      }
      t.k = K_TOUCH
      t.block()
      k.waitMemory(t)
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
