import type { ParamValues } from '../util/params'
import type { ValidationSummary, WorkloadJudgement } from './judge'

/**
 * The report of `iosched-lab validate` (docs/validate-json.md): the device and its fitted preset,
 * how well the preset re-simulates its own sweep, and per workload of the matrix the real and
 * simulated figures of every kernel scheduler, judged.
 */
export interface ValidateReport {
  schema: 'iosched-lab/validate@1'
  createdAt: string
  quick: boolean
  kernel: string
  target: { name: string; description: string; sizeBytes: number; rotational: boolean }
  preset: {
    name: string
    /** Where it came from: fitted now, or the file given. */
    from: 'fingerprint' | string
    device: { preset: string; overrides: ParamValues }
    host: { preset: string; overrides: ParamValues }
    /** Per sweep point: simulated ÷ measured − 1 of the rate and the median, and the noise. */
    residuals: Record<
      string,
      { iops: number; p50: number; noise: number; ok: boolean; medianOnly?: boolean; rateOnly?: boolean }
    >
    /** The largest |residual| of a rate or median over the sweep (the one judged where `medianOnly` or `rateOnly`). */
    worstResidual: number
    /**
     * The fingerprint made at the start, fitted again over the validation's span: each sweep point
     * pooled with the same sweep measured after the matrix, in `passesAfter` passes.
     */
    bracketed?: { passesAfter: number }
  }
  options: { seconds: number; minRepetitions: number; maxRepetitions: number; cvPercent: number }
  schedulers: string[]
  /** The kernel's schedulers this kernel does not have (BFQ is optional), and why: not validated. */
  missingSchedulers?: { scheduler: string; reason: string }[]
  workloads: (WorkloadJudgement & {
    id: string
    title: string
    /** Runs per scheduler, real and simulated. */
    runs: Record<string, { real: number; simulated: number }>
    /** Schedulers that did not run for real, and why. */
    failed: { scheduler: string; message: string }[]
  })[]
  /** The fingerprint's sweep measured again after the matrix: how far the machine moved meanwhile. */
  drift?: DriftCheck
  /**
   * With `preset.bracketed`: the same real runs judged against the simulation on the fingerprint as
   * fitted at the start, and its worst residual — what the report would say without the span.
   */
  startFit?: { summary: ValidationSummary; worstResidual: number }
  summary: ValidationSummary & {
    fingerprintWorstResidual: number
    /** The targets of the lab's fidelity work, met or not. */
    targets: { orderedShare: number; medianCdfRelative: number; fingerprintResidual: number }
    met: { orderedShare: boolean; medianCdfRelative: boolean; fingerprintResidual: boolean }
  }
}

/** What the lab aims for: ≥ 90 % of separable pairs ordered, CDFs within 25 %, the sweep within 10 %. */
export const VALIDATE_TARGETS = { orderedShare: 0.9, medianCdfRelative: 0.25, fingerprintResidual: 0.1 }

/** The fingerprint's sweep measured again after the matrix (merged over its passes as the fingerprint's are), against the fingerprint. */
export interface DriftCheck {
  /** Seconds per point (the fingerprint's). */
  seconds: number
  points: {
    name: string
    fingerprint: { iops: number; p50Ms: number }
    now: { iops: number; p50Ms: number }
    /** now ÷ fingerprint − 1, of the rate and of the median latency. */
    change: { iops: number; p50: number }
    /** The point's pass-to-pass spread in the fingerprint. */
    noise: number
    /** A change larger than that spread: the machine moved. */
    beyondNoise: boolean
  }[]
  /** The largest |change| over the points. */
  worst: number
}
