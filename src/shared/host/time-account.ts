import { READ } from '../block/types'
import type { ProcessTime } from '../metrics/why'
import { TIME_PARTS } from '../metrics/why'
import { SECOND } from '../sim/time'
import type { SimTime } from '../sim/time'
import {
  K_AIO_WAIT,
  K_BALANCE,
  K_DIRECT,
  K_DIRECT_NEXT,
  K_DIRECT_WAIT,
  K_FADVISE_DROP,
  K_FAULT_WAIT,
  K_FLUSHBUF_MORE,
  K_FLUSHBUF_WAIT,
  K_FSYNC,
  K_FSYNC_MORE,
  K_FSYNC_WAIT,
  K_META,
  K_READ,
  K_STEP,
  K_SUBMIT,
  K_TOUCH,
  K_WAIT_CHILD,
  K_WRITE,
} from './continuations'
import { CPU_AT_START, RAN, SINCE, SLEPT_OTHER } from './task-times'
import type { TaskTimes } from './task-times'

/** Indexes into TIME_PARTS (why.ts), in its order. */
const CPU = 0
const RUNNABLE = 1
const READS = 2
const WRITES = 3
const THROTTLED = 4
const SYNC = 5
const FAULT = 6
const THINK = 7
const OTHER = 8

/**
 * The part of a process's time a sleep counts as, from what the task will do when woken (its
 * continuation `k`) and the system call in progress (`op`); `after`: where a wait for a request
 * slot goes on. As `/proc/PID/schedstat` splits run and runnable time and delay accounting
 * (Documentation/accounting/delay-accounting.rst) splits block-I/O, swap-in and throttling waits.
 */
export function sleepPart(k: number, op: number, after: number): number {
  switch (k) {
    case K_STEP:
      return THINK // nanosleep, a rate limit's or think time's pause
    case K_READ:
      return READS // a buffered read waiting on a locked page
    case K_BALANCE:
      return THROTTLED // balance_dirty_pages
    case K_FSYNC:
    case K_FSYNC_WAIT:
    case K_FSYNC_MORE:
    case K_FLUSHBUF_WAIT:
    case K_FLUSHBUF_MORE:
    case K_FADVISE_DROP:
      return SYNC
    case K_TOUCH:
    case K_FAULT_WAIT:
      return FAULT
    case K_WAIT_CHILD:
      return OTHER
    case K_WRITE:
      return WRITES
    case K_DIRECT:
    case K_DIRECT_WAIT:
    case K_DIRECT_NEXT:
    case K_AIO_WAIT:
    case K_META:
      return op === READ ? READS : WRITES
    case K_SUBMIT: {
      // a wait for a request slot: part of the fsync, throttling or fault it serves, else the I/O's
      const p = after === K_SUBMIT ? OTHER : sleepPart(after, op, K_SUBMIT)
      return p === THINK || p === OTHER ? (op === READ ? READS : WRITES) : p
    }
    default:
      return OTHER
  }
}

/**
 * A task's time split as it runs: run time (on a CPU or runnable) and each kind of sleep, ns, with
 * the interval in progress open since `since`. CPU time comes from the CPU scheduler's count.
 * Task extends it, so a wake-up adds to the account without reaching another object (with a
 * thousand processes, each object a request reaches is a cache miss); the times themselves lie in
 * the kernel's TaskTimes (task-times.ts), a run of doubles per task, not boxed one by one.
 */
export abstract class TimeAccount {
  /** The part of the sleep in progress, or −1 while running. */
  private asleep = -1
  /** Where its times start in `times.data`. */
  protected readonly at: number

  constructor(protected readonly times: TaskTimes) {
    this.at = times.open()
  }

  /** Start (or restart, at a ramp's end) the account at `now`, running, with `cpu` ns used so far. */
  protected beginAccount(now: SimTime, cpu: SimTime, running: boolean, part = -1): void {
    const d = this.times.data
    const at = this.at
    d.fill(0, at + READS, at + SLEPT_OTHER + 1)
    d[at + RAN] = 0
    d[at + SINCE] = now
    this.asleep = running ? -1 : part
    d[at + CPU_AT_START] = cpu
  }

  protected accountSleep(now: SimTime, part: number): void {
    if (this.asleep >= 0) return
    const d = this.times.data
    const at = this.at
    d[at + RAN] += now - d[at + SINCE]
    d[at + SINCE] = now
    this.asleep = part
  }

  protected accountWake(now: SimTime): void {
    if (this.asleep < 0) return
    const d = this.times.data
    const at = this.at
    // a part READS … THINK has its own place; any other counts as OTHER (SLEPT_OTHER)
    const part = this.asleep
    d[at + (part >= READS && part <= THINK ? part : SLEPT_OTHER)] += now - d[at + SINCE]
    d[at + SINCE] = now
    this.asleep = -1
  }

  /** The part of the sleep in progress, or −1 while running. */
  protected get sleepingPart(): number {
    return this.asleep
  }

  /** The account up to `now`, seconds; `cpu`: the task's CPU ns so far. */
  timeAt(now: SimTime, cpu: SimTime): ProcessTime {
    const d = this.times.data
    const at = this.at
    const slept = new Float64Array(TIME_PARTS.length)
    for (let p = READS; p <= THINK; p++) slept[p] = d[at + p]
    slept[OTHER] = d[at + SLEPT_OTHER]
    let run = d[at + RAN]
    if (this.asleep >= 0) slept[this.asleep] += now - d[at + SINCE]
    else run += now - d[at + SINCE]
    const used = Math.min(run, Math.max(0, cpu - d[at + CPU_AT_START]))
    slept[CPU] = used
    slept[RUNNABLE] = run - used
    return Object.fromEntries(TIME_PARTS.map((p, i) => [p, slept[i] / SECOND])) as ProcessTime
  }
}
