import type { Request } from '../block/types'
import type { SimTime } from '../sim/time'

/**
 * A request's service split into its device's physical parts (Device.parts), by marks: each mark
 * ends a part at time `t` and adds the time since the mark before (`Request.devAt`, the dispatch
 * at first) to the part, in `Request.devParts` (setting its bit in `Request.devMask`). A device whose completion is computed in closed
 * form marks ahead of the clock, along the path that decides it; its last mark is the completion
 * itself, so the parts add up to the service time exactly. The run takes them when the request
 * completes — a request still in flight when a run ends counts in no part, as in no D2C.
 * Times are rounded as the engine's event times are; a mark at or before the one before adds
 * nothing (the part after it takes the difference). A request without `devParts` (the run keeps
 * no parts) is left alone.
 */
export function markPart(rq: Request, part: number, t: SimTime): void {
  const parts = rq.devParts
  if (parts === null) return
  const r = Math.round(t)
  const ns = r - rq.devAt
  if (ns <= 0) return
  rq.devAt = r
  const bit = 1 << part
  if ((rq.devMask & bit) === 0) {
    rq.devMask |= bit
    parts[part] = ns
  } else parts[part] += ns
}

/**
 * Add a completed request's marked parts (markPart: those whose bit is set in `Request.devMask`)
 * to `into`: how the run takes a device's parts unless the device takes them itself
 * (Device.takeParts).
 */
export function addMarkedParts(rq: Request, into: Float64Array): void {
  const parts = rq.devParts!
  let mask = rq.devMask
  while (mask !== 0) {
    const low = mask & -mask
    mask ^= low
    const i = 31 - Math.clz32(low)
    into[i] += parts[i]
  }
}
