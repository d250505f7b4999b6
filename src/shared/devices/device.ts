import type { WaitObserver } from '../block/waits'
import type { Engine } from '../sim/engine'
import type { SimTime } from '../sim/time'
import type { Rng } from '../sim/rng'
import type { DeviceInfo, Request } from '../block/types'

/** The block layer's side of a device: told when a command completes. */
export interface CompletionSink {
  deviceCompleted(rq: Request, now: SimTime): void
  /**
   * The run keeps the parts of each request's service (its "why" is on): the block layer then
   * gives each request it starts a `Request.devParts` for the device to fill (device-parts.ts), and
   * its observer takes them at completion. Absent or false: requests come without, and a device splits nothing.
   */
  readonly wantsParts?: boolean
  /** Who keeps the waits of the kernel's machinery (block/waits.ts); null or absent: nobody. */
  readonly waits?: WaitObserver | null
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
  /**
   * The physical parts its service time splits into (HDD: seek, rotation, transfer …; flash:
   * waiting for a die, array time, transfer, garbage collection …), told per request in
   * `Request.devParts` (device-parts.ts), adding up to its service time (dispatch to completion,
   * time queued inside the device included). Absent: the device does not split its service time.
   */
  readonly parts?: readonly string[]
  /**
   * Add a completed request's parts (its `devParts`, as this device filled them) to `into`, indexed
   * as `parts`: for a device that fills them otherwise than by markPart (flash-parts.ts). Absent:
   * the parts marked (device-parts.ts addMarkedParts).
   */
  readonly takeParts?: (rq: Request, into: Float64Array) => void
  start(rq: Request, now: SimTime): void
  /**
   * Whether the driver can take `rq` now, asked before `start` by a device whose room is not a
   * count of commands — a virtio ring without indirect descriptors holds a request's segments
   * plus two descriptors each, so a few large requests fill it (drivers/block/virtio_blk.c
   * virtio_queue_rq returns BLK_STS_DEV_RESOURCE when virtqueue_add_sgs finds no room). Absent:
   * room is `queueDepth` commands.
   */
  accepts?(rq: Request): boolean
  /**
   * Flush a volatile write cache (FLUSH CACHE): call `done` once every acknowledged write is on
   * stable media. Absent: the device has no volatile cache, and a flush costs nothing.
   */
  flush?(done: () => void): void
  /**
   * The host's CPUs, given once the host exists, to a device whose own I/O path runs on them (a
   * loop device's worker thread, a virtio disk's kicks and interrupts).
   */
  attachCpu?(cpu: HostCpu): void
  /**
   * The I/O scheduler's CPU per request (its insert, dispatch and completion work), given once
   * the queue knows its scheduler, to a device whose own host path is serialized with that work.
   */
  schedulerWork?(ns: SimTime, scheduler: string): void
}

/** A thread as the host's CPU scheduler sees it (host/cpu-params.ts CpuTask adds to it). */
export interface HostThread {
  readonly pid: number
  /** CFS load weight from the nice value (nice 0 → 1024). */
  readonly weight: number
  /** Remaining CPU work of the current burst, ns. */
  cpuWork: number
  /** Total CPU time used, ns. */
  cpuTime: number
  vruntime: number
  /** Index of the CPU it runs on, or -1. */
  onCpu: number
  /** The CPU it last ran on (-1: none yet). */
  lastCpu: number
  /** `pack`: the one CPU it waits for while runnable (-1: any). */
  wantCpu: number
  /** `eevdf`: its lag when it last went to sleep (avg_vruntime − vruntime, ns of a nice-0 task). */
  vlag: number
  /** The burst finished: continue (request another burst, block, or exit). */
  cpuDone(now: SimTime): void
}

/** The host's CPU scheduler, as a device's threads use it (host/cpu.ts CpuScheduler). */
export interface HostCpu {
  run(t: HostThread, work: SimTime): void
  release(t: HostThread): void
  /**
   * Run `fn` as an interrupt handler on CPU `cpu` (-1: not known): what it wakes goes to that CPU,
   * and an idle CPU picks among what it woke when it returns.
   */
  interrupt?(fn: () => void, cpu: number): void
}

/** What a device model is built with. */
export interface DeviceContext {
  engine: Engine
  sink: CompletionSink
  rng: Rng
  /** The host kernel's tick rate (CONFIG_HZ), for a device with a scheduler of its own inside. */
  hz?: number
  /**
   * The host's largest page-cache folio, KiB (largeFolioKiB): a folio's memory is physically
   * contiguous, so a request of cached pages maps to runs that long (virtio ring descriptors).
   */
  folioKiB?: number
}
