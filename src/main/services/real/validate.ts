import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { release } from 'node:os'
import type { ParamValues } from '../../../shared/util/params'
import type { ResolvedSpec } from '../../../shared/experiment/resolved'
import type { RunResult } from '../../../shared/experiment/result'
import { simulate } from '../../../shared/experiment/runner'
import { resolveSpec } from '../../../shared/experiment/validate'
import { controlFalseDiscoveries, judgeWorkload, summarizeJudgements } from '../../../shared/validate/judge'
import type { ValidateWorkload } from '../../../shared/validate/matrix'
import { VALIDATE_MATRIX, validateSpec } from '../../../shared/validate/matrix'
import type { DriftCheck, ValidateReport } from '../../../shared/validate/report'
import { VALIDATE_TARGETS } from '../../../shared/validate/report'
import type { PresetDocument } from './fingerprint'
import { fingerprintDevice, residualSize } from './fingerprint'
import { checkDrift } from './drift-check'
import type { DriftMeasured } from './drift-check'
import { bracketFingerprint } from './fingerprint-bracket'
import { CancelledError } from './engine-plan'
import { captureHost } from './host-capture'
import { offeredOf } from './kernel-offers'
import type { RealExperimentEvents } from './real-experiment'
import type { RealTargetInfo } from './real-result'
import { MEASURING, RealExperimentRunner } from './real-experiment'
import { deviceName } from './sysfs'
import type { TargetRequest } from './target'

/** The kernel's blk-mq schedulers, as the lab names them. */
export const KERNEL_SCHEDULERS = ['none', 'mq-deadline', 'kyber', 'bfq']

/** One simulated run of a validation's workload. */
export interface SimulationJob {
  schedIndex: number
  repetition: number
}

/** In this thread, one after another (the CLI: nothing else waits on this process meanwhile). */
async function simulateHere(spec: ResolvedSpec, jobs: readonly SimulationJob[]): Promise<RunResult[]> {
  // judged by their figures and latency CDFs: the why is not needed, and costs ~10 %
  return jobs.map((j) => simulate(spec, j.schedIndex, j.repetition, { why: false }))
}

export interface ValidateOptions {
  target?: TargetRequest
  /** A fingerprint preset file to reuse (default: fingerprint the device first). */
  presetFile?: string
  /** Where to save the fingerprint made first, to reuse with `presetFile` (not saved when absent). */
  fingerprintOut?: string
  /**
   * Runs the simulated side (default: in this thread). A process that must stay responsive — the
   * app's backend, the helper answering cancel — passes its simulation pool.
   */
  simulateRuns?: (spec: ResolvedSpec, jobs: readonly SimulationJob[]) => Promise<RunResult[]>
  /** The quick matrix, shorter runs, fewer repetitions (CI). */
  quick?: boolean
  /** Seconds per run (default 4; quick 2). */
  seconds?: number
  /** Runs per scheduler at least (default 3; quick 2) and at most (default 8; quick 3). */
  minRepetitions?: number
  maxRepetitions?: number
  /** Repeat until every process's throughput varies ≤ this % (default 5). */
  cvPercent?: number
  /** Bytes of the device the workloads spread over (default 256 MiB). */
  regionBytes?: number
  stateDir?: string
  runner?: RealExperimentRunner
  /** Only these workloads of the matrix (ids). */
  only?: string[]
  /** The user's own workloads instead of the lab's matrix (`--matrix FILE`, matrix-file.ts). */
  matrix?: readonly ValidateWorkload[]
  /** Measure the fingerprint's sweep again after the matrix, to say how far the machine moved (default true). */
  driftCheck?: boolean
  /**
   * With the drift check, and a fingerprint made now: measure the sweep after the matrix in as many
   * passes as the fingerprint's, fit the fingerprint again over the span (fingerprint-bracket.ts)
   * and judge the simulation on that fit (default true; the start's fit is reported as `startFit`).
   */
  bracket?: boolean
}

export interface ValidateEvents extends RealExperimentEvents {
  /** A stage began: the fingerprint, or a workload (k of n). */
  stage?(what: string, k: number, n: number): void
  /**
   * The fingerprint made first is fitted (not called when a preset is reused): the app saves it;
   * called again with it fitted over the validation's span (`doc.bracketed`), which the report
   * judges on: the app saves that in its place.
   */
  fingerprinted?(doc: PresetDocument): void
}

function loadPreset(path: string): PresetDocument {
  const doc = JSON.parse(readFileSync(path, 'utf8')) as PresetDocument
  if (doc.schema !== 'iosched-lab/device-preset@1' || !doc.specDevice)
    throw new Error(`${path}: not a fingerprint preset (iosched-lab/device-preset@1 with specDevice)`)
  return doc
}

/** Where the fit over the validation's span is saved beside the fingerprint saved at `file`: FP.span.json. */
export const spanFile = (file: string): string => file.replace(/(\.json)?$/i, '.span.json')

/** A workload of the matrix as it ran for real: simulated on a fit, then judged. */
interface MeasuredWorkload {
  w: ValidateWorkload
  real: RunResult[]
  failed: { scheduler: string; message: string }[]
}

/** `m`'s real runs judged against `spec` simulated as many times (at least `minReps` per scheduler). */
async function judged(
  m: MeasuredWorkload,
  spec: ResolvedSpec,
  minReps: number,
  simulateRuns: (spec: ResolvedSpec, jobs: readonly SimulationJob[]) => Promise<RunResult[]>,
): Promise<ValidateReport['workloads'][number]> {
  const { w, real, failed } = m
  const labels = spec.schedulers.map((s) => s.label)
  const jobs: SimulationJob[] = labels.flatMap((l, k) =>
    Array.from({ length: Math.max(minReps, real.filter((r) => r.label === l).length) }, (_, rep) => ({
      schedIndex: k,
      repetition: rep,
    })),
  )
  const simulated = await simulateRuns(spec, jobs)
  const j = judgeWorkload(
    labels,
    w.processes.map((p) => p.name),
    w.rankBy,
    real,
    simulated,
  )
  const runs: Record<string, { real: number; simulated: number }> = {}
  for (const l of labels)
    runs[l] = {
      real: real.filter((r) => r.label === l).length,
      simulated: simulated.filter((r) => r.label === l).length,
    }
  return { id: w.id, title: w.title, ...j, runs, failed }
}

/** The largest residual of the preset's sweep (residualSize: the one judged where a point is median- or rate-only). */
function worstOf(doc: PresetDocument): number {
  return Object.values(doc.residuals ?? {}).reduce((w, r) => Math.max(w, residualSize(r)), 0)
}

/**
 * The fingerprint made at the start fitted over the validation's span (fingerprint-bracket.ts)
 * with the sweep measured after the matrix; null, with a notice saying why, when it cannot be.
 */
function bracketed(doc: PresetDocument, after: DriftMeasured, ev: ValidateEvents): PresetDocument | null {
  try {
    const span = bracketFingerprint(doc, after.points, after.passes)
    if (!span)
      ev.notice?.(
        'the fingerprint is not fitted over the span: the sweep after the matrix measured none of its points',
      )
    return span
  } catch (e) {
    ev.notice?.(`the fingerprint is not fitted over the span: ${(e as Error).message}`)
    return null
  }
}

/**
 * Validate the simulation against the kernel on a device: fingerprint it (or reuse a preset), then
 * run every workload of the matrix under each of the kernel's schedulers for real, repeated until
 * stable, and simulate the same spec on the fitted preset and this machine's host; judge.
 */
export async function validateDevice(
  o: ValidateOptions = {},
  ev: ValidateEvents = {},
): Promise<ValidateReport> {
  const quick = o.quick ?? false
  const seconds = o.seconds ?? (quick ? 2 : 4)
  const minReps = o.minRepetitions ?? (quick ? 2 : 3)
  const maxReps = Math.max(minReps, o.maxRepetitions ?? (quick ? 3 : 8))
  const cv = o.cvPercent ?? 5
  const region = o.regionBytes ?? 256 * 2 ** 20
  const runner = o.runner ?? new RealExperimentRunner()
  // the kernel's schedulers this kernel has (BFQ is optional); the others are reported as missing
  const { offered: schedulers, missing } = offeredOf(
    KERNEL_SCHEDULERS,
    o.target?.kind === 'device' ? deviceName(o.target.name) : undefined,
  )
  if (schedulers.length < 2)
    throw new Error(
      `the kernel offers ${schedulers.length === 1 ? `only "${schedulers[0]}"` : 'none'} of ${KERNEL_SCHEDULERS.join(', ')}: nothing to compare`,
    )
  const matrix = (o.matrix ?? VALIDATE_MATRIX).filter((w) =>
    o.only ? o.only.includes(w.id) : o.matrix !== undefined || !quick || w.quick,
  )
  const driftCheck = o.driftCheck ?? true
  const stages = matrix.length + (o.presetFile ? 0 : 1) + (driftCheck ? 1 : 0)
  let doc: PresetDocument
  if (o.presetFile) doc = loadPreset(o.presetFile)
  else {
    ev.stage?.('fingerprint', 1, stages)
    doc = await fingerprintDevice(
      {
        target: o.target,
        seconds: quick ? 2 : 3,
        // three passes: each point's median pass (mergePasses in fingerprint.ts); quick: two
        passes: quick ? 2 : 3,
        stateDir: o.stateDir,
        runner,
        ...(o.fingerprintOut ? { out: o.fingerprintOut } : {}),
      },
      ev,
    )
    ev.fingerprinted?.(doc)
  }
  const capture = doc.host ?? captureHost()
  // a fit's host: what was captured with what the fit corrected (its system calls, submissions,
  // wake-ups) — the span's fit corrects them again, and its device values only hold with them
  const hostOf = (d: PresetDocument): { preset: string; overrides: ParamValues } => {
    const h = d.host ?? capture
    return { preset: h.preset, overrides: h.overrides }
  }
  const specFor = (w: ValidateWorkload, d: PresetDocument): ResolvedSpec =>
    resolveSpec(
      validateSpec(w, {
        device: d.specDevice,
        host: hostOf(d),
        schedulers,
        seconds,
        regionBytes: region,
        repetitions: minReps,
        cvPercent: cv,
        maxRepetitions: maxReps,
      }),
    )
  const workloads: ValidateReport['workloads'] = []
  /** Each workload's real runs, to simulate again on the fit over the validation's span. */
  const measured: MeasuredWorkload[] = []
  // the device validated (a reused preset may have been measured on another)
  let validated: RealTargetInfo | null = null
  for (const [i, w] of matrix.entries()) {
    ev.stage?.(w.id, i + 1 + (o.presetFile ? 0 : 1), stages)
    const spec = specFor(w, doc)
    const failed: { scheduler: string; message: string }[] = []
    const real = await runner.run(
      spec,
      { ...MEASURING, target: o.target, stateDir: o.stateDir },
      {
        ...ev,
        targetReady: (t) => ((validated ??= t), ev.targetReady?.(t)),
        failed: (label, rep, m) => (
          failed.push({ scheduler: label, message: m }),
          ev.failed?.(label, rep, m)
        ),
      },
    )
    const m: MeasuredWorkload = { w, real: real.runs, failed }
    measured.push(m)
    workloads.push(await judged(m, spec, minReps, o.simulateRuns ?? simulateHere))
  }
  // the pairs of every workload are one family of tests: their false discoveries controlled together
  controlFalseDiscoveries(workloads.flatMap((w) => w.pairs))
  let drift: DriftCheck | undefined
  let after: DriftMeasured | null = null
  // a fingerprint made now is measured again in as many passes, and fitted over the span
  const bracket = (o.bracket ?? true) && !o.presetFile
  if (driftCheck) {
    ev.stage?.('drift check', stages, stages)
    try {
      const passes = bracket ? doc.measured.passes : 1
      after = await checkDrift(doc, { target: o.target, stateDir: o.stateDir, runner, passes }, ev)
      drift = after?.check
      if (!after) ev.notice?.('no drift check: the preset records no sweep to measure again')
    } catch (e) {
      // the report stands without it; a cancel is a cancel
      if (e instanceof CancelledError) throw e
      ev.notice?.(`no drift check: ${(e as Error).message}`)
    }
  }
  let startFit: ValidateReport['startFit']
  let spanOut: string | null = null
  const span = bracket && after ? bracketed(doc, after, ev) : null
  if (span) {
    ev.notice?.("the fingerprint fitted again over the validation's span: simulating the matrix on it")
    // the fingerprint at the start judged as it was, for comparison; the report judges on the span's
    startFit = { summary: summarizeJudgements(workloads), worstResidual: worstOf(doc) }
    doc = span
    ev.fingerprinted?.(span)
    if (o.fingerprintOut) {
      // beside the fingerprint made first: what the report judged on, to refit or reuse (--preset)
      spanOut = spanFile(o.fingerprintOut)
      mkdirSync(dirname(spanOut), { recursive: true })
      writeFileSync(spanOut, JSON.stringify(span, null, 2) + '\n')
    }
    workloads.length = 0
    for (const m of measured)
      workloads.push(await judged(m, specFor(m.w, doc), minReps, o.simulateRuns ?? simulateHere))
    controlFalseDiscoveries(workloads.flatMap((w) => w.pairs))
  }
  const residuals: ValidateReport['preset']['residuals'] = {}
  for (const [k, r] of Object.entries(doc.residuals ?? {}))
    residuals[k] = {
      iops: r.iops,
      p50: r.p50,
      noise: r.noise,
      ok: r.ok,
      ...(r.medianOnly ? { medianOnly: true } : {}),
      ...(r.rateOnly ? { rateOnly: true } : {}),
    }
  const worst = worstOf(doc)
  const s = summarizeJudgements(workloads)
  const t = validated ?? doc.measured.target
  return {
    schema: 'iosched-lab/validate@1',
    createdAt: new Date().toISOString(),
    quick,
    kernel: capture.kernel ?? release(),
    target: { name: t.name, description: t.description, sizeBytes: t.sizeBytes, rotational: t.rotational },
    preset: {
      name: doc.name,
      from:
        o.presetFile ??
        (spanOut
          ? `fingerprint fitted over the validation's span, saved to ${spanOut} (at the start: ${o.fingerprintOut})`
          : o.fingerprintOut
            ? `fingerprint, saved to ${o.fingerprintOut}`
            : 'fingerprint'),
      device: doc.specDevice,
      host: hostOf(doc),
      residuals,
      worstResidual: worst,
      ...(doc.bracketed ? { bracketed: { passesAfter: doc.bracketed.passesAfter } } : {}),
    },
    options: { seconds, minRepetitions: minReps, maxRepetitions: maxReps, cvPercent: cv },
    schedulers,
    ...(missing.length > 0 ? { missingSchedulers: missing } : {}),
    workloads,
    ...(drift ? { drift } : {}),
    ...(startFit ? { startFit } : {}),
    summary: {
      ...s,
      fingerprintWorstResidual: worst,
      targets: VALIDATE_TARGETS,
      met: {
        orderedShare: s.orderedShare >= VALIDATE_TARGETS.orderedShare,
        medianCdfRelative: s.medianCdfRelative <= VALIDATE_TARGETS.medianCdfRelative,
        fingerprintResidual: worst <= VALIDATE_TARGETS.fingerprintResidual,
      },
    },
  }
}
