// A byte count as a person writes it in a fio job file: `bs=128k`, `size=256m`, `offset=3g`,
// where the lab's exact numbers were `131072`, `268435456`, `3221225472`. fio reads both alike:
// with its default kb_base=1024 a k is 1024 bytes, an m 1024², a g 1024³, a t 1024⁴
// (fio's HOWTO, "Parameter types": "With kb_base=1024 (the default), the unit prefixes are
// opposite from those specified in the SI and IEC 80000-13 standards", and parse.c's
// get_mult_bytes; `fio --parse-only --debug=parse` shows `bs=128k` parsed `out=131072`).

/** The options whose values are byte counts (fio's OPT_ULL / OPT_STR_VAL_ZONE sizes). */
const SIZES = new Set(['bs', 'offset', 'size', 'io_size'])

const SUFFIXES: [string, number][] = [
  ['t', 1024 ** 4],
  ['g', 1024 ** 3],
  ['m', 1024 ** 2],
  ['k', 1024],
]

/**
 * `value` with fio's largest suffix that divides it exactly (the number unchanged otherwise: 0,
 * 1536, or any option that is not a size).
 */
export function fioValue(option: string, value: string): string {
  if (!SIZES.has(option) || !/^\d+$/.test(value)) return value
  const n = Number(value)
  if (n === 0 || !Number.isSafeInteger(n)) return value
  for (const [s, m] of SUFFIXES) if (n % m === 0) return `${n / m}${s}`
  return value
}
