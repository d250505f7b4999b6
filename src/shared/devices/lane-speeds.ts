/** Lane speeds for a parallelism p: ⌊p⌋ lanes at full speed, and one at p − ⌊p⌋ if any. */
export function laneSpeeds(p: number): Float64Array {
  const whole = Math.floor(p + 1e-9)
  const frac = p - whole
  const n = whole + (frac > 1e-9 ? 1 : 0)
  const s = new Float64Array(Math.max(1, n))
  for (let i = 0; i < s.length; i++) s[i] = i < whole ? 1 : frac
  if (whole === 0) s[0] = Math.max(frac, 1e-3)
  return s
}
