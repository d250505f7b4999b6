import { describe, expect, it } from 'vitest'
import type { LoadedEntry, ReproduceResult } from '../../src/main/services/gallery-entries'
import { loadGalleryEntry } from '../../src/main/services/gallery-entries'
import { reproduceReport } from '../../src/cli/reproduce-text'

/**
 * What `reproduce` makes of an entry, without simulating: every published figure simulated at
 * `ratio` of its published value, the first `failing` claims failed and the others held.
 */
function judged({ entry }: LoadedEntry, failing = 0, ratio = 0.96): ReproduceResult {
  const claims = entry.claims.map((c, i) => ({
    id: c.id,
    text: c.text,
    pass: i >= failing,
    detail: i >= failing ? 'within bounds' : 'out of bounds',
  }))
  return {
    schema: 'iosched-lab/reproduce@1',
    name: entry.name,
    title: entry.title,
    source: entry.source,
    variants: [],
    published: entry.published.map((p) => ({
      ref: p,
      published: p.value_published,
      simulated: p.value_published * ratio,
      unit: p.unit,
    })),
    claims,
    pass: claims.every((c) => c.pass),
  }
}

describe('iosched-lab reproduce (text)', () => {
  it('gives figures published in bytes/s in MB/s (MB = 10^6 bytes), other units as they are', () => {
    const dd = reproduceReport(judged(loadGalleryEntry('dd-under-cpu-load-1997')))
    const row = dd.split('\n').find((l) => l.startsWith('idle[4k]/noop dd bytesPerSecond'))!
    // published 10615301 bytes/s, simulated at 96 % of it
    expect(row.trim().split(/\s{2,}/)).toEqual(['idle[4k]/noop dd bytesPerSecond', '10.2', '10.6', 'MB/s'])
    expect(dd).not.toMatch(/bytes\/s/)
    const book = reproduceReport(judged(loadGalleryEntry('textbook-disk-scheduling'), 0, 1))
    expect(book).toMatch(/queue\/fcfs seekCylinders\s+640\s+640\s+cylinders/)
  })
})
