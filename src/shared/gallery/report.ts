// What the app shows of a gallery entry: the entry as it is before a run (its page, its published
// figures, its claims' texts), and the verdict after one (simulated beside published figures, each
// claim PASS or FAIL with its detail). Plain data, built from the same numbers as
// `iosched-lab reproduce` prints.
import type { GalleryExplanation } from './explain'
import type { SweepValue } from '../api/sweep'
import { describeRef } from './claims'
import { inReadingUnit } from './figure-unit'
import type { ClaimVerdict, GalleryEntry, MetricRef } from './types'

/** A gallery entry as the app shows it before it runs. */
export interface GalleryEntryView {
  name: string
  title: string
  source: string
  /** The entry's page, as Markdown. */
  page: string
  variants: { id: string; title: string; values: SweepValue[] | null }[]
  figures: FigureRow[]
  claims: { id: string; text: string }[]
}

/** One published figure beside its simulated counterpart, both in the unit people read it in. */
export interface FigureRow {
  /** Which number it is, for people: `lmdd-parallel/cfq read MBps`. */
  figure: string
  ref: MetricRef
  published: number
  /** null before a run, or when the run has no such number. */
  simulated: number | null
  unit: string
  /** simulated ÷ published; null when either is missing or the published figure is 0. */
  ratio: number | null
}

/** The verdict of a reproduction: the figures with their simulated values, and each claim judged. */
export interface ReproduceReport {
  name: string
  title: string
  source: string
  figures: FigureRow[]
  claims: ClaimVerdict[]
  /** Why the published comparison came out as it did, from the runs (the entry's `explain`). */
  explanation?: GalleryExplanation
  /** Claims that hold. */
  holding: number
  /** Every claim holds. */
  pass: boolean
  /** Simulations that failed (their runs are missing from the figures), with why. */
  failures: string[]
  wallSeconds: number
}

/** A published figure (and its simulated value, if any) as a row, in the unit people read it in. */
export function figureRow(
  ref: MetricRef,
  published: number,
  simulated: number | null,
  unit: string,
): FigureRow {
  const p = inReadingUnit(published, unit)
  const s = simulated === null || !Number.isFinite(simulated) ? null : inReadingUnit(simulated, unit).value
  return {
    figure: describeRef(ref),
    ref,
    published: p.value,
    simulated: s,
    unit: p.unit,
    ratio: s === null || p.value === 0 ? null : s / p.value,
  }
}

/** The entry as the app shows it before a run: simulated figures and verdicts not yet known. */
export function entryView(entry: GalleryEntry, page: string): GalleryEntryView {
  return {
    name: entry.name,
    title: entry.title,
    source: entry.source,
    page,
    variants: entry.variants.map((v) => ({
      id: v.id,
      title: v.title,
      values: v.sweep ? [...v.sweep.values] : null,
    })),
    figures: entry.published.map((p) => figureRow(p, p.value_published, null, p.unit)),
    claims: entry.claims.map((c) => ({ id: c.id, text: c.text })),
  }
}

/** The simulations an entry runs: one per variant, or one per value of a swept variant. */
export function experimentsOf(view: Pick<GalleryEntryView, 'variants'>): number {
  return view.variants.reduce((n, v) => n + (v.values?.length ?? 1), 0)
}

/**
 * A page's gist as plain text, for the start page's card: its "**What it shows…**" paragraph when
 * it has one (without the label), else its first paragraph; cut at a word with an ellipsis when
 * long, and a paragraph that leads into a table or a command (ending in `:` or `,`) ends in one too.
 */
export function pageSummary(page: string, max = 280): string {
  const paragraphs = page
    .replace(/\r\n/g, '\n')
    .split(/\n\s*\n/)
    // an indented block is code (a command), not prose
    .filter((p) => !/^\n*( {4}|\t)/.test(p))
    .map((p) => p.trim())
    .filter((p) => p && !/^(#|\||[-*] |\d+\. |```)/.test(p))
  const shows = paragraphs.find((p) => /^\*\*What it shows\b/.test(p))
  const chosen = shows ? shows.replace(/^\*\*What it shows[.:]\s*(.*?)\*\*/, '$1') : (paragraphs[0] ?? '')
  const text = chosen
    .replace(/\s+/g, ' ')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/[*_`]/g, '')
    .trim()
    .replace(/^[a-z]/, (c) => c.toUpperCase())
  if (text.length > max) return `${text.slice(0, max - 2).replace(/\s+\S*$/, '')} …`
  return text.replace(/\s*[:,]$/, ' …')
}
