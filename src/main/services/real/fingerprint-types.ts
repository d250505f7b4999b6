// The fingerprint's shapes: how each sweep point came out, the preset document it saves, and
// the options of a fingerprint run (fingerprint.ts).
import type { ParamValues } from '../../../shared/util/params'
import type { SweepPoint } from './fingerprint-fit'
import type { FitPoint } from './fit-virtual'
import type { CostScheduler, SchedulerPoint } from './fit-scheduler-cost'
import type { HostCapture } from './host-capture'
import type { QueueFacts } from './queue-facts'
import type { RealExperimentRunner } from './real-experiment'
import type { RealTargetInfo } from './real-result'
import type { TargetRequest } from './target'
import type { DispatchTrace } from './dispatch-probe'
import type { FreshPageProbe } from './fresh-page-probe'

/** How one point came out: measured (mean of the passes), simulated, and how far apart. */
export interface PointResidual {
  /** Simulated ÷ measured − 1. */
  iops: number
  p50: number
  p99: number
  /** The passes' own spread: |a − b| ÷ mean of the rates and medians (at least 5 %). */
  noise: number
  /** Within its noise (rate and median; the median alone where `medianOnly`). */
  ok: boolean
  /**
   * The point is judged by its median alone: the buffered-write point's rate is the mean of 64
   * write() calls, which one stall in the kernel (an allocation, a lock) decides, while what the
   * point measures — the CPU of a write() — is its median.
   */
  medianOnly?: boolean
  /**
   * The point is judged by its rate alone: the writes each followed by fsync time the flush by
   * their rate, while their own latency differs from the plain QD1 writes' for a reason the model
   * has not (measured here: 92 µs at p50 after a flush, 120 without; 2026-12-06).
   */
  rateOnly?: boolean
}

/** A custom device preset file: the fitted model, how it was measured, and how well it fits. */
export interface PresetDocument {
  schema: 'iosched-lab/device-preset@1'
  name: string
  model: 'flash' | 'hdd' | 'virtual'
  /** A built-in preset of the same model the values override. */
  basePreset: string
  description: string
  values: ParamValues
  sources: Record<string, string>
  measured: {
    target: RealTargetInfo
    seconds: number
    passes: number
    /** The bytes the random points spread over (absent in presets of older versions: the default). */
    regionBytes?: number
    points: SweepPoint[]
    /** The points as the fit saw them (latency histograms, fio's CPU, the CPUs busy): to fit again. */
    fitPoints?: FitPoint[]
  }
  simulated: { points: SweepPoint[] }
  /** RMS horizontal distance between measured and simulated latency CDFs, per point. */
  fit: Record<string, { ms: number; relative: number }>
  /** Per point: the re-simulated sweep against the measured one, judged against its noise. */
  residuals?: Record<string, PointResidual>
  /** Points off by more than their noise, said in words (nothing saved when `refused`). */
  warnings?: string[]
  /**
   * The sweep's QD32 random reads again under each of the kernel's schedulers (virtual devices):
   * what fits the schedulers' CPU on this machine, measured and re-simulated.
   */
  schedulerPoints?: {
    scheduler: CostScheduler
    measured: SweepPoint & { fioCpuUs: number | null }
    simulated: SweepPoint & { fioCpuUs: number | null }
    /**
     * The point as the cost fit saw it — its histogram, fio's CPU, the paired differences against
     * none — so that a refit runs the cost fit again (absent in documents saved before
     * 2026-12-07: their cost fit is kept as it was).
     */
    fitted?: SchedulerPoint
  }[]
  /** The queue attributes read from sysfs. */
  queue?: QueueFacts
  /** This machine as a host preset: the simulated companion of a real run uses it. */
  host?: HostCapture
  /**
   * The host as captured and measured, before the fit's corrections (fio's CPU, the buffered
   * writes): a fit again from `measured.fitPoints` starts here, where starting from `host` would
   * correct the corrected values (absent in presets of older versions).
   */
  capturedHost?: HostCapture
  /** Paste into a spec to simulate this device today (no registration needed). */
  specDevice: { preset: string; overrides: ParamValues }
  /**
   * Fitted again, without measuring, from `measured.fitPoints` and `capturedHost` by the lab's
   * code of a later day (fingerprint-refit.ts; `iosched-lab fingerprint --refit`): when, from
   * which file, and the description of the fit it replaced. The scheduler points' histograms are
   * not kept, so their cost fit is the replaced one's (the host's schedCpuScale, the schedulers'
   * path times); their residuals are re-simulated and judged by their summaries, with no CDF
   * distance in `fit`.
   */
  refitted?: { at: string; from: string; description: string }
  /**
   * Fitted by a validation over its span (fingerprint-bracket.ts): each sweep point pooled from the
   * fingerprint `from` at the start and `passesAfter` passes of the sweep after the matrix.
   */
  bracketed?: { at: string; passesAfter: number; from: string }
}

export interface FingerprintOptions {
  target?: TargetRequest
  /** Seconds per sweep point (default 3). */
  seconds?: number
  /** Passes of the sweep (default 3): their spread is each point's noise; the median pass counts. */
  passes?: number
  /** Bytes of the device the random points spread over (default: all of it, at most 8 GiB). */
  regionBytes?: number
  name?: string
  stateDir?: string
  /** Where to save the preset file (nothing saved when absent). */
  out?: string
  /** Pass one to be able to cancel (its `cancel()` restores the device). */
  runner?: RealExperimentRunner
  /** Run the scheduler points of a virtual device (default true). */
  schedulerPoints?: boolean
  /** How the cost of reported memory is measured (default: probeFreshPages, in a child process). */
  freshPageProbe?: () => Promise<FreshPageProbe>
  /**
   * How a loop device's dispatch costs, and the idle CPUs' wake-up latencies, are measured
   * (default: measureDispatch, a traced scratch loop device of its own; false: not measured).
   */
  dispatchProbe?: (() => Promise<DispatchTrace>) | false
}
