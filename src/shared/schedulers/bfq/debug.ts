import type { BfqData } from './data'
import type { BfqQueue } from './queue'
import { IN_ACTIVE, IN_IDLE } from './queue'
import { maxBudget } from './budget'

/** One queue as tests and the UI see it. */
export interface BfqQueueState {
  pid: number
  sync: boolean
  ioClass: number
  level: number
  weight: number
  wrCoeff: number
  /** Budget of the current or next service slot, sectors. */
  budget: number
  /** The queue's max budget (what budget feedback adjusts), sectors. */
  maxBudget: number
  service: number
  start: number
  finish: number
  tree: 'active' | 'idle' | 'none'
  busy: boolean
  inService: boolean
  queued: number
  dispatched: number
  seeky: boolean
  /** Think time judged short (has_short_ttime). */
  shortThinkTime: boolean
  /** Busy most of the time (IO_bound, from bfq_update_io_intensity). */
  ioBound: boolean
  /** Requests of other queues allowed in flight while the device idles for this one. */
  injectLimit: number
  /** Baseline total service time of a first request, ns (0 = not sampled yet). */
  lastServTime: number
  /** The queue (by pid, sync) whose completions this one's arrivals follow, or null. */
  wakerPid: number | null
}

export interface BfqDebugState {
  inServicePid: number | null
  busyQueues: number
  wrBusyQueues: number
  /** Estimated peak rate, sectors per second. */
  peakRate: number
  /** The device's max budget now in force (bfq_max_budget(): the default until 194 budgets were assigned), sectors. */
  maxBudget: number
  /** The automatic max budget, peak rate × timeout_sync (or max_budget if set): caps budget growth, sectors. */
  autoMaxBudget: number
  vtime: [number, number, number]
  hwTag: number
  queues: BfqQueueState[]
}

/** A read-only snapshot of the scheduler, for tests and the UI. */
export function debugState(bfqd: BfqData, queues: BfqQueue[]): BfqDebugState {
  const q = bfqd.inService
  return {
    inServicePid: q === null ? null : q.pid,
    busyQueues: bfqd.busyQueues,
    wrBusyQueues: bfqd.wrBusyQueues,
    peakRate: bfqd.peakRate,
    maxBudget: maxBudget(bfqd),
    autoMaxBudget: bfqd.maxBudget,
    vtime: [bfqd.trees[0].vtime, bfqd.trees[1].vtime, bfqd.trees[2].vtime],
    hwTag: bfqd.hwTag,
    queues: queues.map((x) => queueState(bfqd, x)),
  }
}

function queueState(bfqd: BfqData, q: BfqQueue): BfqQueueState {
  return {
    pid: q.pid,
    sync: q.sync,
    ioClass: q.ioClass,
    level: q.level,
    weight: q.weight,
    wrCoeff: q.wrCoeff,
    budget: q.budget,
    maxBudget: q.maxBudget,
    service: q.service,
    start: q.start,
    finish: q.finish,
    tree: q.tree === IN_ACTIVE ? 'active' : q.tree === IN_IDLE ? 'idle' : 'none',
    busy: q.busy,
    inService: q === bfqd.inService,
    queued: q.queued,
    dispatched: q.dispatched,
    seeky: q.seeky(),
    shortThinkTime: q.hasShortTtime,
    ioBound: q.ioBound,
    injectLimit: q.injectLimit,
    lastServTime: q.lastServTime,
    wakerPid: q.wakerQueue === null ? null : q.wakerQueue.pid,
  }
}
