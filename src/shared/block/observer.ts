import type { SimTime } from '../sim/time'
import type { Bio, Request } from './types'

/** Receives block-layer events for metrics. */
export interface BlockObserver {
  dispatched(rq: Request, now: SimTime): void
  /**
   * `rq` is done. With `BlockQueue.wantsParts`, `rq.devParts` holds its service split into the
   * device's physical parts (ns, indexed as `Device.parts`; those set in `rq.devMask`), or as the
   * device filled them for its `Device.takeParts`.
   */
  completed(rq: Request, now: SimTime): void
  /** Requests queued in the scheduler or in flight at the device changed. */
  levels(now: SimTime, queued: number, inFlight: number): void
  /**
   * The scheduler held back while the device had room: it kept queued requests back (`held`), or
   * kept the empty device idle on purpose (it answered Idle) — anticipation, slice idling, read
   * idling, token limits. Called again at each queue run while it lasts. With `idled`, an observer
   * has `drained` too.
   */
  idled?(now: SimTime, held: boolean): void
  /** The device is empty and the scheduler has nothing: a wait, if one was open, ended unrewarded. */
  drained?(now: SimTime): void
  /** A new request entered the scheduler. */
  inserted?(rq: Request, now: SimTime): void
  /**
   * `bio` joined a queued request; or, `absorbed`, the queued request `bio` heads was absorbed by
   * its neighbour (it leaves the scheduler).
   */
  merged?(bio: Bio, absorbed: boolean): void
}
