// Colours in the app: the shared palette (src/shared/report/palette.ts, the HTML report's too),
// a scheduler's colour fixed by its name and a label variant's shade by its label (among the
// labels shown with it, so that two variants never share one; past a scheduler's shades, a mark,
// marks.ts), so a row, its series in every chart and its run set in the library look the same
// wherever they are.
import { MARKS } from '../../../shared/report/marks'
import type { RowStyle } from '../../../shared/report/marks'
import { baseColour, schedulerColour, shadesOf, stylesFor } from '../../../shared/report/palette'

export { withAlpha } from '../../../shared/report/palette'
export type { RowStyle } from '../../../shared/report/marks'

/** A swatch's CSS: its colour, cut to its mark's shape (a square for the plain mark). */
export const swatchStyle = (s: RowStyle): Record<string, string> =>
  s.mark === 0
    ? { background: s.colour }
    : { background: s.colour, clipPath: MARKS[s.mark % MARKS.length].clip, borderRadius: '0' }

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

type Entry = { label: string; name?: string; scheduler?: string; source?: string }

/**
 * A style function (colour and mark) for shown labels that looks each label's scheduler up in
 * `entries` (a spec's scheduler entries, runs or summary rows: anything with a label and a
 * scheduler name); the labels shown together are the entries' (a real one's as "label (real)"), so
 * that variants of one scheduler get shades, and past its shades marks, of their own.
 */
export function stylesOf(entries: readonly Entry[]): (shown: string) => RowStyle {
  const of = new Map<string, string>()
  const rows: { label: string; scheduler?: string }[] = []
  for (const e of entries) {
    const s = e.name ?? e.scheduler
    if (s && !of.has(e.label)) of.set(e.label, s)
    rows.push({ label: e.source === 'real' ? `${e.label}${REAL}` : e.label, scheduler: s })
  }
  const styles = stylesFor(rows)
  return (shown) => styles(shown, of.get(entryLabel(shown)))
}

/** stylesOf's colours alone. */
export function coloursFor(entries: readonly Entry[]): (shown: string) => string {
  const styles = stylesOf(entries)
  return (shown) => styles(shown).colour
}

export type SetFacts = { label: string; scheduler: string; kind: string }

/** A session's run sets as its colours need them (what a pick remembers of its siblings). */
export const siblingsOf = (sets: readonly SetFacts[]): SetFacts[] =>
  sets.map(({ label, scheduler, kind }) => ({ label, scheduler, kind }))

/** A library run set's label as the results page shows it: a real or imported set as "label (real)". */
const setLabel = (facts: SetFacts): string =>
  facts.kind === 'simulated' ? facts.label : `${facts.label}${REAL}`

/**
 * Styles for library run sets shown together: each set's label's, as the results page shows it,
 * so a set looks the same in the library as in its comparison.
 */
export function setStyles(sets: readonly SetFacts[]): (facts: SetFacts) => RowStyle {
  const styles = stylesFor(sets.map((f) => ({ label: setLabel(f), scheduler: f.scheduler })))
  return (facts) => styles(setLabel(facts), facts.scheduler)
}

/** A picked run set: where it is, what it is, and its session's sets (PickedSet in the library store). */
type Pick = { path: string; facts: SetFacts; siblings?: readonly SetFacts[] }

/** A look's key: its colour and mark. */
const lookKey = (s: RowStyle): string => `${s.colour}/${s.mark}`

/**
 * Styles for run sets picked from sessions and compared: each as its own session's results page
 * shows it (among its siblings, or the picks of its session when they are not known); where two
 * sets of different labels would then look alike (variants of one scheduler from two sessions),
 * the later in pick order takes a look of its scheduler's not in use: a free shade, else a shade
 * with a free mark. `(path, facts)` → style.
 */
export function pickStyles(picks: readonly Pick[]): (path: string, facts: SetFacts) => RowStyle {
  const key = (path: string, f: SetFacts): string => `${path}\u0000${setLabel(f)}`
  const out = new Map<string, RowStyle>()
  const holder = new Map<string, string>() // look → the shown label that has it
  for (const p of picks) {
    const context = p.siblings ?? picks.filter((q) => q.path === p.path).map((q) => q.facts)
    let c = setStyles([...context, p.facts])(p.facts)
    const shown = setLabel(p.facts).trim().toLowerCase()
    const had = holder.get(lookKey(c))
    if (had !== undefined && had !== shown) {
      const shades = shadesOf(baseColour(p.facts.scheduler))
      const looks = MARKS.flatMap((_, mark) =>
        (mark === 0 ? shades.slice(1) : [...shades.slice(1), shades[0]]).map((colour) => ({ colour, mark })),
      )
      const free = looks.find((s) => !holder.has(lookKey(s)))
      if (free) c = free
    }
    if (!holder.has(lookKey(c))) holder.set(lookKey(c), shown)
    out.set(key(p.path, p.facts), c)
  }
  return (path, facts) => out.get(key(path, facts)) ?? setStyles([facts])(facts)
}
