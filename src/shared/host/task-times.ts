/**
 * Every task's time account (time-account.ts) in one Float64Array, TASK_TIMES doubles (two cache
 * lines) each, where they were fields of the task: a time in nanoseconds is no small integer, so a
 * field holding one points to a number boxed apart from its object, and with a thousand processes
 * each box a sleep or a wake-up reached was a cold line of its own. A task takes its run when it
 * is made (`open`); runs are not reused. The slept parts lie at their TIME_PARTS index (why.ts),
 * READS (2) to THINK (7), OTHER after them. (CpuTask's cpuWork, cpuTime and vruntime stay fields:
 * behind accessors here they cost runs of one process 5–7 %, read as often as they are.)
 */
export const SINCE = 0
export const RAN = 1
export const SLEPT_OTHER = 8
export const CPU_AT_START = 9
const TASK_TIMES = 16

export class TaskTimes {
  data = new Float64Array(64 * TASK_TIMES)
  private used = 0

  /** A new task's run, zeroed: where it starts. */
  open(): number {
    if (this.used + TASK_TIMES > this.data.length) {
      const grown = new Float64Array(2 * this.data.length)
      grown.set(this.data)
      this.data = grown
    }
    const at = this.used
    this.used += TASK_TIMES
    return at
  }
}
