// The machine's drift over a validation: the fingerprint's sweep measured once more at the end.
// On a shared VM the same job can run at very different rates minutes apart (here 1 MiB QD4 reads
// at 940–1708 MB/s within a minute, bench/real-probes.sh drift); a model fitted at the start is
// then judged against a machine that has moved. The re-measurement says how far it moved, per
// point, against each point's own pass-to-pass noise, so a reader can tell the model's error from
// the machine's.
import { LatencyHistogram } from '../../../shared/metrics/histogram'
import { resolveSpec } from '../../../shared/experiment/validate'
import type { DriftCheck } from '../../../shared/validate/report'
import type { PresetDocument } from './fingerprint'
import { busyDuring, sweepRegion } from './fingerprint'
import { fitPointOf, mergePasses } from './fingerprint-passes'
import { MEDIAN_ONLY, sweepSpec } from './fingerprint-sweep'
import type { FitPoint } from './fit-virtual'
import type { RealExperimentEvents, RealExperimentRunner } from './real-experiment'
import { MEASURING } from './real-experiment'
import type { RealRunResult } from './real-result'
import type { TargetRequest } from './target'

export interface DriftCheckOptions {
  target?: TargetRequest
  stateDir?: string
  runner: RealExperimentRunner
  /** Passes of the sweep (default 1): each point merged over them as a fingerprint's are, compared, and kept as `points`. */
  passes?: number
}

/** The drift check, and the sweep's points as measured at the end, merged over its passes as a fingerprint's are. */
export interface DriftMeasured {
  check: DriftCheck
  points: FitPoint[]
  /** The passes they were measured in. */
  passes: number
}

/**
 * The preset's sweep on the device now, in `passes` passes (the same points, seconds and region as
 * its fingerprint), each point's rate and median against the fingerprint's; null when the preset
 * records no sweep.
 */
export async function checkDrift(
  doc: PresetDocument,
  o: DriftCheckOptions,
  ev: RealExperimentEvents = {},
): Promise<DriftMeasured | null> {
  const seconds = doc.measured.seconds
  // a preset that records no sweep (made by hand, or by an older lab) has nothing to measure again
  if (!(seconds > 0) || !doc.measured.points?.some((p) => p.iops > 0)) return null
  const region = doc.measured.regionBytes ?? sweepRegion(doc.measured.target.sizeBytes)
  const passes = Math.max(1, Math.round(o.passes ?? 1))
  const spec = resolveSpec(sweepSpec(seconds, region, { preset: 'ssd-sata-mlc' }, undefined, passes))
  const r = await o.runner.run(
    spec,
    { ...MEASURING, target: o.target, stateDir: o.stateDir, sampleMs: 250 },
    ev,
  )
  const runs = (r.runs as RealRunResult[]).filter((run) => run.processes.length > 0)
  if (runs.length === 0) return null
  // each point over the passes, by name, as the fingerprint merges its own (mergePasses)
  const perPass = runs.map((run) => run.processes.map((p) => fitPointOf(p, busyDuring(run, p))))
  const measured = perPass[0].map((first) =>
    mergePasses(perPass.flatMap((ps) => ps.filter((p) => p.name === first.name))),
  )
  const points: DriftCheck['points'] = []
  // (the buffered point's rate is the page cache's, its medians two passes': not a device figure)
  for (const before of doc.measured.points) {
    if (MEDIAN_ONLY.has(before.name)) continue
    const p = measured.find((x) => x.name === before.name)
    if (!p || !(p.iops > 0)) continue
    const iops = p.iops
    const p50Ms = LatencyHistogram.fromJSON(p.latency).percentile(50) / 1e6
    const change = { iops: iops / before.iops - 1, p50: before.p50Ms > 0 ? p50Ms / before.p50Ms - 1 : 0 }
    const noise = doc.residuals?.[before.name]?.noise ?? 0.05
    points.push({
      name: before.name,
      fingerprint: { iops: before.iops, p50Ms: before.p50Ms },
      now: { iops, p50Ms },
      change,
      noise,
      beyondNoise: Math.max(Math.abs(change.iops), Math.abs(change.p50)) > noise,
    })
  }
  const worst = points.reduce((w, p) => Math.max(w, Math.abs(p.change.iops), Math.abs(p.change.p50)), 0)
  return { check: { seconds, points, worst }, points: measured, passes: runs.length }
}
