import { K_STEP, K_WAIT_CHILD, TASK_BLOCKED } from './continuations'
import type { Task } from './task'

/**
 * Processes that spawn processes (fork, wait): a parent's results include its children's once
 * they exit, as `time make` reports them (getrusage's RUSAGE_CHILDREN).
 */

/** The fork asked for by `Task.spawn` is done: the child starts, the parent goes on. */
export function forkChild(t: Task): void {
  const c = t.pendingChild!
  t.pendingChild = null
  t.liveChildren++
  t.kernel.spawnChild(t, `${t.name}/${c.name}`, c.program, t.forked++).start()
  t.k = K_STEP
  t.program.step(t)
}

/** Child `c` of `t` exited: its figures join the parent's; a parent in wait() wakes. */
export function childExited(t: Task, c: Task): void {
  t.liveChildren--
  t.bytesRead += c.bytesRead
  t.bytesWritten += c.bytesWritten
  t.ops += c.ops
  t.latency.merge(c.latency)
  t.childCpuTime += c.cpuTime + c.childCpuTime
  if (t.state === TASK_BLOCKED && t.k === K_WAIT_CHILD) t.wake(K_STEP, t.kernel.h.syscall)
  else t.zombies++
}
