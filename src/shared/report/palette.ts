// One colour per scheduler, the same in the app's table, every chart, the library and the HTML
// report: a scheduler's colour is a function of its name only, never of a row's place, so
// "deadline" is orange whether it is the first of two rows or the fifth of nine. A label variant
// of a scheduler ("bfq (slice_idle=0)", "deadline-fb4", "deadline (real)") gets one of a few
// shades of its scheduler's colour (palette-shades.ts), picked by its label; rows shown together
// (stylesFor) never share a shade while their scheduler has a free one, and once its shades are
// taken, the next variants add a mark (marks.ts), so that no two look the same.
//
// Every colour, shades included, keeps at least 3:1 against the light and the dark theme's page
// and panel (WCAG 2.x non-text contrast, success criterion 1.4.11,
// https://www.w3.org/TR/WCAG21/#non-text-contrast): a line or swatch shows on either theme. That
// leaves a narrow band of brightness (OKLCH lightness about 0.53–0.65), so schedulers differ by
// hue and the shades of one by lightness, chroma and a turn of at most SHADE_HUE_TURN degrees.
import { MARKS } from './marks'
import type { RowStyle } from './marks'
import { shadeSet, VARIANT_SHADES } from './palette-shades'

export { MIN_CONTRAST, MIN_SHADE_DIFFERENCE, SHADE_HUE_TURN, VARIANT_SHADES } from './palette-shades'
export type { RowStyle } from './marks'

/**
 * The schedulers the lab models, each a hue of its own in OKLCH (lightness 0.56–0.63): kin (noop /
 * none, deadline / mq-deadline, cfq / bfq) are near but distinct. The hues of Okabe–Ito's
 * colour-blind-safe set for the schedulers most often compared (blue, orange, vermillion, reddish
 * purple, bluish green), darkened or lightened into the band that reads on both themes.
 */
export const SCHEDULER_COLOURS: Readonly<Record<string, string>> = {
  noop: '#3077CD', // blue (OKLCH 0.57 0.15 255)
  none: '#1096C2', // lighter, greener blue: blk-mq's own no-op (0.63 0.12 228)
  deadline: '#BE7100', // orange (0.62 0.14 65)
  'mq-deadline': '#CA4B20', // vermillion (0.58 0.17 38)
  anticipatory: '#B7589F', // reddish purple (0.60 0.15 338)
  cfq: '#089868', // bluish green (0.60 0.13 162)
  bfq: '#845DC8', // violet (0.57 0.16 298)
  kyber: '#D73F6A', // raspberry (0.60 0.19 8)
  row: '#918112', // olive ochre (0.60 0.12 100)
  fcfs: '#808080', // grey (0.60 0 –)
  sstf: '#56932B', // leaf green (0.60 0.15 135)
  scan: '#008683', // teal (0.56 0.10 192)
  look: '#B05454', // brick (0.56 0.12 22)
  'c-look': '#757CD3', // periwinkle (0.62 0.13 278)
}

/** Kernel aliases of the names above. */
const ALIASES: Readonly<Record<string, string>> = { as: 'anticipatory' }

/**
 * For a name the lab does not model (an imported run's "unknown" …): one of these, by its name.
 * Muted (OKLCH 0.59, chroma 0.07, hues 15° … 320°), so they do not pass for a modelled one.
 */
export const OTHER_COLOURS: readonly string[] = [
  '#A36C70',
  '#9C7352',
  '#7F814F',
  '#5F8967',
  '#488B83',
  '#5583A3',
  '#7C76A4',
  '#907097',
]

/** A scheduler's canonical name, or null when it is not one the lab models. */
export function canonicalScheduler(name: string): string | null {
  const n = name.trim().toLowerCase()
  if (n in SCHEDULER_COLOURS) return n
  return ALIASES[n] ?? null
}

/**
 * The scheduler a label names when nothing else says: the longest scheduler name or alias the
 * label starts with, followed by nothing or by a character that cannot continue a name
 * ("bfq (slice_idle=0)", "deadline-fb4", "cfq_v1" → bfq, deadline, cfq). Null when none does.
 */
export function schedulerOfLabel(label: string): string | null {
  const l = label.trim().toLowerCase()
  let best: string | null = null
  for (const name of [...Object.keys(SCHEDULER_COLOURS), ...Object.keys(ALIASES)]) {
    if (!l.startsWith(name)) continue
    const next = l.charAt(name.length)
    if (next !== '' && /[a-z]/.test(next)) continue // "nonesuch" is not "none"
    if (best === null || name.length > best.length) best = name
  }
  return best === null ? null : canonicalScheduler(best)
}

/** FNV-1a, 32 bits: a small hash that is the same everywhere. */
function hash(s: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/** A scheduler's own colour: the table's for the names it models, else one picked by the name. */
export function baseColour(scheduler: string): string {
  const c = canonicalScheduler(scheduler)
  if (c) return SCHEDULER_COLOURS[c]
  return OTHER_COLOURS[hash(scheduler.trim().toLowerCase()) % OTHER_COLOURS.length]
}

/** How a label is coloured: its scheduler's base colour, and whether it is the scheduler's own row. */
function partsOf(label: string, scheduler?: string): { base: string; key: string; own: boolean; l: string } {
  const sched = scheduler ?? schedulerOfLabel(label) ?? label
  const key = canonicalScheduler(sched) ?? sched.trim().toLowerCase()
  const l = label.trim().toLowerCase()
  return { base: baseColour(sched), key, own: l === '' || l === key || canonicalScheduler(l) === key, l }
}

const shadeSets = new Map<string, readonly string[]>()

/**
 * A base colour and its variants' shades (palette-shades.ts), each nearer its own scheduler's
 * colour than any other modelled scheduler's; worked out once a colour.
 */
export function shadesOf(base: string): readonly string[] {
  let s = shadeSets.get(base)
  if (!s) shadeSets.set(base, (s = shadeSet(base, Object.values(SCHEDULER_COLOURS))))
  return s
}

/** The shade a variant's label asks for (1 … VARIANT_SHADES; 0 is the scheduler's own colour). */
const preferredShade = (l: string, shades: number): number => 1 + (hash(l) % (shades - 1))

/**
 * The colour of a row, series or run set shown on its own: its scheduler's colour when the label is
 * the scheduler's own name (or there is no label), else the shade its label asks for. `scheduler`
 * defaults to the one the label names (see schedulerOfLabel); a label naming none is coloured as
 * a scheduler of that name. Rows shown together take their colours from paletteFor, which gives
 * the same colour unless two variants of one scheduler would share a shade.
 */
export function schedulerColour(label: string, scheduler?: string): string {
  const { base, own, l } = partsOf(label, scheduler)
  if (own) return base
  const shades = shadesOf(base)
  return shades[preferredShade(l, shades.length)]
}

const REAL = ' (real)'

/** Simulated labels before real ones ("deadline (real)"), each kind in code-point order. */
const byShownOrder = (a: string, b: string): number =>
  Number(a.endsWith(REAL)) - Number(b.endsWith(REAL)) || (a < b ? -1 : a > b ? 1 : 0)

/**
 * The look of the `j`-th variant (from 0) of one scheduler once its shades are taken: each of the
 * marks in turn, on its first shades and then its own colour, shifted by one colour each round, so
 * that the marked rows differ by their marks first and every pair (shade, mark) comes once.
 */
function overflowStyle(shades: readonly string[], j: number): RowStyle {
  const order = [...shades.slice(1), shades[0]]
  const marks = MARKS.length - 1
  const round = Math.floor(j / marks)
  return { colour: order[(j + round) % order.length], mark: 1 + (j % marks) }
}

/** How many variants of one scheduler shown together look different: shades, then shades × marks. */
export const DISTINCT_VARIANTS = VARIANT_SHADES + (VARIANT_SHADES + 1) * (MARKS.length - 1)

/**
 * Looks for rows shown together (a comparison's table and charts, a library comparison, a report):
 * each row as schedulerColour colours it, except that variants of one scheduler never share a
 * shade while one is free. Variants take their shades in the order of their labels (code points;
 * real runs' "… (real)" after the simulated ones, so that a real run coming in never moves a
 * simulated row's look), each the one it asks for or else the next free one, so the result
 * depends on which labels are shown, never on their order. From VARIANT_SHADES + 1 variants of one
 * scheduler on, the colour space has no more shades that keep the rules above: the later variants
 * take a shade again with a mark (marks.ts: a dash and a marker in charts, a shape in tables), so
 * that up to DISTINCT_VARIANTS variants of one scheduler all look different. Every other row has
 * mark 0. A label not among `rows` is styled as schedulerColour colours it, mark 0.
 */
export function stylesFor(
  rows: readonly { label: string; scheduler?: string }[],
): (label: string, scheduler?: string) => RowStyle {
  const groups = new Map<string, { base: string; labels: Set<string> }>()
  for (const r of rows) {
    const p = partsOf(r.label, r.scheduler)
    if (p.own) continue
    const g = groups.get(p.key) ?? { base: p.base, labels: new Set<string>() }
    g.labels.add(p.l)
    groups.set(p.key, g)
  }
  const chosen = new Map<string, RowStyle>()
  for (const [key, g] of groups) {
    const shades = shadesOf(g.base)
    const n = shades.length - 1
    const taken = new Set<number>()
    ;[...g.labels].sort(byShownOrder).forEach((l, k) => {
      let style: RowStyle
      if (k < n) {
        let i = preferredShade(l, shades.length)
        while (taken.has(i)) i = 1 + (i % n)
        taken.add(i)
        style = { colour: shades[i], mark: 0 }
      } else style = overflowStyle(shades, k - n)
      chosen.set(`${key}\u0000${l}`, style)
    })
  }
  return (label, scheduler) => {
    const p = partsOf(label, scheduler)
    if (p.own) return { colour: p.base, mark: 0 }
    return chosen.get(`${p.key}\u0000${p.l}`) ?? { colour: schedulerColour(label, scheduler), mark: 0 }
  }
}

/** The colours of stylesFor's looks, for what draws no mark. */
export function paletteFor(
  rows: readonly { label: string; scheduler?: string }[],
): (label: string, scheduler?: string) => string {
  const style = stylesFor(rows)
  return (label, scheduler) => style(label, scheduler).colour
}

/** `#rrggbb` with an alpha, as rgba(). */
export function withAlpha(hex: string, alpha: number): string {
  const n = parseInt(hex.slice(1), 16)
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`
}

/**
 * The colour of each part of a process's time (metrics/why.ts TIME_PARTS) in the stacked bars of
 * the app's Why panel and the HTML report. Each stands out at 3:1 or more against both themes'
 * page and panel (WCAG 2.x non-text contrast, 1.4.11), as the scheduler colours do, and any two
 * differ by CIEDE2000 ≥ 13, so that neighbouring segments stay apart: OKLCH lightness 0.56–0.65,
 * hues after Tableau 10's. Blocked on reads and writes are the warm ones people look for first;
 * time on or waiting for a CPU the blues; think a grey and other a warm grey. (Until 2026-12-06
 * runnable #8CB7E0 and fault #EDC948 were under 2:1 on white.)
 */
export const TIME_PART_COLOURS: Readonly<Record<string, string>> = {
  cpu: '#3A75BF',
  runnable: '#2E95B1',
  read: '#D76F04',
  write: '#CC3D3D',
  throttled: '#9E5CAD',
  sync: '#419547',
  fault: '#A38902',
  think: '#808080',
  other: '#876F5D',
}
