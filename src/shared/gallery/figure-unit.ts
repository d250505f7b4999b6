// A published figure in the unit people read it in. Sources print rates their own way (dd of the
// 1990s: bytes/sec); the lab reads rates in MB/s (MB = 10^6 bytes, as everywhere in the lab).

/** Units shown as another: the unit it is read in and the factor to it. */
const READ_AS: Record<string, { unit: string; factor: number }> = {
  'bytes/s': { unit: 'MB/s', factor: 1e-6 },
  'bytes/sec': { unit: 'MB/s', factor: 1e-6 },
  'B/s': { unit: 'MB/s', factor: 1e-6 },
}

/** `value` in `unit` as people read it: 10615301 bytes/s is 10.6 MB/s; other units as they are. */
export function inReadingUnit(value: number, unit: string): { value: number; unit: string } {
  const to = READ_AS[unit]
  return to ? { value: value * to.factor, unit: to.unit } : { value, unit }
}
