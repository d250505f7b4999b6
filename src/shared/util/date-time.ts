// Dates and times as the lab writes them everywhere — the app, the reports, the command line —
// whatever the browser's or the system's locale: ISO 8601's order, to the minute, in the local
// zone with its offset said, `2026-12-05 23:08 UTC` or `2026-12-06 00:08 +01:00`.

const two = (n: number): string => String(n).padStart(2, '0')

/**
 * `iso` (any string Date reads) in the local zone, or at `offsetMinutes` east of UTC when given;
 * the string unchanged when it is not a date.
 */
export function dateTime(iso: string, offsetMinutes?: number): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return iso
  const off = offsetMinutes ?? -d.getTimezoneOffset()
  const t = new Date(d.getTime() + off * 60_000)
  const day = `${t.getUTCFullYear()}-${two(t.getUTCMonth() + 1)}-${two(t.getUTCDate())}`
  const zone =
    off === 0
      ? 'UTC'
      : `${off < 0 ? '-' : '+'}${two(Math.floor(Math.abs(off) / 60))}:${two(Math.abs(off) % 60)}`
  return `${day} ${two(t.getUTCHours())}:${two(t.getUTCMinutes())} ${zone}`
}
