import type { LatencyHistogramJSON } from './histogram'

/**
 * The "why" of a run: where each process's requests spent their time and what the scheduler
 * decided for them. One shape for simulated runs (the block layer's own timestamps) and real runs
 * (a blktrace capture), so that the two sit side by side.
 *
 * Stages are btt's (blktrace's `btt`, Documentation: "btt User Guide", section "Q2G … D2C"), from
 * a request's events: Q (its first bio queued), G (got a request, i.e. a tag or an `nr_requests`
 * slot), I (inserted into the scheduler), D (dispatched to the device), C (completed).
 */
export const STAGES = ['q2g', 'g2i', 'i2d', 'd2c', 'q2c'] as const
export type StageName = (typeof STAGES)[number]

/** What each stage is, for tables and charts. */
export const STAGE_MEANING: Record<StageName, string> = {
  q2g: 'waiting for a request slot (nr_requests, tags, writeback throttling)',
  g2i: 'between getting a request and entering the scheduler (plugging)',
  i2d: 'in the scheduler, inserted to dispatched',
  d2c: 'at the device, dispatched to completed',
  q2c: 'all of it, queued to completed',
}

/**
 * Waits the scheduler made for a process: while the device had room it dispatched nothing —
 * holding queued requests back, or keeping the empty device idle on purpose (AS's anticipation,
 * CFQ's and BFQ's slice idling, ROW's read idling, kyber's token limits). A wait is for the
 * process the device was last sent work of, and ends at the next dispatch.
 */
export interface IdleWaits {
  /** Waits made for this process. */
  waits: number
  /** Their total length, ns. */
  ns: number
  /** Waits ended by this process's own next request: what the wait bought. */
  rewarded: number
  /** Waits ended otherwise: another process's request went next, or the device ran dry. */
  expired: number
  /** Of `ns`, the time other processes' requests sat held back in the scheduler. */
  othersWaitingNs: number
}

/**
 * Waits the kernel's own machinery imposed on a process's requests (block/waits.ts), in the order
 * of its W_* kinds:
 * - `classHeld`: held in this device's scheduler behind a higher I/O priority class (mq-deadline
 *   serves RT before BE before IDLE, a lower level waiting while a higher one has requests even in
 *   flight: block/mq-deadline.c dd_dispatch_request, dd_dispatch_prio_aged_requests); in I2D;
 * - `backingClassHeld`: the same at the disk under a loop device, which hands each request's
 *   priority down (backingIoprio); in D2C;
 * - `delayedRun`: waiting for blk-mq's delayed run of a queue whose scheduler had declined
 *   (blk_mq_delay_run_hw_queues, BLK_MQ_BUDGET_DELAY 3 ms, on a tick), at this device or the disk
 *   under it; part of the class holding where that is what declined;
 * - `behindFlush`: queued behind a cache flush in a loop device's worker (lo_req_flush: one command
 *   at a time, the flush synchronous); in D2C.
 */
export const WAIT_NAMES = ['classHeld', 'backingClassHeld', 'delayedRun', 'behindFlush'] as const
export type WaitName = (typeof WAIT_NAMES)[number]
/** Requests of the process that waited so, and their waits' total, ns. */
export interface MachineryWait {
  requests: number
  ns: number
}

/**
 * EEVDF's wake-up preemptions by lag for a process (host/lag-preemptions.ts): of its tasks'
 * wake-ups to a busy CPU (`busyWakeups`), the times one, woken with positive lag, made the running
 * task ineligible within its slice and took its CPU (`preempts`); the
 * times one of its tasks was so preempted (`preempted`), and how long it then waited runnable, ns.
 */
export interface LagPreemption {
  /** Wake-ups of its tasks that found the CPU busy: each preempted, or waited. */
  busyWakeups: number
  preempts: number
  preempted: number
  waitedNs: number
}

/** One process's requests (instances of a spec process folded together), their stages and decisions. */
export interface ProcessStages {
  /** The spec process (`rr/3` → `rr`), or the kernel thread that issued them ("flush", "kernel"). */
  process: string
  requests: number
  readRequests: number
  writeRequests: number
  /** Per stage, a histogram over the process's requests, ns. */
  stages: Record<StageName, LatencyHistogramJSON>
  /**
   * D2C split into the device model's physical parts (seek, rotation, transfer; array time,
   * channel queueing, garbage collection …): part → total ns over the process's requests.
   * Simulated runs only; the parts sum to the process's D2C total.
   */
  device?: Record<string, number>
  /** Device idle on its behalf (simulated runs; a trace cannot tell an idle choice from no work). */
  idle?: IdleWaits
  /**
   * Deceptive idleness (Iyer and Druschel, "Anticipatory scheduling", SOSP 2001): the times the
   * device moved on to other processes after this one's last dispatch had left it nothing queued —
   * it looked idle, between two synchronous requests. `gapNs`: how soon after that dispatch its
   * next request came, summed; `waitNs`: how long those next requests then waited in the scheduler.
   * A gap far below the wait is the deception. Simulated runs.
   */
  deceived?: { switches: number; gapNs: number; waitNs: number }
  /** The machinery's waits its requests made (simulated runs; only the kinds it met). */
  waits?: Partial<Record<WaitName, MachineryWait>>
  /** Its tasks' preemptions by lag (simulated runs on an EEVDF host; absent when none). */
  lag?: LagPreemption
  /** Runs of consecutive dispatches from this process: its batches or slices as the device saw them. */
  batches: number
  /** Requests dispatched after their FIFO deadline had passed (deadline, AS, CFQ, BFQ). */
  expired: number
  /** Bios merged into its queued requests. */
  merged: number
  /** Head travel to reach its requests: sectors from the previous request's end, summed. */
  travelSectors: number
  /** Its requests that did not start where the previous request ended. */
  seeks: number
}

/** What a run's stages came from: see RunWhy.source. */
export type StageSource = 'simulated' | 'blktrace' | 'tracefs' | 'none'

/** Where a run's stages came from, in words, for the tables and charts that show them. */
export const STAGE_SOURCE_MEANING: Record<StageSource, string> = {
  simulated: "the simulator's block layer",
  blktrace: 'blktrace',
  tracefs: "the kernel's block tracepoints via tracefs, where blktrace could not trace",
  none: 'no trace',
}

export interface RunWhy {
  /**
   * Where the stages come from: the simulator's block layer; a real run's blktrace; or, where
   * blktrace cannot trace (the kernel refuses its relay files in debugfs, EPERM), the same block
   * events read from the kernel's tracepoints through a tracefs instance (ftrace-capture.ts); or
   * none, a real run that was not traced (`missing` says why).
   */
  source: StageSource
  processes: ProcessStages[]
  /** What could not be measured and why (e.g. a real run without blktrace). */
  missing?: string[]
  /**
   * The machinery's own events over the run (simulated runs; only those that happened): blk-mq's
   * delayed runs, each from the decline that armed it to its firing (at the device or the disk
   * under it); a loop device's flushes, each the time it held the worker.
   */
  events?: Partial<Record<'delayedRun' | 'flush', { count: number; ns: number }>>
}

/**
 * Where a process's time went, seconds, over the same span as its result's `seconds`. The parts
 * add up to that span (within rounding).
 */
export const TIME_PARTS = [
  'cpu',
  'runnable',
  'read',
  'write',
  'throttled',
  'sync',
  'fault',
  'think',
  'other',
] as const
export type TimePart = (typeof TIME_PARTS)[number]
export type ProcessTime = Record<TimePart, number>

export const TIME_PART_MEANING: Record<TimePart, string> = {
  cpu: 'running on a CPU',
  runnable: 'runnable, waiting for a CPU',
  read: 'blocked on its reads',
  write: 'blocked on its writes (direct writes, request slots for writes)',
  throttled: 'dirty throttling (balance_dirty_pages)',
  sync: 'fsync, journal commit, flushes',
  fault: 'page faults and swap-in',
  think: 'sleeping or thinking between operations',
  other: 'waiting on children or anything else',
}

/** A zero time account. */
export const emptyProcessTime = (): ProcessTime =>
  Object.fromEntries(TIME_PARTS.map((p) => [p, 0])) as ProcessTime
