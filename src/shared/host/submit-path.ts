import type { Bio } from '../block/types'
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
  const made = q.requestsMade
  q.plug()
  while (t.subIdx < bios.length) {
    const b = bios[t.subIdx++]
    if (!q.submit(b, t)) return held(t, made, then)
  }
  while (bios.length > 0) bios.pop() // not `length = 0`: a runtime call on every request
  t.subIdx = 0
  return submitted(t, made, then, owe)
}

/**
 * `submitAll` of one bio the caller built alone (a direct transfer's usual one), with `t.bios`
 * empty: the same, without the array — at 1 024 jobs its object and store were two cold lines a
 * request. A bio held for a slot is the queue's to keep; the task, woken, submits the rest of an
 * empty list. A caller that builds more goes to the array from the second bio on (`addBuilt`).
 */
export function submitOne(t: Task, bio: Bio, then: number, owe = false): boolean {
  const q = t.kernel.queue
  const made = q.requestsMade
  q.plug()
  if (!q.submit(bio, t)) return held(t, made, then)
  return submitted(t, made, then, owe)
}

/** The `n`th bio (n ≥ 2) built for one transfer whose first, `first`, was kept apart: both to `t.bios`. */
export function addBuilt(t: Task, first: Bio, n: number, b: Bio): void {
  if (n === 2) t.bios.push(first)
  t.bios.push(b)
}

/**
 * A bio is held for a request slot: the task sleeps, owing the requests it made and the held one;
 * going to sleep flushes its plug (sched_submit_work → blk_flush_plug), so the requests it made
 * are run after their scheduler work.
 */
function held(t: Task, made: number, then: number): boolean {
  const cost = t.kernel.h.schedCpu
  const n = t.kernel.queue.requestsMade - made
  t.kernel.queue.unplug(n * cost)
  // the held bio becomes a request when a slot is granted: its cost is this task's too
  if (cost > 0) t.schedCpuDue += (n + 1) * cost
  t.afterSubmit = then
  t.k = K_SUBMIT
  t.block()
  return false
}

/**
 * Every bio submitted: the scheduler's work for the requests made, now or owed (see `submitAll`).
 * The task's own run of the queue comes when that work is done (`BlockQueue.plug`): its CPU time
 * lies between the request's submission and the device, as in the kernel, not beside the device's
 * service (at QD1 it lengthens every request by its cost). With no such work the run is at once,
 * while the task still holds its CPU, as the kernel issues before the submitter sleeps.
 */
function submitted(t: Task, made: number, then: number, owe: boolean): boolean {
  const cost = t.kernel.h.schedCpu
  const due = cost > 0 ? t.schedCpuDue + (t.kernel.queue.requestsMade - made) * cost : 0
  t.kernel.queue.unplug(due)
  if (due > 0) {
    t.schedCpuDue = owe ? due : 0
    if (!owe) {
      t.k = then
      t.burst(due)
      return false
    }
  }
  return true
}

/**
 * Granted a slot (and woken): submit the rest, then go on where the submission was to. A bio held
 * from `submitOne` (`subIdx` 0: `submitAll` holds one only after counting it) leaves nothing to
 * submit, and the array is not reached: at 1 024 jobs it was a cold line on every granted slot.
 */
export function submitRest(t: Task): void {
  const then = t.afterSubmit
  if (t.subIdx === 0 ? submitted(t, t.kernel.queue.requestsMade, then, false) : submitAll(t, then)) {
    t.k = then
    t.cpuDone()
  }
}
