// The shades a scheduler's label variants take (palette.ts): a few colours of the scheduler's
// hue, each readable on both themes and clearly apart from the others.
//
// - Readable: at least MIN_CONTRAST (3:1, WCAG 2.x non-text contrast, success criterion 1.4.11,
//   https://www.w3.org/TR/WCAG21/#non-text-contrast) against the light and the dark theme's page
//   and panel (theme.ts), by WCAG's relative luminance.
// - The same hue: OKLCH hue within SHADE_HUE_TURN degrees of the scheduler's colour, chroma
//   0.6–1.2 times its own (a grey's shades are faint tints), and nearer (CIEDE2000) its own
//   scheduler's colour than any other scheduler's, so a shade never passes for a kin's colour.
// - Apart: chosen one after another, each the candidate farthest (CIEDE2000) from the colours
//   already chosen, starting from the scheduler's own; every pair of them then differs by at least
//   MIN_SHADE_DIFFERENCE (test/report/palette.test.ts checks it for every scheduler).
//
// Only hex strings decide a choice, and ties go to the first candidate, so the shades are the same
// in the app, the CLI and the report.
import { contrastRatio, deltaE2000, hexOfOklch, labOf, oklchOf } from './colour-space'
import { DARK, LIGHT } from './theme'

/** WCAG 2.x's least contrast for graphical objects (1.4.11). */
export const MIN_CONTRAST = 3

/** Shades a scheduler's variants may take, beside its own colour. */
export const VARIANT_SHADES = 3

/** Least CIEDE2000 difference between any two colours of one scheduler (its own and its shades). */
export const MIN_SHADE_DIFFERENCE = 9

/** Most a shade's OKLCH hue turns from its scheduler's colour, degrees. */
export const SHADE_HUE_TURN = 25

/** The backgrounds every colour must stand out from: each theme's page and panel. */
export const BACKGROUNDS: readonly string[] = [LIGHT.panel, LIGHT.bg, DARK.panel, DARK.bg]

/** The least contrast of a colour against the backgrounds. */
export const leastContrast = (hex: string): number =>
  Math.min(...BACKGROUNDS.map((b) => contrastRatio(hex, b)))

/** Below this chroma a colour is grey, and its shades are tints of a few hues. */
const GREY = 0.02

/** Turn from one hue to another, degrees, 0 … 180. */
const turnOf = (a: number, b: number): number => Math.abs(((a - b + 540) % 360) - 180)

/** Candidates of the same hue as `base`: OKLCH lightness 0.5 … 0.7, across the readable band. */
function candidates(base: string): string[] {
  const { c, h } = oklchOf(base)
  const out: string[] = []
  for (let step = 0; step <= 20; step++)
    for (const share of [0.6, 0.8, 1, 1.2])
      for (let turn = -SHADE_HUE_TURN; turn <= SHADE_HUE_TURN; turn += 5) {
        // a grey's shades: faint tints all round the wheel
        const hex =
          c < GREY
            ? hexOfOklch({ l: 0.5 + 0.01 * step, c: 0.04 * share, h: 200 + turn * 9 })
            : hexOfOklch({ l: 0.5 + 0.01 * step, c: c * share, h: h + turn })
        // a hair above the least contrast, so that no rounding takes a shade below it; the hue
        // as rounded to 8 bits (a faint colour's turns a few degrees more)
        if (
          leastContrast(hex) >= MIN_CONTRAST + 0.05 &&
          (c < GREY || turnOf(oklchOf(hex).h, h) <= SHADE_HUE_TURN)
        )
          out.push(hex)
      }
  return [...new Set(out)]
}

/**
 * `base` and VARIANT_SHADES shades of it, in the order they were chosen (the farthest first).
 * `schedulers` are every scheduler's colour: a shade stays nearer `base` than any of them.
 */
export function shadeSet(base: string, schedulers: readonly string[]): string[] {
  const others = schedulers.filter((s) => s !== base).map(labOf)
  const own = labOf(base)
  const pool = candidates(base)
    .map((hex) => ({ hex, lab: labOf(hex) }))
    .filter((x) => others.every((o) => deltaE2000(x.lab, o) > deltaE2000(x.lab, own)))
  const chosen = [{ hex: base, lab: own }]
  while (chosen.length <= VARIANT_SHADES && pool.length > 0) {
    let best = 0
    let far = -1
    pool.forEach((x, i) => {
      const d = Math.min(...chosen.map((y) => deltaE2000(x.lab, y.lab)))
      if (d > far) [far, best] = [d, i]
    })
    chosen.push(pool.splice(best, 1)[0])
  }
  return chosen.map((x) => x.hex)
}
