import type { Engine } from '../sim/engine'
import type { SimTime } from '../sim/time'
import type { Rng } from '../sim/rng'
import type { Bio, DeviceInfo, Op, Request } from '../block/types'
import type { ParamSpec, ParamValues } from '../util/params'

/**
 * "Leave the device idle until `until`": what a scheduler returns from `dispatch` when it
 * deliberately waits (anticipation, slice idling). The block layer re-runs dispatch at that time,
 * or earlier when a request arrives or completes. Schedulers keep one instance and reuse it.
 */
export class Idle {
  until: SimTime = 0
}

/**
 * The scheduler ops table, after the kernel's `struct elevator_mq_ops`. `now` is always passed
 * in; there is no global clock.
 */
export interface IoScheduler {
  /** insert_requests: a new request enters the scheduler. */
  insert(rq: Request, now: SimTime): void
  /** dispatch_request: the next request for the device, an Idle, or undefined (nothing to do). */
  dispatch(now: SimTime): Request | Idle | undefined
  /** has_work: true exactly when requests are queued in the scheduler. */
  hasWork(): boolean
  /** completed_request: the device finished `rq`. */
  completed(rq: Request, now: SimTime): void
  /** A bio was merged into `rq`; on a front merge its start moved down from `oldSector`. */
  merged?(rq: Request, front: boolean, now: SimTime, oldSector: number): void
  /** `next` was merged into `rq` and leaves the scheduler; `rq` keeps the earlier FIFO time. */
  mergedRequests?(rq: Request, next: Request, now: SimTime): void
  /** allow_merge: may `bio` join `rq`? (CFQ: same process queue, no sync bio into async.) */
  allowMerge?(rq: Request, bio: Bio): boolean
  /** Whether a bio may be front-merged at all (deadline's `front_merges`). */
  readonly frontMerges: boolean
  /**
   * Whether two queued requests that come to touch may be joined into one (default true). Kyber
   * merges bios into its queued requests but never joins two requests.
   */
  readonly requestMerges?: boolean
  /**
   * limit_depth: the most request slots (of nr_requests) a request of this kind may hold, or
   * undefined for no limit — kyber and BFQ keep async writes from taking every tag.
   */
  limitDepth?(op: Op, sync: boolean): number | undefined
  /** Process exited: drop per-process state, stop anticipating it. */
  contextExited?(pid: number, now: SimTime): void
  /**
   * Whether a request's completion runs the queue again (default true). The legacy drivers' request
   * functions did, and blk-mq schedulers whose completion hook schedules a dispatch (kyber's token
   * wake-up, BFQ's bfq_schedule_dispatch) do; mq-deadline's (dd_finish_request) only counts, so
   * under it blk-mq runs the queue at a completion only after a restart mark (block/mq-runs.ts).
   */
  readonly completionRuns?: boolean
  /**
   * A dispatch that hands out nothing while requests are queued holds them behind a higher I/O
   * priority class (mq-deadline: dd_dispatch_request stops at the first level with requests
   * pending, in flight or not) — the why counts that time (block/waits.ts W_CLASS).
   */
  readonly holdsByClass?: boolean
  /**
   * With `holdsByClass`: whether a dispatch now would hand out nothing though requests are queued
   * (a higher class still has requests pending). For the why only: it changes nothing.
   */
  blocked?(): boolean
}

/** What a scheduler may use from its surroundings. */
export interface SchedulerContext {
  readonly engine: Engine
  readonly deviceInfo: DeviceInfo
  /** Kernel tick rate, for schedulers that count in jiffies. */
  readonly hz: number
  /** The queue's nr_requests (request slots or scheduler tags), for depth limits. */
  readonly nrRequests: number
  readonly rng: Rng
  /** Requests the device holds right now, per direction [reads, writes]. */
  inFlight(op?: 0 | 1): number
  /** Ask the block layer to call `dispatch` again (after a scheduler timer fired). */
  kick(): void
}

export type SchedulerLayer = 'legacy' | 'mq'

/** One registry entry: registration is data, as the kernel's `elevator_type`. */
export interface SchedulerType {
  readonly name: string
  /** Names the kernel uses for it in sysfs or boot options (`none`, `as`, …). */
  readonly aliases: readonly string[]
  /** Kernel versions where it existed, e.g. "2.6.0–2.6.32". */
  readonly era: string
  /** Legacy single-queue block layer (per-direction request pools) or blk-mq (shared tags). */
  readonly layer: SchedulerLayer
  /** blk-mq without an elevator: requests are the driver's tags (BlockParams.driverTags). */
  readonly driverTags?: boolean
  /** The elevator turns writeback throttling off while it runs (ELEVATOR_FLAG_DISABLE_WBT). */
  readonly disablesWbt?: boolean
  readonly summary: string
  /** When it wins and when it loses. */
  readonly explanation: string
  readonly tunables: readonly ParamSpec[]
  /** The kernel's fixed numbers the model uses (not tunable), each with its source. */
  readonly constants?: readonly ParamSpec[]
  /**
   * CPU time of the scheduler's own per-request work (cpu-cost.ts), charged to the submitting
   * process; absent = none measured (0).
   */
  readonly cpuCost?: ParamSpec
  /** Uses I/O priority classes and levels. */
  readonly usesIoPriority: boolean
  create(tunables: ParamValues, ctx: SchedulerContext): IoScheduler
}
