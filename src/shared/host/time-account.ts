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
 * Task extends it, so the account's fields lie in the task itself: a wake-up adds to one without
 * reaching another object (with a thousand processes, each object a request reaches is a cache
 * miss); and they are fields, not an array, for the same reason.
 */
export abstract class TimeAccount {
  // the fields a sleep and a wake-up touch first, together
  private since = 0
  /** The part of the sleep in progress, or −1 while running. */
  private asleep = -1
  private ran = 0
  private sleptRead = 0
  private sleptWrite = 0
  private sleptThrottled = 0
  private sleptSync = 0
  private sleptFault = 0
  private sleptThink = 0
  private sleptOther = 0
  private cpuAtStart = 0

  /** Start (or restart, at a ramp's end) the account at `now`, running, with `cpu` ns used so far. */
  protected beginAccount(now: SimTime, cpu: SimTime, running: boolean, part = -1): void {
    this.sleptRead = this.sleptWrite = this.sleptThrottled = this.sleptSync = 0
    this.sleptFault = this.sleptThink = this.sleptOther = 0
    this.ran = 0
    this.since = now
    this.asleep = running ? -1 : part
    this.cpuAtStart = cpu
  }

  protected accountSleep(now: SimTime, part: number): void {
    if (this.asleep >= 0) return
    this.ran += now - this.since
    this.since = now
    this.asleep = part
  }

  protected accountWake(now: SimTime): void {
    if (this.asleep < 0) return
    this.addSlept(this.asleep, now - this.since)
    this.since = now
    this.asleep = -1
  }

  /** The part of the sleep in progress, or −1 while running. */
  protected get sleepingPart(): number {
    return this.asleep
  }

  /** The account up to `now`, seconds; `cpu`: the task's CPU ns so far. */
  timeAt(now: SimTime, cpu: SimTime): ProcessTime {
    const slept = new Float64Array(TIME_PARTS.length)
    slept[READS] = this.sleptRead
    slept[WRITES] = this.sleptWrite
    slept[THROTTLED] = this.sleptThrottled
    slept[SYNC] = this.sleptSync
    slept[FAULT] = this.sleptFault
    slept[THINK] = this.sleptThink
    slept[OTHER] = this.sleptOther
    let run = this.ran
    if (this.asleep >= 0) slept[this.asleep] += now - this.since
    else run += now - this.since
    const used = Math.min(run, Math.max(0, cpu - this.cpuAtStart))
    slept[CPU] = used
    slept[RUNNABLE] = run - used
    return Object.fromEntries(TIME_PARTS.map((p, i) => [p, slept[i] / SECOND])) as ProcessTime
  }

  private addSlept(part: number, ns: SimTime): void {
    switch (part) {
      case READS:
        this.sleptRead += ns
        return
      case WRITES:
        this.sleptWrite += ns
        return
      case THROTTLED:
        this.sleptThrottled += ns
        return
      case SYNC:
        this.sleptSync += ns
        return
      case FAULT:
        this.sleptFault += ns
        return
      case THINK:
        this.sleptThink += ns
        return
      default:
        this.sleptOther += ns
    }
  }
}
