// Dates as the lab writes them in the app, the reports and the command line: ISO 8601's order to
// the minute, the zone said, whatever the locale.
import { describe, expect, it } from 'vitest'
import { dateTime } from '../../src/shared/util/date-time'

describe('dateTime', () => {
  it('writes a time in ISO order with its zone, at any offset', () => {
    expect(dateTime('2026-12-05T23:08:41.512Z', 0)).toBe('2026-12-05 23:08 UTC')
    expect(dateTime('2026-12-05T23:08:41.512Z', 60)).toBe('2026-12-06 00:08 +01:00')
    expect(dateTime('2026-03-01T02:30:00Z', -330)).toBe('2026-02-28 21:00 -05:30')
  })

  it('writes UTC unless told otherwise, whatever the zone it runs in, and leaves what is not a date', () => {
    expect(dateTime('2026-07-04T23:59:00+02:00')).toBe('2026-07-04 21:59 UTC')
    expect(dateTime('yesterday')).toBe('yesterday')
  })
})
