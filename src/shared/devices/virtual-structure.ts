import type { Request } from '../block/types'
import type { SimTime } from '../sim/time'
import type { HostStalls } from './host-stalls'
import type { VirtualLink } from './virtual-link'
import type { PartMarks } from './virtual-parts'

/**
 * The structure a virtual device (virtual.ts) serves its requests with, once they have been
 * through its host path and the backing queue: its lanes (virtual-lanes.ts) or the depth law
 * (virtual-depth-law.ts).
 */
export interface ServingStructure {
  /** A request reaches the structure. */
  take(rq: Request, now: SimTime): void
  /** Its service has ended (the stalls it owed paid): free what it held, and deliver it. */
  finished(rq: Request, now: SimTime): void
}

/** What a serving structure uses of its virtual device. */
export interface VirtualHost extends PartMarks {
  /** Run `fn` as the guest's interrupt handler (the host CPUs pick what it woke when it returns). */
  interrupt(fn: () => void): void
  /** The device's one link (virtual-link.ts). */
  readonly link: VirtualLink
  /** The host's pauses under load (host-stalls.ts; null: none). */
  readonly stalls: HostStalls | null
  /** A request starts its service with `workNs` of the host thread's serial work: the time a stall holds it back. */
  stalled(rq: Request, now: SimTime, workNs: number): number
  /** Its service ends at `t` (a stall that begins meanwhile moves it). */
  doneAt(rq: Request, t: SimTime): void
  /** The service is done with a request: hand it on. */
  deliver(rq: Request, now: SimTime): void
}
