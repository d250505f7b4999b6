// Dates and times as the lab writes them everywhere — the app, the reports, the command line —
// whatever the browser's or the system's locale and zone: ISO 8601's order, to the minute, in UTC
// and saying so, `2026-12-05 23:08 UTC`. One string for one moment wherever it is shown (a browser
// on another continent than the lab it talks to, a report mailed on), and the day the library's
// date filters take (`YYYY-MM-DD`, a UTC day) is the day it shows.

const two = (n: number): string => String(n).padStart(2, '0')

/**
 * `iso` (any string Date reads) in UTC, or at `offsetMinutes` east of it (`+01:00`); the string
 * unchanged when it is not a date.
 */
export function dateTime(iso: string, offsetMinutes = 0): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return iso
  const t = new Date(d.getTime() + offsetMinutes * 60_000)
  const day = `${t.getUTCFullYear()}-${two(t.getUTCMonth() + 1)}-${two(t.getUTCDate())}`
  const off = Math.abs(offsetMinutes)
  const zone =
    offsetMinutes === 0
      ? 'UTC'
      : `${offsetMinutes < 0 ? '-' : '+'}${two(Math.floor(off / 60))}:${two(off % 60)}`
  return `${day} ${two(t.getUTCHours())}:${two(t.getUTCMinutes())} ${zone}`
}
