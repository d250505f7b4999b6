// Colours as people see them, for choosing and checking the palette (palette.ts): sRGB hex to
// linear light, WCAG 2.x relative luminance and contrast ratio, Oklab/OKLCH (Björn Ottosson,
// "A perceptual color space for image processing", 2020, https://bottosson.github.io/posts/oklab/),
// CIELAB (D65) and the CIEDE2000 colour difference (CIE 142-2001; the formulas as in Sharma, Wu and
// Dalal, "The CIEDE2000 color-difference formula: implementation notes", 2005).

export type Rgb = readonly [number, number, number]

/** `#rrggbb` as sRGB channels 0 … 1. */
export function rgbOf(hex: string): Rgb {
  const n = parseInt(hex.slice(1), 16)
  return [((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255]
}

/** sRGB channels 0 … 1 (clipped) as `#RRGGBB`. */
export function hexOf(rgb: Rgb): string {
  const hex = (x: number): string =>
    Math.round(Math.min(1, Math.max(0, x)) * 255)
      .toString(16)
      .padStart(2, '0')
  return `#${hex(rgb[0])}${hex(rgb[1])}${hex(rgb[2])}`.toUpperCase()
}

/** An sRGB channel in linear light (IEC 61966-2-1; WCAG 2.x uses 0.03928, the same for 8 bits). */
const toLinear = (c: number): number => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)
const fromLinear = (c: number): number => (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055)

/** WCAG 2.x relative luminance, 0 (black) … 1 (white). */
export function luminance(hex: string): number {
  const [r, g, b] = rgbOf(hex).map(toLinear)
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

/** WCAG 2.x contrast ratio of two colours, 1 … 21 (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio). */
export function contrastRatio(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)]
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05)
}

/** OKLCH: lightness 0 … 1, chroma (0 … about 0.37 in sRGB), hue in degrees. */
export interface Oklch {
  l: number
  c: number
  h: number
}

/** Linear sRGB of an OKLCH colour; channels outside 0 … 1 are out of the sRGB gamut. */
function linearOfOklch({ l, c, h }: Oklch): Rgb {
  const a = c * Math.cos((h * Math.PI) / 180)
  const b = c * Math.sin((h * Math.PI) / 180)
  const l_ = (l + 0.3963377774 * a + 0.2158037573 * b) ** 3
  const m_ = (l - 0.1055613458 * a - 0.0638541728 * b) ** 3
  const s_ = (l - 0.0894841775 * a - 1.291485548 * b) ** 3
  return [
    4.0767416621 * l_ - 3.3077115913 * m_ + 0.2309699292 * s_,
    -1.2684380046 * l_ + 2.6097574011 * m_ - 0.3413193965 * s_,
    -0.0041960863 * l_ - 0.7034186147 * m_ + 1.707614701 * s_,
  ]
}

/** `#rrggbb` in OKLCH. */
export function oklchOf(hex: string): Oklch {
  const [r, g, b] = rgbOf(hex).map(toLinear)
  const l = Math.cbrt(0.4122214708 * r + 0.5363137134 * g + 0.0514459929 * b)
  const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b)
  const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
  const L = 0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s
  const A = 1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s
  const B = 0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s
  const h = (Math.atan2(B, A) * 180) / Math.PI
  return { l: L, c: Math.hypot(A, B), h: (h + 360) % 360 }
}

/** Whether an OKLCH colour is inside the sRGB gamut. */
export function inGamut(c: Oklch): boolean {
  return linearOfOklch(c).every((x) => x >= -1e-7 && x <= 1 + 1e-7)
}

/**
 * An OKLCH colour as `#RRGGBB`; outside the gamut its chroma is reduced until it fits (its
 * lightness and hue kept, as CSS Color 4's gamut mapping does in spirit).
 */
export function hexOfOklch(c: Oklch): string {
  let fit = c
  if (!inGamut(c)) {
    let [lo, hi] = [0, c.c]
    for (let i = 0; i < 30; i++) {
      const mid = (lo + hi) / 2
      if (inGamut({ ...c, c: mid })) lo = mid
      else hi = mid
    }
    fit = { ...c, c: lo }
  }
  return hexOf(linearOfOklch(fit).map(fromLinear) as unknown as Rgb)
}

/** CIELAB (D65 white, 2° observer) of `#rrggbb`. */
export function labOf(hex: string): Rgb {
  const [r, g, b] = rgbOf(hex).map(toLinear)
  const x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
  const y = 0.2126729 * r + 0.7151522 * g + 0.072175 * b
  const z = (0.0193339 * r + 0.119192 * g + 0.9503041 * b) / 1.08883
  const f = (t: number): number => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116)
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))]
}

/** CIEDE2000 difference of two CIELAB colours (kL = kC = kH = 1). About 1 is just noticeable. */
export function deltaE2000(lab1: Rgb, lab2: Rgb): number {
  const [L1, a1, b1] = lab1
  const [L2, a2, b2] = lab2
  const rad = Math.PI / 180
  const C1 = Math.hypot(a1, b1)
  const C2 = Math.hypot(a2, b2)
  const Cm = (C1 + C2) / 2
  const G = 0.5 * (1 - Math.sqrt(Cm ** 7 / (Cm ** 7 + 25 ** 7)))
  const a1p = (1 + G) * a1
  const a2p = (1 + G) * a2
  const C1p = Math.hypot(a1p, b1)
  const C2p = Math.hypot(a2p, b2)
  const hp = (a: number, b: number): number => (a === 0 && b === 0 ? 0 : (Math.atan2(b, a) / rad + 360) % 360)
  const h1p = hp(a1p, b1)
  const h2p = hp(a2p, b2)
  const dLp = L2 - L1
  const dCp = C2p - C1p
  let dhp = 0
  if (C1p * C2p !== 0) {
    dhp = h2p - h1p
    if (dhp > 180) dhp -= 360
    else if (dhp < -180) dhp += 360
  }
  const dHp = 2 * Math.sqrt(C1p * C2p) * Math.sin((dhp / 2) * rad)
  const Lpm = (L1 + L2) / 2
  const Cpm = (C1p + C2p) / 2
  let hpm = h1p + h2p
  if (C1p * C2p !== 0) {
    if (Math.abs(h1p - h2p) <= 180) hpm = (h1p + h2p) / 2
    else hpm = h1p + h2p < 360 ? (h1p + h2p + 360) / 2 : (h1p + h2p - 360) / 2
  }
  const T =
    1 -
    0.17 * Math.cos((hpm - 30) * rad) +
    0.24 * Math.cos(2 * hpm * rad) +
    0.32 * Math.cos((3 * hpm + 6) * rad) -
    0.2 * Math.cos((4 * hpm - 63) * rad)
  const dTheta = 30 * Math.exp(-(((hpm - 275) / 25) ** 2))
  const Rc = 2 * Math.sqrt(Cpm ** 7 / (Cpm ** 7 + 25 ** 7))
  const Sl = 1 + (0.015 * (Lpm - 50) ** 2) / Math.sqrt(20 + (Lpm - 50) ** 2)
  const Sc = 1 + 0.045 * Cpm
  const Sh = 1 + 0.015 * Cpm * T
  const Rt = -Math.sin(2 * dTheta * rad) * Rc
  return Math.sqrt((dLp / Sl) ** 2 + (dCp / Sc) ** 2 + (dHp / Sh) ** 2 + Rt * (dCp / Sc) * (dHp / Sh))
}

/** CIEDE2000 difference of two `#rrggbb` colours. */
export const colourDifference = (a: string, b: string): number => deltaE2000(labOf(a), labOf(b))
