// One colour per scheduler entry, the same in every chart and in the table: Okabe–Ito's
// colour-blind-safe palette first, then a few more distinct hues.
const PALETTE = [
  '#0072B2', // blue
  '#E69F00', // orange
  '#009E73', // green
  '#CC79A7', // purple
  '#D55E00', // vermillion
  '#56B4E9', // sky
  '#8C6D1F', // brown
  '#7F7F7F', // grey
  '#1B9E77',
  '#E7298A',
]

export function colourOf(index: number): string {
  return PALETTE[((index % PALETTE.length) + PALETTE.length) % PALETTE.length]
}

/** `#rrggbb` with an alpha, as rgba(). */
export function withAlpha(hex: string, alpha: number): string {
  const n = parseInt(hex.slice(1), 16)
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`
}
