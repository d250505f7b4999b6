import { describe, expect, it } from 'vitest'
import { deviceServiceTimes, parseBlkparse } from '../../src/shared/formats/blkparse'

export const SAMPLE = `  8,0    3        1     0.000000000   697  Q  WS 223490 + 8 [kjournald]
  8,0    3        2     0.000004379   697  G  WS 223490 + 8 [kjournald]
  8,0    3        3     0.000005882   697  P   N [kjournald]
  8,0    3        4     0.000008000   697  I  WS 223490 + 8 [kjournald]
  8,0    3        5     0.000010000   697  D  WS 223490 + 8 [kjournald]
  8,0    1        1     0.000500000  1234  Q   R 1000 + 256 [cat]
  8,0    1        2     0.000510000  1234  D   R 1000 + 256 [cat]
  8,0    1        3     0.004010000     0  C  WS 223490 + 8 [0]
  8,0    1        4     0.009010000     0  C   R 1000 + 256 [0]
  8,0    1        5     0.010000000  1234  Q   R 1256 + 256 [cat]
  8,0    1        6     0.010010000  1234  D   R 1256 + 256 [cat]
  8,0    1        7     0.013010000     0  C   R 1256 + 256 [0]
CPU0 (8,0):
 Reads Queued:           2,      256KiB	 Writes Queued:           1,        4KiB
`

describe('blkparse text', () => {
  it('reads the Q, D and C events and skips the rest and the summary', () => {
    const e = parseBlkparse(SAMPLE)
    expect(e.map((x) => `${x.action} ${x.rwbs} ${x.sector}+${x.nsect} ${x.pid}`)).toEqual([
      'Q WS 223490+8 697',
      'D WS 223490+8 697',
      'Q R 1000+256 1234',
      'D R 1000+256 1234',
      'C WS 223490+8 0',
      'C R 1000+256 0',
      'Q R 1256+256 1234',
      'D R 1256+256 1234',
      'C R 1256+256 0',
    ])
    expect(e[0]).toMatchObject({ time: 0, process: 'kjournald', line: 1 })
  })

  it('pairs D with C for the device service times', () => {
    const t = deviceServiceTimes(parseBlkparse(SAMPLE)).map((x) => Math.round(x * 1e6))
    expect(t).toEqual([4000, 8500, 3000])
  })

  it('names the line and the problem of a malformed event', () => {
    expect(() => parseBlkparse('  8,0 1 1 0.1 42 Q R banana\n')).toThrow(
      /line 1: expected "sector \+ nsectors" after "Q R"/,
    )
    expect(() => parseBlkparse('\n  8,0 1 1 zero 42 Q R 1 + 8\n')).toThrow(
      /line 2: not a blkparse event line/,
    )
  })
})
