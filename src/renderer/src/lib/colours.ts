// Colours in the app: the shared palette (src/shared/report/palette.ts, the HTML report's too),
// a scheduler's colour fixed by its name and a label variant's shade by its label, so a row, its
// series in every chart and its run set in the library look the same wherever they are.
import { schedulerColour } from '../../../shared/report/palette'

export { withAlpha } from '../../../shared/report/palette'

const REAL = ' (real)'

/**
 * The colour of a row or series by its shown label ("deadline-fb4", "deadline (real)") and, when
 * known, its scheduler's name; without it the scheduler the label names.
 */
export function colourOf(shown: string, scheduler?: string): string {
  return schedulerColour(shown, scheduler)
}

/** The entry label of a shown label: "deadline (real)" → "deadline". */
export const entryLabel = (shown: string): string =>
  shown.endsWith(REAL) ? shown.slice(0, -REAL.length) : shown

/**
 * A colour function for shown labels that looks each label's scheduler up in `entries` (a spec's
 * scheduler entries, runs or summary rows: anything with a label and a scheduler name).
 */
export function coloursFor(
  entries: readonly { label: string; name?: string; scheduler?: string }[],
): (shown: string) => string {
  const of = new Map<string, string>()
  for (const e of entries) {
    const s = e.name ?? e.scheduler
    if (s && !of.has(e.label)) of.set(e.label, s)
  }
  return (shown) => colourOf(shown, of.get(entryLabel(shown)))
}

/**
 * A library run set's colour: its label's, as the results page shows it (a real or imported
 * set as "label (real)"), so a set looks the same in the library as in its comparison.
 */
export function setColour(facts: { label: string; scheduler: string; kind: string }): string {
  return colourOf(facts.kind === 'simulated' ? facts.label : `${facts.label}${REAL}`, facts.scheduler)
}
