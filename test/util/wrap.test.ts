// Wrapping the text reports and the CLI's explanations: at word boundaries, never between a
// figure and its unit.
import { describe, expect, it } from 'vitest'
import { wrap } from '../../src/shared/util/wrap'

describe('wrapping text', () => {
  it('breaks at spaces into lines of at most the width', () => {
    expect(wrap('one two three four', 9)).toBe('one two\nthree\nfour')
    expect(wrap('averyveryverylongword x', 5)).toBe('averyveryverylongword\nx')
  })

  it('keeps a figure with its unit: "99 %" and "4,074 ms" are never split over two lines', () => {
    // as `iosched-lab reproduce` printed the why: "… it spent 99\n  % of its time blocked …"
    const why =
      'Under lmdd-parallel/cfq the read took 17.1 s, against 13.1 s under lmdd-parallel/row; it spent 99 % of its time blocked on its reads (16.9 s), the writes waited 4,074 ms and 4,073 ms each'
    for (const width of [20, 30, 40, 58, 60, 76, 100]) {
      const lines = wrap(why, width).split('\n')
      for (const l of lines) expect(l, `width ${width}`).not.toMatch(/^(%|ms|s)\b/)
      expect(lines.join(' ')).toBe(why)
    }
    expect(wrap('aaaaaaa 99 % b', 10)).toBe('aaaaaaa\n99 % b')
    expect(wrap('x 2.5 MB/s, then', 6)).toBe('x\n2.5 MB/s,\nthen')
  })
})
