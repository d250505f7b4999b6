// Real devices in the app: what LabApi answers about block devices, root and prerequisites, real
// runs through fio (beside simulated ones), `doctor`, fingerprinting, and the journals repaired at
// start. The same facts the CLI prints (`devices`, `doctor`, `run --real`, `fingerprint`), as data.
import type { ParamIssue, ParamValues } from '../util/params'
import type { ValidateReport } from '../validate/report'
import type { RunStarted } from './contract'
import type { RunStatusReport } from './run-status'

/** A whole block device: what it is, its schedulers, and every reason it is in use. */
export interface RealDevice {
  name: string
  path: string
  /** lsblk TYPE: disk, loop, rom … */
  type: string
  majMin: string
  sizeBytes: number
  model: string | null
  serial: string | null
  transport: string | null
  rotational: boolean
  readOnly: boolean
  /** Schedulers the kernel offers (empty: no I/O scheduler, e.g. zram). */
  schedulers: string[]
  activeScheduler: string | null
  loopBackingFile: string | null
  partitions: string[]
  mounts: string[]
  /** Why writing to it would destroy something (empty = free). */
  inUse: string[]
  /** Holds /, /boot, /usr, /var or swap. */
  systemDisk: boolean
}

export interface DevicesReport {
  /** This lab process runs as root. */
  root: boolean
  devices: RealDevice[]
}

/** One thing real runs need (root, fio, util-linux …), and whether it is there. */
export interface RealCheck {
  what: string
  ok: boolean
  detail: string
}

/** How this lab reaches root for real runs, and what is missing. */
export interface RealAccess {
  root: boolean
  /**
   * `root`: this process is root. `helper`: the desktop app starts a privileged helper with
   * pkexec at the first real-device call, once per session. `none`: restart the lab with sudo.
   */
  via: 'root' | 'helper' | 'none'
  helperRunning: boolean
  /** What real tests need and how to get root here, in one or two sentences. */
  message: string
  checks: RealCheck[]
  /** What stops a real run now (empty = ready; with `helper`, root is asked for at the first call). */
  problems: string[]
  /** Where scratch loop devices' backing files go. */
  scratchDir: string
}

/** A device to measure: a scratch loop device of the lab's own, or a whole device confirmed by name. */
export type RealDeviceTargetInput =
  { kind: 'scratch'; sizeMiB?: number } | { kind: 'device'; name: string; confirm?: string }

/**
 * Where a real run goes: a device, or a test file of the lab's own in a directory (an absolute
 * path; the scheduler of the disk under its file system is switched, the file removed afterwards).
 */
export type RealTargetInput = RealDeviceTargetInput | { kind: 'dir'; dir: string }

export type RealEngineName = 'fio' | 'dd' | 'bonnie++'

export interface RealRunInput {
  /** The spec document (as edited). */
  spec: unknown
  target: RealTargetInput
  /** Extra fio options, e.g. `--status-interval=1` (those that would move the I/O are refused). */
  fioArgs?: string[]
  /** Time limit of each run, s (default: the spec's stop.maxSeconds). */
  maxSeconds?: number
  /** Seconds left out of fio's statistics at the start. */
  rampSeconds?: number
  engine?: RealEngineName
  /** Simulate the same spec too, so both appear in one comparison (default true). */
  alsoSimulate?: boolean
  /** Drop the page cache before each run (default true). */
  dropCaches?: boolean
  /**
   * Trace each run with blktrace, when the machine has it, for per-process request stages (Q2G …
   * D2C), dispatches and per-process throughput (default true).
   */
  trace?: boolean
  /** Simulate it beside the real run even beyond the work limits (experiment/work-limits.ts). */
  allowLarge?: boolean
}

/** What a real run would do, before it runs: the job file and exact command, and any refusal. */
export interface RealPreview {
  /** Nothing stops it (the spec, the options and the target are acceptable). */
  ok: boolean
  /** Problems of the spec, by path. */
  issues: ParamIssue[]
  /** Problems of the options and the target (refusal reasons). */
  problems: string[]
  jobFile: string
  /** The command, shell-quoted (`/dev/loopN` stands for a scratch device not created yet). */
  command: string
  notes: string[]
  /** Entries the kernel lacks (e.g. cfq, anticipatory), with why. */
  skipped: { label: string; reason: string }[]
  /** Entries that run for real but that the simulator does not model. */
  kernelOnly: string[]
  target: { description: string; warnings: string[] }
}

export type RealRunStart = RunStarted | { issues: ParamIssue[] } | { problems: string[] }

export interface DoctorReport {
  root: boolean
  stateDir: string
  healthy: boolean
  checks: RealCheck[]
  /** What doctor changed (restored, stopped, detached, deleted); empty: nothing to repair. */
  actions: string[]
  /** What it looked at and left as it was: a running lab's journal, a device already restored or gone. */
  notes: string[]
  problems: string[]
}

export interface FingerprintInput {
  target: RealDeviceTargetInput
  /** Seconds per sweep point (default 3). */
  seconds?: number
  /** The preset's name (default fingerprint-DEV-DATE). */
  name?: string
}

/** A point of the fingerprint sweep: measured, as the fitted model simulates it, and the CDF distance. */
export interface FingerprintPoint {
  name: string
  measured: { iops: number; MBps: number; p50Ms: number; p99Ms: number }
  simulated: { iops: number; MBps: number; p50Ms: number; p99Ms: number } | null
  /** RMS horizontal distance between the two latency CDFs: ms, and relative to the measured mean. */
  fit: { ms: number; relative: number } | null
}

/** A finished fingerprint: the saved preset (now in the catalogue) and how well it fits. */
export interface FingerprintOutcome {
  name: string
  path: string
  model: 'flash' | 'hdd' | 'virtual'
  basePreset: string
  description: string
  target: string
  values: ParamValues
  sources: Record<string, string>
  points: FingerprintPoint[]
  /** Paste into a spec to simulate this device. */
  specDevice: { preset: string; overrides: ParamValues }
}

/**
 * Validating the simulation against the kernel on a device (`iosched-lab validate`): a fixed
 * matrix of workloads × the kernel's schedulers, run for real and simulated on the device's
 * fitted preset, judged. Writes to the target, like a fingerprint.
 */
export interface ValidationInput {
  target: RealDeviceTargetInput
  /** The quick matrix, shorter runs, fewer repetitions (a first look, CI). */
  quick?: boolean
  /** A fingerprinted user preset to reuse (one of fingerprintPresets); default: fingerprint the target first. */
  presetName?: string
  /** Seconds per run (default 4; quick 2). */
  seconds?: number
  /** Only these workloads of the matrix, by id (default: the quick or the whole matrix). */
  only?: string[]
}

/** A user preset that holds its fingerprint (the measured sweep): one a validation can reuse. */
export interface FingerprintPreset {
  name: string
  model: 'flash' | 'hdd' | 'virtual'
  /** Its file in the user's preset folder. */
  path: string
  /** The device it was measured on. */
  target: string
  description: string
  /** The largest |simulated ÷ measured − 1| of a rate or a median over its sweep; null when not recorded. */
  worstResidual: number | null
}

export interface FingerprintPresets {
  presets: FingerprintPreset[]
  /** Files of the preset folder that could not be read, with why. */
  problems: string[]
}

export type { ValidateReport }

/** What the lab did at start with the journals of lab processes that crashed. */
export interface StartupRepair {
  root: boolean
  /** Repairs made (scheduler restored, loop device detached …). */
  actions: string[]
  problems: string[]
  /** Journals left to repair: they need root (Devices → Doctor). */
  pending: string[]
}

/** The real-device part of LabApi (contract.ts extends it). */
export interface RealLabApi {
  /** Root, fio, util-linux: what real runs need, and how this lab gets root. */
  realAccess(): Promise<RealAccess>
  /** Block devices with their schedulers and in-use reasons (no root needed). */
  devices(): Promise<DevicesReport>
  /** The job file and exact command of a real run, and whether it would be refused (no root needed). */
  previewRealRun(input: RealRunInput): Promise<RealPreview>
  /** Run the spec for real (and simulated, unless told not to); run events report on it, cancelRun stops it. */
  startRealRun(input: RealRunInput): Promise<RealRunStart>
  /** Check prerequisites and repair what crashed runs left (root: through the helper in the app). */
  doctor(): Promise<DoctorReport>
  /** Measure a device, fit a model, save it as a user preset; fingerprint events report on it. */
  startFingerprint(input: FingerprintInput): Promise<{ runId: string } | { problems: string[] }>
  /** The user's presets that hold a fingerprint: those a validation can reuse. */
  fingerprintPresets(): Promise<FingerprintPresets>
  /** Validate the simulation against the kernel on a device; validate events report on it, cancelRun stops it. */
  startValidation(input: ValidationInput): Promise<{ runId: string } | { problems: string[] }>
  /** What was repaired when the lab started. */
  startupRepairs(): Promise<StartupRepair>
  /**
   * The state of a run (simulated, real, fingerprint, validation or gallery reproduction) for a
   * client that lost its events.
   */
  runStatus(input: { runId: string }): Promise<RunStatusReport>
}

/** RealLabApi's methods as data (methods.ts merges them into the one list). */
export const REAL_METHODS = {
  realAccess: true,
  devices: true,
  previewRealRun: true,
  startRealRun: true,
  doctor: true,
  startFingerprint: true,
  fingerprintPresets: true,
  startValidation: true,
  startupRepairs: true,
  runStatus: true,
} as const satisfies Record<keyof RealLabApi, true>
