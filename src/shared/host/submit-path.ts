import { K_SUBMIT } from './continuations'
import type { Task } from './task'

/**
 * Submitting a task's built bios to the request queue, which may put it to sleep until a request
 * slot is free (blk_mq_get_tag: a process waits for a tag when the queue's nr_requests are in use).
 */

/**
 * Submit the built bios; returns false if the task went to sleep waiting for a slot, or is
 * running the I/O scheduler's work for the requests it made (then it goes on with `then`).
 * `owe`: the caller's next step is the task's own next stretch on a CPU (io_submit returning to
 * the program, which makes its next system call): the scheduler's work is added to that stretch
 * instead of being a burst of its own — the same CPU time, one event fewer per request.
 */
export function submitAll(t: Task, then: number, owe = false): boolean {
  const q = t.kernel.queue
  const bios = t.bios
  const cost = t.kernel.h.schedCpu
  const made = cost > 0 ? q.requestsMade : 0
  while (t.subIdx < bios.length) {
    const b = bios[t.subIdx++]
    if (!q.submit(b, t)) {
      // the held bio becomes a request when a slot is granted: its cost is this task's too
      if (cost > 0) t.schedCpuDue += (q.requestsMade - made + 1) * cost
      t.afterSubmit = then
      t.k = K_SUBMIT
      t.block()
      return false
    }
  }
  while (bios.length > 0) bios.pop() // not `length = 0`: a runtime call on every request
  t.subIdx = 0
  if (cost > 0) {
    const due = t.schedCpuDue + (q.requestsMade - made) * cost
    t.schedCpuDue = owe ? due : 0
    if (due > 0 && !owe) {
      t.k = then
      t.burst(due)
      return false
    }
  }
  return true
}

/** Granted a slot (and woken): submit the rest, then go on where the submission was to. */
export function submitRest(t: Task): void {
  if (submitAll(t, t.afterSubmit)) {
    t.k = t.afterSubmit
    t.cpuDone()
  }
}
