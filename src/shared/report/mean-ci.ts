// A mean with its 95 % confidence half-width, printed no more precisely than the interval
// allows: the half-width rounded to one or two significant digits (two when its first digit is 1
// or 2, where rounding to one would move it by up to a third), the mean to the same decimal place.
// "48.61 ± 0.33", "1230 ± 40", never "0.0195 ± 0.00015" beside "7333 ± 4.3e-14": a half-width
// that is only floating-point noise on identical values is no interval, and says so.

/** Values differing by less than this share of their size are the same (floating-point noise). */
export const SAME_RELATIVE = 1e-9

/** Whether every value of a summary is the same: its repetitions cannot tell any spread. */
export function identicalValues(s: { n: number; min: number; max: number }): boolean {
  if (!(s.n >= 2) || !Number.isFinite(s.min) || !Number.isFinite(s.max)) return false
  return s.max - s.min <= SAME_RELATIVE * Math.max(Math.abs(s.min), Math.abs(s.max))
}

/**
 * The power of ten of the last digit to print of a half-width: its one or two significant digits
 * (two when it starts with 1 or 2, after rounding). NaN for a half-width that is not positive.
 */
export function ciPlace(ci: number): number {
  if (!(ci > 0) || !Number.isFinite(ci)) return NaN
  let e = Math.floor(Math.log10(ci))
  // log10 of 1000 may come out as 2.9999…: settle the decade on the digits themselves
  if (ci / 10 ** e >= 10) e++
  if (ci / 10 ** e < 1) e--
  const place = (exp: number): number => exp - (Math.floor(ci / 10 ** exp) <= 2 ? 1 : 0)
  let p = place(e)
  // 0.0996 rounds to 0.1: the next decade, which starts with a 1 and so keeps two digits (0.10)
  if (Math.round(ci / 10 ** p) * 10 ** p >= 10 ** (e + 1)) p = e
  return p
}

/** `x` rounded to the decimal place 10^place, as text ("−0" as "0"); thousands grouped when asked. */
export function atPlace(x: number, place: number, group = false): string {
  const decimals = Math.max(0, -place)
  const rounded = place > 0 ? Math.round(x / 10 ** place) * 10 ** place : x
  let text = group
    ? rounded.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals })
    : rounded.toFixed(decimals)
  if (/^-[0.,]*$/.test(text)) text = text.slice(1)
  return text
}

export interface MeanCiText {
  /** The mean, at the half-width's decimal place (or as `plain` gives it without an interval). */
  mean: string
  /** The rounded half-width; null when there is none to print. */
  ci: string | null
  /** Every repetition gave the same value: no interval, and the reader should be told why. */
  identical: boolean
}

export interface MeanCiOptions {
  /** How to print a mean that has no interval (one run, identical runs). */
  plain: (x: number) => string
  /** Group thousands ("1,230 ± 40"). */
  group?: boolean
}

/**
 * The parts of "mean ± ci" for a summary of `n` values (min and max tell identical values): the
 * half-width at one or two significant digits and the mean to its place; no interval for one
 * value, an interval that is not a number, or identical values (then `identical`).
 */
export function meanCiParts(
  s: { n: number; mean: number; ci95: number; min?: number; max?: number },
  o: MeanCiOptions,
): MeanCiText {
  const same =
    s.min !== undefined && s.max !== undefined
      ? identicalValues({ n: s.n, min: s.min, max: s.max })
      : s.n >= 2 && s.ci95 <= SAME_RELATIVE * Math.abs(s.mean)
  if (s.n >= 2 && same) return { mean: o.plain(s.mean), ci: null, identical: true }
  const place = ciPlace(s.ci95)
  if (s.n < 2 || !Number.isFinite(s.mean) || !Number.isFinite(place))
    return { mean: o.plain(s.mean), ci: null, identical: false }
  return { mean: atPlace(s.mean, place, o.group), ci: atPlace(s.ci95, place, o.group), identical: false }
}

/** "mean ± ci" as meanCiParts gives it: the mean alone when there is no interval to print. */
export function meanCi(
  s: { n: number; mean: number; ci95: number; min?: number; max?: number },
  o: MeanCiOptions,
): string {
  const t = meanCiParts(s, o)
  return t.ci === null ? t.mean : `${t.mean} ± ${t.ci}`
}
