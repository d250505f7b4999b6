import type { Request } from '../block/types'
import type { SimTime } from '../sim/time'

/**
 * The parts of a virtual device's service (Device.parts), in the order they pass: the device's
 * own path on the host (its thread's CPU, and waiting for the thread and a CPU), the queue of the
 * device under it (its scheduler and its driver's ring: backing-stack.ts), waiting for a lane of
 * its direction, the service time drawn from its measured distribution — or, in contention mode,
 * that time and what the requests already in flight add, the host's stalls, and with a host that
 * signals per pass, the way there and back, waiting for the host's thread, the thread's work for
 * it and waiting for the rest of its pass — and its data beyond the first 4 KiB on the device's
 * one link (waiting for the link, the transfer), and the guest's completion of each request of a
 * pass in turn. A request that was merged in the device under it shares the merged request's
 * parts from there on.
 */
export const VIRTUAL_PARTS = [
  'host path',
  'backing queue',
  'waiting for a lane',
  'service',
  'contention',
  'host stall',
  'signalling',
  'waiting for the host thread',
  'host thread',
  'waiting for the link',
  'link transfer',
  'waiting for the pass',
  'guest completion',
] as const
export const V_PATH = 0
export const V_BACKING = 1
export const V_LANE_WAIT = 2
export const V_SERVICE = 3
export const V_CONTENTION = 4
export const V_STALL = 5
export const V_SIGNAL = 6
export const V_THREAD_WAIT = 7
export const V_THREAD = 8
export const V_LINK_WAIT = 9
export const V_LINK = 10
export const V_PASS = 11
export const V_COMPLETE = 12

/** Where a virtual device marks the parts of a request's service (device-parts.ts). */
export interface PartMarks {
  /** The run keeps the parts (CompletionSink.wantsParts): mark them. */
  readonly wantsParts: boolean
  /** `rq`'s service up to `t` went to `part`. */
  mark(rq: Request, part: number, t: SimTime): void
}
