import type { SweepSpec } from '../api/sweep'
import type { Mechanism } from '../experiment/explain'

/**
 * A gallery entry: a ready experiment (one or more variants, each a spec, optionally swept along
 * a parameter), a page on what it shows, the figures published for it, and the claims the
 * simulation must meet to count as reproducing it.
 */
export interface GalleryEntry {
  name: string
  /** Place in the gallery's listing. */
  order: number
  title: string
  /** Where the measurement comes from. */
  source: string
  /** A short page (Markdown) on what it shows. */
  about: string
  variants: GalleryVariant[]
  published: PublishedFigure[]
  /** The comparison the published result is about, and the mechanism it shows. */
  explain?: GalleryExplain
  claims: Claim[]
}

/** One variant's runs of one scheduler label (at one value of a swept variant). */
export interface RunRef {
  variant: string
  label: string
  value?: string | number | boolean
}

/**
 * What a published result is about: the process it measured, the worse and the better run as the
 * publication compared them, and the mechanism it shows (the one the reproduction's explanation,
 * computed from the simulated figures, must name); `about` says it in words, with the source.
 */
export interface GalleryExplain {
  process: string
  worse: RunRef
  better: RunRef
  mechanism: Mechanism
  about: string
}

export interface GalleryVariant {
  id: string
  title: string
  spec: unknown
  /** Run the spec once per value of a parameter (e.g. dd's block size). */
  sweep?: SweepSpec
}

/**
 * Names one number in the results: a metric of a process (or one of its phases) or of the
 * device, in one variant's run of one scheduler label (and, for a swept variant, one value).
 */
export interface MetricRef {
  variant: string
  label: string
  /** For a swept variant: the value of the swept parameter. */
  value?: string | number | boolean
  process?: string
  phase?: string
  metric: Metric
}

export type Metric =
  | 'seconds'
  | 'MBps'
  | 'opsPerSecond'
  | 'bytes'
  | 'bytesPerSecond'
  | 'readMBps'
  | 'writeMBps'
  | 'p50Ms'
  | 'p99Ms'
  | 'maxMs'
  /** Device only: a simulated disk's total head movement (DeviceTotals.seekCylinders). */
  | 'seekCylinders'

export interface PublishedFigure extends MetricRef {
  value_published: number
  unit: string
}

/** A claim: a relation between simulated numbers that the published measurement shows. */
export type Claim = { id: string; text: string } & (
  | { kind: 'ratio'; a: MetricRef; b: MetricRef; min?: number; max?: number }
  | { kind: 'range'; x: MetricRef; min?: number; max?: number }
  | { kind: 'between'; x: MetricRef; lo: MetricRef; hi: MetricRef }
  | { kind: 'close'; a: MetricRef; b: MetricRef; tolerance: number }
)

export interface ClaimVerdict {
  id: string
  text: string
  pass: boolean
  /** What was compared, with the numbers. */
  detail: string
}
