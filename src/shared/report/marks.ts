// The second channel that tells apart variants of one scheduler once its shades run out
// (palette.ts): a line's dash and a point's marker in charts, a swatch's shape in tables. The band
// of brightness that reads on both themes leaves room for only VARIANT_SHADES shades of a hue at
// CIEDE2000 ≥ MIN_SHADE_DIFFERENCE (palette-shades.ts); a fourth variant of a scheduler takes a
// shade again, with a mark of its own, so that no two rows shown together look the same.
//
// Mark 0 is the plain one every scheduler's own row and its first shades have: a solid line
// without points, a square swatch. The others pair a dash with a marker of a distinct shape, so
// each reads on a line chart (dash), a scatter or a legend (marker) and a table (the swatch cut
// to the marker's shape), as seekwatcher and gnuplot tell series apart beyond their colours.

/** How a series or row with a mark is drawn. */
export interface Mark {
  /** Its name, as a legend or a title says it. */
  name: string
  /** A line's dash (SVG stroke-dasharray and canvas setLineDash, px); [] is solid. */
  dash: readonly number[]
  /** A point's marker (Chart.js pointStyle names); 'line' for none. */
  point: 'line' | 'triangle' | 'circle' | 'rectRot' | 'crossRot' | 'star'
  /** The swatch's shape as a CSS clip-path (none for the square). */
  clip: string
}

export const MARKS: readonly Mark[] = [
  { name: 'solid', dash: [], point: 'line', clip: 'none' },
  { name: 'dashed, triangles', dash: [8, 4], point: 'triangle', clip: 'polygon(50% 0, 100% 100%, 0 100%)' },
  { name: 'dotted, circles', dash: [2, 3], point: 'circle', clip: 'circle(50%)' },
  {
    name: 'dash-dot, diamonds',
    dash: [8, 3, 2, 3],
    point: 'rectRot',
    clip: 'polygon(50% 0, 100% 50%, 50% 100%, 0 50%)',
  },
  {
    name: 'long dashes, crosses',
    dash: [14, 4],
    point: 'crossRot',
    clip: 'polygon(20% 0, 50% 30%, 80% 0, 100% 20%, 70% 50%, 100% 80%, 80% 100%, 50% 70%, 20% 100%, 0 80%, 30% 50%, 0 20%)',
  },
]

/** The mark a number names (any number: beyond the last, they repeat). */
export const markOf = (mark: number): Mark => MARKS[Math.abs(Math.trunc(mark)) % MARKS.length]

/** A row's or series' look: its colour and its mark (0: plain). */
export interface RowStyle {
  colour: string
  mark: number
}

/** The CSS a swatch's style adds for a mark: its shape (nothing for the plain square). */
export const swatchClip = (mark: number): string => (mark === 0 ? '' : `;clip-path:${markOf(mark).clip}`)
