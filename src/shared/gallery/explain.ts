import type { Explanation } from '../experiment/explain'
import { explainPair } from '../experiment/explain'
import type { GalleryRuns } from './claims'
import type { GalleryExplain, RunRef } from './types'

/** A reproduction's explanation: computed from its runs, beside the mechanism the publication shows. */
export interface GalleryExplanation extends Explanation {
  /** The mechanism the published result is about. */
  expected: GalleryExplain['mechanism']
  /** The explanation names it. */
  matches: boolean
  /** The publication's point, in words. */
  about: string
}

/** `hog-tick[64k]/deadline`: a run reference for people. */
export const describeRunRef = (r: RunRef): string =>
  `${r.variant}${r.value !== undefined ? `[${r.value}]` : ''}/${r.label}`

/**
 * A run reference as the entry's page names it: by its label alone ("deadline") when the entry
 * runs one variant once, where `main/deadline` would only repeat the one variant's id; else
 * `variant[value]/label`.
 */
export function shownRunRef(all: GalleryRuns, r: RunRef): string {
  const variants = Object.values(all)
  return variants.length === 1 && variants[0].length === 1 ? r.label : describeRunRef(r)
}

/** The runs a reference names; throws, saying which, when the results have none. */
function runsOf(all: GalleryRuns, r: RunRef): { label: string; runs: GalleryRuns[string][number]['runs'] } {
  const variant = all[r.variant]
  if (!variant) throw new Error(`explain: no variant "${r.variant}" in the results`)
  const at = r.value === undefined ? variant[0] : variant.find((v) => String(v.value) === String(r.value))
  if (!at) throw new Error(`explain: ${describeRunRef(r)}: no run for that value`)
  const runs = at.runs.filter((x) => x.label === r.label)
  if (runs.length === 0) throw new Error(`explain: ${describeRunRef(r)}: no run labelled "${r.label}"`)
  return { label: shownRunRef(all, r), runs }
}

/** Explain a reproduction as its entry's `explain` pairs the runs; undefined when it has none. */
export function explainGallery(
  e: GalleryExplain | undefined,
  all: GalleryRuns,
): GalleryExplanation | undefined {
  if (!e) return undefined
  const x = explainPair(e.process, runsOf(all, e.worse), runsOf(all, e.better))
  if (!x)
    throw new Error(
      `explain: no process "${e.process}" in ${describeRunRef(e.worse)} and ${describeRunRef(e.better)}`,
    )
  return { ...x, expected: e.mechanism, matches: x.mechanism === e.mechanism, about: e.about }
}
