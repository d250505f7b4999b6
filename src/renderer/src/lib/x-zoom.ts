// Zooming and panning a chart's x axis (time): a range picked by dragging across the chart, moved
// by dragging with Shift held, left by a double click. Pure arithmetic on axis values; the card
// (ChartCard.vue) turns pointer positions into values with the chart's own scale.

export interface XRange {
  min: number
  max: number
}

/** A drag shorter than this (px) is a click, not a range. */
export const MIN_DRAG_PX = 5

/** The range between two points of the axis, in order; null when they are (nearly) one point. */
export function rangeBetween(a: number, b: number, full: XRange): XRange | null {
  const lo = Math.max(full.min, Math.min(a, b))
  const hi = Math.min(full.max, Math.max(a, b))
  const span = full.max - full.min
  return hi - lo > span * 1e-6 ? { min: lo, max: hi } : null
}

/**
 * The range moved by `delta` (axis units; positive: later), kept inside the full range with its
 * width unchanged.
 */
export function panned(r: XRange, delta: number, full: XRange): XRange {
  const width = r.max - r.min
  const min = Math.min(Math.max(r.min + delta, full.min), full.max - width)
  return { min, max: min + width }
}

/** Whether a range shows less than the whole axis. */
export const zoomedIn = (r: XRange | null, full: XRange): boolean =>
  r !== null && (r.min > full.min || r.max < full.max)
