// Colours in the app: the shared palette (src/shared/report/palette.ts, the HTML report's too),
// a scheduler's colour fixed by its name and a label variant's shade by its label (among the
// labels shown with it, so that two variants never share one), so a row, its series in every chart
// and its run set in the library look the same wherever they are.
import { baseColour, paletteFor, schedulerColour, shadesOf } from '../../../shared/report/palette'

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
 * scheduler entries, runs or summary rows: anything with a label and a scheduler name); the
 * labels shown together are the entries' (a real one's as "label (real)"), so that variants of
 * one scheduler get shades of their own.
 */
export function coloursFor(
  entries: readonly { label: string; name?: string; scheduler?: string; source?: string }[],
): (shown: string) => string {
  const of = new Map<string, string>()
  const rows: { label: string; scheduler?: string }[] = []
  for (const e of entries) {
    const s = e.name ?? e.scheduler
    if (s && !of.has(e.label)) of.set(e.label, s)
    rows.push({ label: e.source === 'real' ? `${e.label}${REAL}` : e.label, scheduler: s })
  }
  const palette = paletteFor(rows)
  return (shown) => palette(shown, of.get(entryLabel(shown)))
}

export type SetFacts = { label: string; scheduler: string; kind: string }

/** A session's run sets as its colours need them (what a pick remembers of its siblings). */
export const siblingsOf = (sets: readonly SetFacts[]): SetFacts[] =>
  sets.map(({ label, scheduler, kind }) => ({ label, scheduler, kind }))

/** A library run set's label as the results page shows it: a real or imported set as "label (real)". */
const setLabel = (facts: SetFacts): string =>
  facts.kind === 'simulated' ? facts.label : `${facts.label}${REAL}`

/**
 * Colours for library run sets shown together: each set's label's, as the results page shows it,
 * so a set looks the same in the library as in its comparison.
 */
export function setColours(sets: readonly SetFacts[]): (facts: SetFacts) => string {
  const palette = paletteFor(sets.map((f) => ({ label: setLabel(f), scheduler: f.scheduler })))
  return (facts) => palette(setLabel(facts), facts.scheduler)
}

/** A picked run set: where it is, what it is, and its session's sets (PickedSet in the library store). */
type Pick = { path: string; facts: SetFacts; siblings?: readonly SetFacts[] }

/**
 * Colours for run sets picked from sessions and compared: each as its own session's results page
 * shows it (among its siblings, or the picks of its session when they are not known); where two
 * sets of different labels would then look alike (variants of one scheduler from two sessions),
 * the later in pick order takes a shade of its scheduler's not in use. `(path, facts)` → colour.
 */
export function pickColours(picks: readonly Pick[]): (path: string, facts: SetFacts) => string {
  const key = (path: string, f: SetFacts): string => `${path}\u0000${setLabel(f)}`
  const out = new Map<string, string>()
  const holder = new Map<string, string>() // colour → the shown label that has it
  for (const p of picks) {
    const context = p.siblings ?? picks.filter((q) => q.path === p.path).map((q) => q.facts)
    let c = setColours([...context, p.facts])(p.facts)
    const shown = setLabel(p.facts).trim().toLowerCase()
    const had = holder.get(c)
    if (had !== undefined && had !== shown) {
      const free = shadesOf(baseColour(p.facts.scheduler))
        .slice(1)
        .find((s) => !holder.has(s))
      if (free) c = free
    }
    if (!holder.has(c)) holder.set(c, shown)
    out.set(key(p.path, p.facts), c)
  }
  return (path, facts) => out.get(key(path, facts)) ?? setColours([facts])(facts)
}
