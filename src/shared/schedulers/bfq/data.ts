import { Timer } from '../../sim/engine'
import type { Handler } from '../../sim/engine'
import { MS, ms } from '../../sim/time'
import type { SimTime } from '../../sim/time'
import type { ParamValues } from '../../util/params'
import type { Request } from '../../block/types'
import { Idle } from '../scheduler'
import type { SchedulerContext } from '../scheduler'
import { FinishTree } from './finish-tree'
import type { BfqQueue } from './queue'
import { K } from './tunables'

/** Why the in-service queue stops being served (enum bfqq_expiration). */
export const TOO_IDLE = 0
export const BUDGET_TIMEOUT = 1
export const BUDGET_EXHAUSTED = 2
export const NO_MORE_REQUESTS = 3
export const PREEMPTED = 4
export type Reason = 0 | 1 | 2 | 3 | 4
export const REASON_NAMES = [
  'too_idle',
  'budget_timeout',
  'budget_exhausted',
  'no_more_requests',
  'preempted',
]

/** One B-WF2Q+ scheduler per I/O priority class: active and idle trees, virtual time, weight sum. */
export class ServiceTree {
  readonly active = new FinishTree()
  /** Emptied queues whose finish is still ahead of vtime: they keep their timestamps. */
  readonly idle = new FinishTree()
  vtime = 0
  wsum = 0
}

/**
 * struct bfq_data: everything BFQ knows about one device. The other files of this folder are
 * functions over it, as the kernel's are over `bfqd`.
 */
export class BfqData {
  // --- tunables, converted to ns and sectors ---
  /** Indexed by sync (0 = async, 1 = sync), as bfq_fifo_expire[]. */
  readonly fifoExpire: [SimTime, SimTime]
  readonly backMax: number
  readonly backPenalty: number
  readonly sliceIdle: SimTime
  readonly timeout: SimTime
  readonly userMaxBudget: number
  readonly strictGuarantees: boolean
  readonly lowLatency: boolean
  readonly rotational: boolean

  // --- scheduling state ---
  readonly trees = [new ServiceTree(), new ServiceTree(), new ServiceTree()]
  inService: BfqQueue | null = null
  busyQueues = 0
  readonly busyPerClass = [0, 0, 0]
  wrBusyQueues = 0
  /** Requests held by the scheduler. */
  queued = 0
  /** Requests dispatched and not yet completed (rq_in_driver). */
  rqInDriver = 0
  idleClassLastService: SimTime = 0

  // --- budgets ---
  /** bfq_max_budget: the device's max budget (auto: peak rate × timeout). */
  maxBudget: number = K.defaultMaxBudget
  budgetsAssigned = 0
  lastBudgetStart: SimTime = 0
  lastIdlingStart: SimTime = 0
  /** Out-parameter of isSlow (delta_ms), kept here to avoid an allocation. */
  slowDeltaMs = 0

  // --- peak-rate estimation, sectors per second ---
  peakRate: number
  readonly rateDurProd: number
  peakRateSamples = 0
  sequentialSamples = 0
  totSectorsDispatched = 0
  lastRqMaxSize = 0
  firstDispatch: SimTime = 0
  lastDispatch: SimTime = 0
  lastCompletion: SimTime = 0
  deltaFromFirst: SimTime = 0
  lastPosition = 0

  // --- command-queueing detection: -1 unknown (treated as queueing), 0 no, 1 yes ---
  hwTag = -1
  maxRqInDriver = 0
  hwTagSamples = 0

  // --- weights of busy non-raised queues (bfq_weights_tree), indexed by weight / 10 ---
  readonly weightCounts = new Int32Array(9)
  distinctWeights = 0

  // --- large-burst detection ---
  readonly burstList: BfqQueue[] = []
  burstSize = 0
  largeBurst = false
  lastInsInBurst: SimTime = -Infinity

  // --- device idling ---
  readonly idleTimer: Timer
  readonly idle = new Idle()

  // --- queues in the active trees, most recently inserted first (bfqd->active_list) ---
  activeHead: BfqQueue | null = null

  // --- injection: measuring the total service time of the in-service queue's first requests ---
  /** When the sampled first request arrived (last_empty_occupied_ns). */
  lastEmptyOccupied: SimTime = 0
  /** The next request dispatched from the in-service queue is the one to time (wait_dispatch). */
  waitDispatch = false
  /** The request being timed (waited_rq). */
  waitedRq: Request | null = null
  /** Requests of other queues were injected while it was being timed (rqs_injected). */
  rqsInjected = false

  // --- waker detection ---
  /** The queue whose request completed last (last_completed_rq_bfqq). */
  lastCompletedQueue: BfqQueue | null = null

  constructor(
    t: ParamValues,
    readonly ctx: SchedulerContext,
    timerHandler: Handler,
  ) {
    this.fifoExpire = [ms(t.fifo_expire_async as number), ms(t.fifo_expire_sync as number)]
    this.backMax = (t.back_seek_max as number) * 2
    this.backPenalty = t.back_seek_penalty as number
    this.strictGuarantees = t.strict_guarantees as boolean
    const idle = ms(t.slice_idle as number)
    // Turning strict_guarantees on raises slice_idle to at least 8 ms (bfq_strict_guarantees_store).
    this.sliceIdle = this.strictGuarantees ? Math.max(idle, 8 * MS) : idle
    this.timeout = ms(t.timeout_sync as number)
    this.userMaxBudget = t.max_budget as number
    this.lowLatency = t.low_latency as boolean
    this.rotational = ctx.deviceInfo.rotational
    // Begin by assuming the device runs at 2/3 of the reference rate of its kind (bfq_init_queue).
    const kind = this.rotational ? 0 : 1
    this.peakRate = (K.refRate[kind] * 2) / 3
    this.rateDurProd = K.refRate[kind] * K.refWrDuration[kind]
    if (this.userMaxBudget > 0) this.maxBudget = this.userMaxBudget
    this.idleTimer = new Timer(ctx.engine, timerHandler, 0)
  }
}
