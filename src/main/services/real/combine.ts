import type { ExperimentResult } from '../../../shared/experiment/compare'
import { summarizeRuns } from '../../../shared/experiment/compare'
import type { RunResult } from '../../../shared/experiment/result'
import type { RealExperimentResult } from './real-result'

/**
 * Simulated and real runs of one spec as one experiment: each label's simulated run next to its
 * real one, in the spec's order, under a title naming both devices. The CLI's `run --real
 * --also-simulate` and the app's real runs show this one table.
 */
export function combineRuns(
  sim: ExperimentResult | null,
  real: RealExperimentResult,
): ExperimentResult & { real: RealExperimentResult['real'] } {
  const t = real.real.target
  const device = sim
    ? `${real.spec.device.preset} (simulated) vs ${t.description} (real)`
    : `real ${t.description}`
  const host = sim ? `${sim.spec.host.preset} (simulated), this machine (real)` : 'this machine'
  const spec = {
    ...real.spec,
    device: { ...real.spec.device, preset: device },
    host: { ...real.spec.host, preset: host },
  }
  const runs: RunResult[] = [...(sim?.runs ?? []), ...real.runs]
  const order = real.spec.schedulers.map((s) => s.label)
  runs.sort(
    (a, b) =>
      order.indexOf(a.label) - order.indexOf(b.label) ||
      (a.source === b.source ? 0 : a.source === 'simulated' ? -1 : 1),
  )
  return {
    schema: 'iosched-lab/experiment@1',
    name: real.name,
    spec,
    runs,
    summary: summarizeRuns(runs),
    real: real.real,
  }
}
