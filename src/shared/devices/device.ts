import type { Engine } from '../sim/engine'
import type { SimTime } from '../sim/time'
import type { Rng } from '../sim/rng'
import type { DeviceInfo, Request } from '../block/types'

/** The block layer's side of a device: told when a command completes. */
export interface CompletionSink {
  deviceCompleted(rq: Request, now: SimTime): void
}

/**
 * A storage device model. The block layer calls `start` only while `inFlight < info.queueDepth`;
 * the device schedules its own completion with the engine (it may reorder, as NCQ does, or serve
 * in parallel, as flash does) and calls `sink.deviceCompleted` exactly once per started request.
 */
export interface Device {
  readonly info: DeviceInfo
  readonly inFlight: number
  /** A disk's arm travel: cylinders crossed seeking between media accesses (from the first on). */
  readonly seekCylinders?: number
  start(rq: Request, now: SimTime): void
  /**
   * Flush a volatile write cache (FLUSH CACHE): call `done` once every acknowledged write is on
   * stable media. Absent: the device has no volatile cache, and a flush costs nothing.
   */
  flush?(done: () => void): void
}

/** What a device model is built with. */
export interface DeviceContext {
  engine: Engine
  sink: CompletionSink
  rng: Rng
}
