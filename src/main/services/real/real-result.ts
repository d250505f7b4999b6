import type { ExperimentResult } from '../../../shared/experiment/compare'
import type { RunResult } from '../../../shared/experiment/result'
import type { VmstatSeries } from './disk-sampler'
import type { FioDiskUtil } from '../../../shared/formats/fio-json'
import type { RealSystemInfo } from '../../../shared/experiment/real-system'
import type { FileTargetFacts } from './target'

/** The device a real run used (for a test file: `path` is the file, `name` the switched device). */
export interface RealTargetInfo {
  kind: 'scratch-loop' | 'device' | 'file'
  name: string
  path: string
  sizeBytes: number
  rotational: boolean
  model: string | null
  description: string
  /** A test file's directory, file system and block device. */
  file?: FileTargetFacts
}

/** What only a real run has: how it was made, and what the kernel said. */
export interface RealRunInfo {
  engine: 'fio' | 'dd' | 'bonnie++'
  engineVersion: string
  target: RealTargetInfo
  /** The kernel scheduler selected (`none` for the lab's noop, `mq-deadline` for deadline …). */
  kernelScheduler: string
  /** queue/scheduler as read back from sysfs while the engine ran (the proof it was switched). */
  observedScheduler: string | null
  /** Files written under queue/iosched/ and their values. */
  tunablesWritten: Record<string, string>
  /** The exact command (argv) and, for fio, the job file. */
  command: string[]
  jobFile: string
  notes: string[]
  /** The run's time limit, s: the spec's stop.maxSeconds, or the run's override (`--max-seconds`). */
  maxSeconds: number
  /** System-wide `vmstat 1` view during the run. */
  vmstat: VmstatSeries
  /**
   * Where the workload began in the time series (ms after sampling started; the engine needs a
   * moment to set up), estimated from fio's report timestamp; null when unknown.
   */
  ioStartMs: number | null
  diskUtil?: FioDiskUtil[]
  /**
   * The machine and device as the kernel described them while the run's scheduler was set
   * (system-info.ts); absent in documents from before it was recorded.
   */
  system?: RealSystemInfo
}

/** A RunResult measured on a real device: the shared shape plus `real`. */
export interface RealRunResult extends RunResult {
  source: 'real'
  real: RealRunInfo
}

/** An experiment run for real (possibly beside its simulation): ExperimentResult plus the real run's facts. */
export interface RealExperimentResult extends ExperimentResult {
  runs: RealRunResult[]
  real: {
    target: RealTargetInfo
    engine: RealRunInfo['engine']
    engineVersion: string
    /** Job file and command of the first run (the others differ only in the random seed). */
    jobFile: string
    command: string[]
    notes: string[]
    /** Scheduler entries left out, and why (e.g. anticipatory on a blk-mq kernel). */
    skipped: { label: string; reason: string }[]
  }
}
