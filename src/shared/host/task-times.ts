/**
 * Where a task's time account (time-account.ts) lies in its run of the CPU scheduler's TaskTimes
 * (util/double-runs.ts), two cache lines a task, where they were fields boxed apart from it (each
 * box a sleep or a wake-up reached was a cold line with a thousand processes). The slept parts
 * lie at their TIME_PARTS index (why.ts), READS (2) to THINK (7), OTHER after them. (CpuTask's
 * cpuWork, cpuTime and vruntime stay fields: behind accessors they cost runs of one process
 * 5–7 %, read as often as they are.)
 */
import { DoubleRuns } from '../util/double-runs'

export const SINCE = 0
export const RAN = 1
export const SLEPT_OTHER = 8
export const CPU_AT_START = 9

export type TaskTimes = DoubleRuns
export const taskTimes = (): TaskTimes => new DoubleRuns(16)
