import { RequestFifo } from '../../block/fifo'
import { SectorIndex } from '../../block/sector-index'
import type { Request } from '../../block/types'
import type { SimTime } from '../../sim/time'
import { K, ioprioToWeight } from './tunables'

/** Which tree of its class a queue's entity sits in. */
export const IN_NO_TREE = 0
export const IN_ACTIVE = 1
export const IN_IDLE = 2

/**
 * bfq_io_cq: a process's view of the scheduler — its own sync queue, the shared async queue it
 * last used, and how many of its requests are allocated (queued or in the device), the kernel's
 * `bic->requests`, which tells whether a new request is the only one the process has.
 */
export interface Bic {
  sync: BfqQueue | null
  async: BfqQueue | null
  requests: number
}

/** I/O priority classes as BFQ uses them (IOPRIO_CLASS_NONE is mapped to BE before this). */
export const CLASS_RT = 1
export const CLASS_BE = 2
export const CLASS_IDLE = 3

/**
 * A bfq_queue: the requests of one process's sync I/O, or the async I/O of one (class, level), with
 * its B-WF2Q+ entity folded in (start/finish/budget/service/weight) and the node fields of the
 * finish-ordered tree it sits in. Each request sits in two indexes on purpose: the sector index
 * (to pick the next request near the head) and the FIFO (to serve one that waited too long).
 */
export class BfqQueue {
  // --- identity ---
  ioClass: number
  level: number
  /** A new class/level asked by the process; applied when the entity is next (re)queued. */
  newClass: number
  newLevel: number
  /** No process refers to it any more (bfqq_process_refs == 0): never idle for it. */
  exited = false

  // --- requests ---
  readonly sorted = new SectorIndex()
  readonly fifo = new RequestFifo()
  nextRq: Request | null = null
  /** Requests of this queue dispatched and not yet completed. */
  dispatched = 0

  // --- B-WF2Q+ entity ---
  start = 0
  finish = 0
  /** Smallest start in this node's subtree (the augmentation of the active tree). */
  minStart = 0
  left: BfqQueue | null = null
  right: BfqQueue | null = null
  prio = 0
  seq = 0
  tree = IN_NO_TREE
  /** On a service tree (active or idle) or in service: its weight counts in the tree's wsum. */
  onSt = false
  origWeight: number
  weight: number
  budget = 0
  service = 0
  maxBudget: number

  // --- state flags (BFQQF_*) ---
  busy = false
  waitRequest = false
  nonBlockingWaitRq = false
  fifoExpire = false
  hasShortTtime: boolean
  ioBound = true
  justCreated: boolean
  softrtUpdate = false
  inLargeBurst = false
  inBurstList = false

  // --- history ---
  /** Overloaded as in the kernel: when the queue last became empty with nothing in flight. */
  budgetTimeout = -Infinity
  seekHistory = 1
  lastRequestPos = 0
  ttimeSamples = 0
  ttimeTotal = 0
  ttimeMean = 0
  lastEndRequest: SimTime
  requestsWithinTimer = 0

  // --- weight raising ---
  wrCoeff = 1
  wrCurMaxTime = 0
  lastWrStartFinish: SimTime
  wrStartAtSwitchToSrt = -Infinity
  serviceFromWr = 0
  softRtNextStart: SimTime
  lastIdleBklogged = 0
  serviceFromBacklogged = 0

  // --- weight counter (bfq_weights_tree membership) ---
  weightCounted = false
  countedWeight = 0

  // --- the process owning this sync queue (null for the shared async queues) ---
  bic: Bic | null = null

  // --- active list (bfqd->active_list): queues in an active tree, most recently inserted first ---
  actPrev: BfqQueue | null = null
  actNext: BfqQueue | null = null
  inActiveList = false

  // --- I/O intensity (bfq_update_io_intensity): busy ≥ 80 % of a ≤ 200 ms window is I/O-bound ---
  ioStartTime: SimTime
  totIdleTime = 0

  // --- injection (bfq_update_inject_limit): requests of other queues allowed in flight while idling ---
  injectLimit = 0
  /** Baseline total service time of a first request with nothing injected, ns (0 = not sampled). */
  lastServTime = 0
  /** Last time the inject limit was decreased or reset (decrease_time_jif). */
  decreaseTime: SimTime

  // --- waker detection (bfq_check_waker) ---
  wakerQueue: BfqQueue | null = null
  tentativeWaker: BfqQueue | null = null
  wakerDetections = 0
  wakerDetectionStarted: SimTime = 0
  /** Queues that have this one as their waker, most recent first (woken_list). */
  readonly woken: BfqQueue[] = []

  constructor(
    readonly pid: number,
    readonly sync: boolean,
    ioClass: number,
    level: number,
    maxBudget: number,
    now: SimTime,
  ) {
    this.ioClass = this.newClass = ioClass
    this.level = this.newLevel = level
    this.origWeight = this.weight = ioprioToWeight(level)
    this.maxBudget = maxBudget
    this.hasShortTtime = sync && ioClass !== CLASS_IDLE
    this.justCreated = sync
    this.lastEndRequest = now + 1
    this.lastWrStartFinish = now
    this.softRtNextStart = now
    this.ioStartTime = now
    this.decreaseTime = now
  }

  get queued(): number {
    return this.sorted.size
  }

  budgetLeft(): number {
    return this.budget - this.service
  }

  /** BFQQ_SEEKY: more than 19 of the last 32 requests were seeky. */
  seeky(): boolean {
    return popcount32(this.seekHistory) > K.seekyCount
  }

  /** BFQQ_TOTALLY_SEEKY: all of the last 32 were. */
  totallySeeky(): boolean {
    return this.seekHistory === -1
  }

  isIdleClass(): boolean {
    return this.ioClass === CLASS_IDLE
  }
}

function popcount32(x: number): number {
  x = x - ((x >>> 1) & 0x55555555)
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333)
  x = (x + (x >>> 4)) & 0x0f0f0f0f
  return Math.imul(x, 0x01010101) >>> 24
}
