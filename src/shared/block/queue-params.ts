// What a block queue is built with and what it calls back: its parameters, the waiter a bio that
// found no free request slot resumes, and the context a queue run's CPU work belongs to.
import type { SimTime } from '../sim/time'
import type { SchedulerLayer } from '../schedulers/scheduler'

/** Told when a bio that had to wait for a free request slot has been queued. */
export interface SlotWaiter {
  slotGranted(now: SimTime): void
}

/** Whose CPU work a queue run is (host/cpu.ts CpuScheduler): captured at a kick, entered at the run. */
export interface RunContext {
  capture(): unknown
  within(ctx: unknown, run: () => void): void
}

export interface BlockParams {
  /** Request slots: per direction on the legacy layer, shared (scheduler tags) on blk-mq. */
  nrRequests: number
  layer: SchedulerLayer
  /** Kernel tick rate, passed to schedulers that count in jiffies. */
  hz: number
  /** CPU time the scheduler's work costs per request, charged to the submitter, ns (default 0). */
  cpuPerRequest?: number
  /** The scheduler's name, for a device whose path measures each scheduler's work of its own. */
  scheduler?: string
  /**
   * blk-mq without an elevator ("none"): a request is a driver tag, so the slots are the device's
   * queue depth, whatever `nrRequests` says (an elevator has its own sched_tags: nr_requests).
   */
  driverTags?: boolean
  /**
   * Buffered-writeback throttling's latency target (wbt_lat_usec), ns: 0 off, −1 the kernel's
   * default for the device (blk-mq only; an elevator may turn it off: wbt.ts). Default 0.
   */
  wbtLatNs?: number
}
