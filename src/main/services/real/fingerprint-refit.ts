// Fit a saved fingerprint again with the model code as it is now, from the points the document
// kept, without measuring: a model change moves what the fit should be, and judging the change
// against earlier real runs with the preset the old code fitted is unfair to it.
import type { PresetDocument } from './fingerprint-types'
import { fitSweep } from './fingerprint-document'
import type { SchedulerEvidence } from './fingerprint-document'
import type { SchedulerCostFit, SchedulerPoint } from './fit-scheduler-cost'
import { nonePathUs } from './fit-scheduler-cost'

/** A saved document that cannot be fitted again: what it lacks, said with the file. */
export class RefitError extends Error {}

const isObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x)

/**
 * The document, checked to have what a fit needs: the schema, the measured points with their
 * histograms (`measured.fitPoints`), the sweep's seconds, passes and region, the target, the
 * queue facts, the host as captured (`capturedHost`) and each point's noise (`residuals`).
 */
function checked(doc: unknown, from: string): PresetDocument {
  const miss = (what: string, why = ''): never => {
    throw new RefitError(`${from}: cannot refit: ${what}${why ? ` (${why})` : ''}`)
  }
  if (!isObject(doc) || doc.schema !== 'iosched-lab/device-preset@1')
    return miss('not a device preset (schema iosched-lab/device-preset@1)')
  const m = doc.measured
  if (!isObject(m)) return miss('no "measured"')
  const fp = m.fitPoints
  if (!Array.isArray(fp) || fp.length === 0)
    return miss('no "measured.fitPoints"', 'saved before fingerprints kept the points as the fit saw them')
  for (const [i, p] of fp.entries())
    if (!isObject(p) || typeof p.name !== 'string' || !isObject(p.latency) || typeof p.iops !== 'number')
      return miss(`"measured.fitPoints[${i}]" is not a point (name, iops, latency histogram)`)
  for (const k of ['seconds', 'passes', 'regionBytes'] as const)
    if (typeof m[k] !== 'number') return miss(`no "measured.${k}"`)
  if (!isObject(m.target) || typeof m.target.sizeBytes !== 'number') return miss('no "measured.target"')
  if (!isObject(doc.queue) || typeof doc.queue.kind !== 'string') return miss('no "queue"')
  if (!isObject(doc.capturedHost) || !isObject(doc.capturedHost.overrides))
    return miss(
      'no "capturedHost"',
      'saved before fingerprints kept the host as captured; fitting from "host" would correct it twice',
    )
  if (!isObject(doc.host) || !isObject(doc.host.overrides)) return miss('no "host"')
  if (!isObject(doc.residuals)) return miss('no "residuals"', "each point's noise")
  for (const p of fp as { name: string }[])
    if (!isObject(doc.residuals[p.name])) return miss(`no "residuals.${p.name}"`, "the point's noise")
  if (!isObject(doc.values) || !isObject(doc.sources)) return miss('no "values" or "sources"')
  return doc as unknown as PresetDocument
}

/**
 * What the scheduler points gave the saved fit. Their histograms and paired differences are not
 * kept, so the cost fit cannot run again: its figures as it gave them — the host's schedCpuScale,
 * each scheduler's path time (as the saved fit corrected it) — and the path's time under none,
 * which it took from the sweep's own QD32 point (kept).
 */
function savedCost(doc: PresetDocument): SchedulerCostFit {
  const sources: Record<string, string> = {}
  const host = doc.host!
  const fitted =
    host.overrides.schedCpuScale !== undefined && doc.capturedHost!.overrides.schedCpuScale === undefined
  if (fitted) sources.schedCpuScale = host.sources.schedCpuScale
  const points = (doc.schedulerPoints ?? []).filter((x) => x.measured.iops > 0)
  const none = doc.measured.fitPoints!.find((p) => p.name === 'qd32-randread')
  const path = none && none.iops > 0 && points.length > 0 ? nonePathUs(none) : null
  const schedulerPathUs =
    typeof doc.values.schedulerPathUs === 'string' && doc.values.schedulerPathUs !== ''
      ? doc.values.schedulerPathUs
      : null
  if (path) sources.pathUs = path.why
  if (schedulerPathUs !== null) sources.schedulerPathUs = doc.sources.schedulerPathUs
  return {
    schedCpuScale: fitted ? (host.overrides.schedCpuScale as number) : null,
    pathUs: path?.us ?? null,
    schedulerPathUs,
    sources,
  }
}

/**
 * The scheduler points as the document kept them: whole where every one kept the point the cost
 * fit saw (`fitted`) — the cost fit runs again — else their summaries and the saved cost fit.
 */
function evidence(d: PresetDocument): SchedulerEvidence {
  const saved = d.schedulerPoints ?? []
  const whole = saved
    .map((x) => x.fitted)
    .filter((x): x is SchedulerPoint => isObject(x) && isObject(x.point))
  if (saved.length > 0 && whole.length === saved.length) return { kind: 'measured', points: whole }
  return { kind: 'saved', cost: savedCost(d), points: saved }
}

/**
 * The saved fingerprint `doc` fitted again from its measured points with the code as it is: a
 * new document with the values, sources, host, simulated points, fit, residuals and warnings of
 * the new fit, the measured points and captured host as they were, and `refitted` saying when and
 * from what. `from` names the document in errors and in `refitted` (its file).
 */
export function refitFingerprint(doc: unknown, from = 'the document', now = new Date()): PresetDocument {
  const d = checked(doc, from)
  const points = d.measured.fitPoints!
  const noise = Object.fromEntries(Object.entries(d.residuals!).map(([k, r]) => [k, r.noise]))
  const fitted = fitSweep(
    {
      target: d.measured.target,
      queue: d.queue!,
      seconds: d.measured.seconds,
      passes: d.measured.passes,
      regionBytes: d.measured.regionBytes!,
      points,
      noise,
      capturedHost: d.capturedHost!,
      // the fingerprint gives the buffered point its fresh-page excess only when the probe saw
      // the cost (a probe that failed, or saw none, leaves freshPageUs 0 in the host)
      probed: points.some((p) => p.freshExcessNs !== undefined),
    },
    evidence(d),
    d.name,
  )
  return { ...fitted, refitted: { at: now.toISOString(), from, description: d.description } }
}
