// A fingerprint fitted over the span of a validation: the sweep measured at the start and again
// after the matrix, pooled, so the model the matrix is judged against is the device as it was
// while the matrix ran, not as it was in the minutes before.
import { mergePasses, noiseOf } from './fingerprint-passes'
import { refitFingerprint } from './fingerprint-refit'
import type { PresetDocument } from './fingerprint-types'
import type { FitPoint } from './fit-virtual'

/**
 * The fingerprint `doc` fitted again with each sweep point pooled from its measurement at the
 * start (the median pass the fit kept) and `after` (the same sweep measured after the matrix,
 * merged over its passes): the two weighted alike — rates averaged, histograms merged
 * (mergePasses), as if the machine moved evenly from one to the other while the matrix ran. Each
 * point's noise is its spread at the start or between the two, whichever is larger: a point the
 * machine moved is no more certain than that. Points measured only at the start stay as they
 * were; the scheduler points (measured at the start only) keep their fit. Null when `after` has
 * none of the points or the document cannot be fitted again (refitFingerprint says why).
 *
 * Why: on this VM the machine's speed drifts by tens of percent within the ~20 minutes of a
 * validation (validation of 2026-12-07, x16: QD1 reads 29 % and QD32 reads 10 % slower after the
 * matrix than at the fingerprint, both beyond their noise; the simulation on the start's fit was
 * 15–28 % fast in every deep-read workload), while the matrix's own real runs are interleaved in
 * rounds across that time (real-devices.md).
 */
export function bracketFingerprint(
  doc: PresetDocument,
  after: readonly FitPoint[],
  passesAfter: number,
  now = new Date(),
): PresetDocument | null {
  const start = doc.measured.fitPoints
  if (!start || !doc.residuals) return null
  const pooled: FitPoint[] = []
  const residuals = { ...doc.residuals }
  let any = false
  for (const s of start) {
    const e = after.find((p) => p.name === s.name)
    if (!e || !(e.iops > 0)) {
      pooled.push(s)
      continue
    }
    any = true
    // what the fit reads beside the rates and histogram (the buffered point's fresh-page excess) stays
    pooled.push({ ...s, ...mergePasses([s, e]) })
    const r = residuals[s.name]
    if (r) residuals[s.name] = { ...r, noise: Math.max(r.noise, noiseOf([s, e])) }
  }
  if (!any) return null
  // the fit reads the fit points; it writes the sweep's summaries (measured.points) from them
  const pooledDoc: PresetDocument = { ...doc, measured: { ...doc.measured, fitPoints: pooled }, residuals }
  const fitted = refitFingerprint(pooledDoc, doc.name, now)
  const { refitted: _refitted, ...rest } = fitted
  return { ...rest, bracketed: { at: now.toISOString(), passesAfter, from: doc.name } }
}
