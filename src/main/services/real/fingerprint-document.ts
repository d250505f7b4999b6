// The fit of a measured sweep and the preset document it makes: the model of the device's kind
// fitted to the points, the sweep re-simulated on it and judged against each point's noise. A
// fingerprint (fingerprint.ts) runs it on the sweep it has just measured, a refit
// (fingerprint-refit.ts) on the sweep a saved document kept: one fit path for both.
import { simulate } from '../../../shared/experiment/runner'
import { resolveSpec } from '../../../shared/experiment/validate'
import { rmsCdfDistance } from '../../../shared/metrics/cdf-distance'
import type { ParamValues } from '../../../shared/util/params'
import type { DeviceFacts, SweepPoint } from './fingerprint-fit'
import { fitModel } from './fingerprint-fit'
import { fitPointOf, inPasses, sweepPointOf } from './fingerprint-passes'
import {
  judgedBy,
  medianResidual,
  residualSize,
  schedulerSweepSpec,
  sweepSpec,
  VIRTUAL_BASE,
} from './fingerprint-sweep'
import type { PointResidual, PresetDocument } from './fingerprint-types'
import { HOST_FIT_SOURCES } from './fit-host'
import type { SchedulerCostFit, SchedulerPoint } from './fit-scheduler-cost'
import { fitSchedulerCost, refineSchedulerPaths } from './fit-scheduler-cost'
import type { FitPoint } from './fit-virtual'
import { fitVirtual } from './fit-virtual-refine'
import type { HostCapture } from './host-capture'
import type { QueueFacts } from './queue-facts'
import type { RealTargetInfo } from './real-result'

/** A sweep as measured: what the fit starts from. */
export interface MeasuredSweep {
  target: RealTargetInfo
  /** The queue attributes (with how the serving disk signals, when the scheduler points ran). */
  queue: QueueFacts
  seconds: number
  passes: number
  regionBytes: number
  /** Each point merged over the passes (the buffered point's freshExcessNs where `probed`). */
  points: FitPoint[]
  /** Each point's noise by its key (the scheduler points' as `qd32-randread@SCHEDULER`). */
  noise: Record<string, number>
  /** The host as captured and probed, before the fit: the fit corrects a copy. */
  capturedHost: HostCapture
  /** The probe measured the cost of reported memory (fresh-page-probe.ts): the fit keeps it. */
  probed: boolean
}

/**
 * The scheduler points as the fit has them: measured in full (their histograms and paired
 * differences: the cost fit runs, and the schedulers' path times are corrected by re-simulating
 * them), or as a saved document kept them (only their summaries: the cost fit's figures are
 * taken as it gave them, and the points are re-simulated and judged by their summaries).
 */
export type SchedulerEvidence =
  | { kind: 'measured'; points: SchedulerPoint[] }
  | { kind: 'saved'; cost: SchedulerCostFit; points: NonNullable<PresetDocument['schedulerPoints']> }

/** Fit the model of the device's kind to a measured sweep, and the document that says how well. */
export function fitSweep(m: MeasuredSweep, sched: SchedulerEvidence, name: string): PresetDocument {
  const { target: t, queue: q, seconds, passes, regionBytes: region, points: measured, noise } = m
  const host = structuredClone(m.capturedHost)
  // as many simulated passes as real ones, merged as they are: a run draws what varies from one
  // real run to the next (its buffers' contiguity, its stalls), and one draw against the median
  // of three made the corrections chase that draw (fp35 refitted: qd1 reads −18 % with one, −6 %)
  const simulateSweep = (device: { preset: string; overrides: ParamValues }, h: ParamValues): FitPoint[] => {
    const s = resolveSpec(sweepSpec(seconds, region, device, { preset: host.preset, overrides: h }))
    return inPasses(passes, (k) =>
      simulate(s, 0, k, { why: false }).processes.map((p) => fitPointOf(p, null)),
    )
  }
  let model: PresetDocument['model']
  let basePreset: string
  let values: ParamValues
  let sources: Record<string, string>
  let reason: string
  let simulated: FitPoint[]
  const virtual = q.kind === 'loop' || q.kind === 'virtio' || q.kind === 'device-mapper'
  const costFit =
    sched.kind === 'saved'
      ? sched.cost
      : fitSchedulerCost(
          measured.find((p) => p.name === 'qd32-randread')!,
          sched.points,
        )
  if (costFit.schedCpuScale !== null) {
    host.overrides.schedCpuScale = costFit.schedCpuScale
    host.sources.schedCpuScale = costFit.sources.schedCpuScale
  }
  if (virtual) {
    // lanes or the depth law, whichever re-simulates the sweep better (fitVirtual)
    const pathFit = costFit.pathUs !== null ? { us: costFit.pathUs, why: costFit.sources.pathUs } : undefined
    const { first, refined, structure, errors, forced } = fitVirtual(
      measured,
      q,
      t.sizeBytes,
      pathFit,
      host.overrides,
      (v, h) => simulateSweep({ preset: VIRTUAL_BASE, overrides: v }, h),
      // measured by the probe: the buffered point's few slow writes do not overrule it (fp40's
      // were other than fresh pages, and its correction took 10.75 µs down to 1.7)
      m.probed ? new Set(['freshPageUs']) : new Set(),
    )
    model = 'virtual'
    basePreset = VIRTUAL_BASE
    values = refined.values
    sources = first.sources
    // none measured: the base preset's (another machine's) must not stand in for this one's
    values = { ...values, schedulerPathUs: costFit.schedulerPathUs ?? '' }
    if (costFit.schedulerPathUs !== null)
      sources = { ...sources, schedulerPathUs: costFit.sources.schedulerPathUs }
    simulated = refined.simulated
    for (const [k, v] of Object.entries(refined.host))
      if (host.overrides[k] !== v) {
        host.overrides[k] = v
        host.sources[k] = HOST_FIT_SOURCES[k] ?? `fitted (${k})`
      }
    const other = structure === 'lanes' ? 'depth law' : 'lanes'
    reason = `a ${q.kind} device: the virtual model (${structure}: worst residual ${Math.round(errors[structure] * 100)} % against ${Math.round(errors[other] * 100)} % with the ${other}${forced ? `; ${forced}` : ''}), fitted to the sweep and re-simulated (${refined.iterations} correction${refined.iterations === 1 ? '' : 's'})`
  } else {
    const facts: DeviceFacts = {
      sizeBytes: t.sizeBytes,
      rotational: t.rotational,
      maxTransferKiB: q.maxSectorsKiB,
    }
    const fitted = fitModel(measured.map(sweepPointOf), facts)
    model = fitted.model
    basePreset = fitted.basePreset
    values = fitted.values
    sources = fitted.sources
    reason = fitted.reason
    simulated = simulateSweep({ preset: basePreset, overrides: values }, host.overrides)
  }
  const fit: PresetDocument['fit'] = {}
  const residuals: Record<string, PointResidual> = {}
  const warnings: string[] = []
  /** A point's residual (its median's given) against its noise, and a warning when beyond it. */
  const judge = (key: string, mp: SweepPoint, sp: SweepPoint, p50: number): void => {
    const res: PointResidual = {
      iops: sp.iops / mp.iops - 1,
      p50,
      p99: sp.p99Ms / mp.p99Ms - 1,
      noise: noise[key],
      ok: false,
      ...judgedBy(key),
    }
    res.ok = residualSize(res) <= Math.max(0.1, res.noise)
    residuals[key] = res
    if (!res.ok)
      warnings.push(
        `${key}: the model is off by ${pct(res.iops)} in IOPS and ${pct(res.p50)} in the median${res.rateOnly ? ' (judged by its rate)' : res.medianOnly ? ' (judged by its median)' : ''}, beyond this point's noise (${pct(res.noise, false)})`,
      )
  }
  /** The same for a point whose histograms are at hand: its CDF distance too. */
  const judgeFull = (key: string, mf: FitPoint, sf: FitPoint): { mp: SweepPoint; sp: SweepPoint } => {
    fit[key] = rmsCdfDistance(mf.latency, sf.latency)
    const mp = sweepPointOf(mf)
    const sp = sweepPointOf(sf)
    judge(key, mp, sp, medianResidual(key, mf.latency, sf.latency, mf.freshExcessNs))
    return { mp, sp }
  }
  for (const p of measured) {
    const s = simulated.find((x) => x.name === p.name)
    if (s) judgeFull(p.name, p, s)
  }
  const schedulerPoints: NonNullable<PresetDocument['schedulerPoints']> = []
  const schedulers = sched.points.map((x) => x.scheduler)
  if (schedulers.length > 0) {
    const simulateSchedulers = (v: ParamValues): FitPoint[] => {
      const sspec = resolveSpec(
        schedulerSweepSpec(
          seconds,
          region,
          { preset: basePreset, overrides: v },
          { preset: host.preset, overrides: host.overrides },
          schedulers,
        ),
      )
      return schedulers.map((_, k) => fitPointOf(simulate(sspec, k, 0, { why: false }).processes[0], null))
    }
    if (sched.kind === 'measured') {
      const simNone = simulated.find((p) => p.name === 'qd32-randread')
      const measNone = measured.find((p) => p.name === 'qd32-randread')!
      const refined = refineSchedulerPaths(values, sched.points, measNone, simNone, simulateSchedulers)
      values = refined.values
      const sims = refined.simulated
      if (refined.corrected)
        sources = {
          ...sources,
          schedulerPathUs: `${sources.schedulerPathUs}; corrected by re-simulating the scheduler points against none's`,
        }
      for (const [k, x] of sched.points.entries()) {
        const sim = sims[k]
        const { mp, sp } = judgeFull(`qd32-randread@${x.scheduler}`, x.point, sim)
        schedulerPoints.push({
          scheduler: x.scheduler,
          measured: { ...mp, fioCpuUs: x.point.fioCpuUs },
          simulated: { ...sp, fioCpuUs: sim.fioCpuUs },
          fitted: x,
        })
      }
    } else {
      // their path times as the saved fit corrected them; their medians from the summaries (the
      // same percentile the histograms gave), and no CDF distance without the measured histogram
      const sims = simulateSchedulers(values)
      for (const [k, x] of sched.points.entries()) {
        const sp = sweepPointOf(sims[k])
        const mp = x.measured
        judge(`qd32-randread@${x.scheduler}`, mp, sp, mp.p50Ms > 0 ? sp.p50Ms / mp.p50Ms - 1 : 0)
        schedulerPoints.push({
          scheduler: x.scheduler,
          measured: mp,
          simulated: { ...sp, fioCpuUs: sims[k].fioCpuUs },
        })
      }
    }
  }
  return {
    schema: 'iosched-lab/device-preset@1',
    name,
    model,
    basePreset,
    description: `${describeModel(model)} fitted to ${t.description} (${reason})`,
    values,
    sources,
    measured: {
      target: t,
      seconds,
      passes,
      regionBytes: region,
      points: measured.map(sweepPointOf),
      fitPoints: measured,
    },
    simulated: { points: simulated.map(sweepPointOf) },
    fit,
    residuals,
    warnings,
    ...(schedulerPoints.length > 0 ? { schedulerPoints } : {}),
    queue: q,
    host,
    capturedHost: m.capturedHost,
    specDevice: { preset: basePreset, overrides: values },
  }
}

const describeModel = (m: PresetDocument['model']): string =>
  m === 'hdd' ? 'Disk' : m === 'flash' ? 'Flash device' : 'Virtual device'

const pct = (x: number, sign = true): string => `${sign && x > 0 ? '+' : ''}${Math.round(x * 1000) / 10} %`
