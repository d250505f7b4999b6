import type { SimFile } from '../host/files'
import type { Rng } from '../sim/rng'
import type { Program } from '../host/program'
import type { ParamSpec, ParamValues } from '../util/params'

/** A file a workload needs; created with this size unless the spec's `files` defines it. */
export interface FileNeed {
  name: string
  size: number
}

/** What a workload gets when its processes are built. */
export interface WorkloadEnv {
  /** The process name from the spec (instances of a multi-process workload add `/i`). */
  readonly name: string
  file(name: string): SimFile
  /**
   * The block device's page cache over its first `bytes`: buffered I/O on /dev (fio with
   * filename=/dev and direct=0) goes through it; one per device, shared by every process.
   */
  bufferedDevice(bytes: number): SimFile
  /** Bytes on the whole device. */
  readonly deviceBytes: number
  /** A random stream for setting up (derived from the run's seed and the label). */
  rng(label: string): Rng
}

export interface ProcessInstance {
  /** Appended to the spec's process name when a workload runs several (`/0`, `/1` …). */
  suffix: string
  program: Program
}

/**
 * One registry entry per workload, in its own file: parameters as data, the files it needs, and
 * a factory for its processes. `openEnded` says whether it runs until the experiment stops.
 */
export interface WorkloadType {
  readonly name: string
  readonly summary: string
  readonly params: readonly ParamSpec[]
  files(p: ParamValues, processName: string): FileNeed[]
  openEnded(p: ParamValues): boolean
  create(p: ParamValues, env: WorkloadEnv): ProcessInstance[]
  /** Cross-parameter checks (returns problems as [param, message]); `capacitySectors` of the device. */
  check?(p: ParamValues, device: { capacitySectors: number }): [string, string][]
  /** Measurements that came with the workload (a trace's D→C times, ns) to compare with the run. */
  measuredServiceNs?(p: ParamValues): number[]
  /** Processes it starts at once (default 1), for the work estimate (experiment/work-estimate.ts). */
  instances?(p: ParamValues): number
  /**
   * The most I/O calls all its processes make, when that is known before it runs — for the work
   * estimate. Left out when it cannot say (the estimate then goes by the run's time limit).
   */
  plannedOps?(p: ParamValues): number
  /** The smallest I/O it issues, bytes (its block size), for the work estimate; default 4096. */
  ioBytes?(p: ParamValues): number
}

/** Round a byte count down to whole blocks of `bs`. */
export const blocksIn = (bytes: number, bs: number): number => Math.floor(bytes / bs)
