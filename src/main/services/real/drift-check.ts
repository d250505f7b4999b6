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
import { sweepRegion } from './fingerprint'
import { MEDIAN_ONLY, sweepSpec } from './fingerprint-sweep'
import type { RealExperimentEvents, RealExperimentRunner } from './real-experiment'
import { MEASURING } from './real-experiment'
import type { TargetRequest } from './target'

export interface DriftCheckOptions {
  target?: TargetRequest
  stateDir?: string
  runner: RealExperimentRunner
}

/**
 * One pass of the preset's sweep on the device now (the same points, seconds and region as its
 * fingerprint), each point's rate and median against the fingerprint's; null when the preset
 * records no sweep.
 */
export async function checkDrift(
  doc: PresetDocument,
  o: DriftCheckOptions,
  ev: RealExperimentEvents = {},
): Promise<DriftCheck | null> {
  const seconds = doc.measured.seconds
  // a preset that records no sweep (made by hand, or by an older lab) has nothing to measure again
  if (!(seconds > 0) || !doc.measured.points?.some((p) => p.iops > 0)) return null
  const region = doc.measured.regionBytes ?? sweepRegion(doc.measured.target.sizeBytes)
  const spec = resolveSpec(sweepSpec(seconds, region, { preset: 'ssd-sata-mlc' }, undefined, 1))
  const r = await o.runner.run(
    spec,
    { ...MEASURING, target: o.target, stateDir: o.stateDir, sampleMs: 250 },
    ev,
  )
  const now = r.runs[0]?.processes ?? []
  const points: DriftCheck['points'] = []
  // (the buffered point's rate is the page cache's, its medians two passes': not a device figure)
  for (const before of doc.measured.points) {
    if (MEDIAN_ONLY.has(before.name)) continue
    const p = now.find((x) => x.name === before.name)
    if (!p || p.seconds <= 0 || p.ops <= 0) continue
    const iops = p.ops / p.seconds
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
  return { seconds, points, worst }
}
