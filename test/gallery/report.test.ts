// What the app shows of a gallery entry: figures in their reading unit with simulated ÷ published,
// the entry before a run, its simulations, and the start page's summary of its page.
import { describe, expect, it } from 'vitest'
import { entryView, experimentsOf, figureRow, pageSummary } from '../../src/shared/gallery/report'
import type { GalleryEntry } from '../../src/shared/gallery/types'

describe('a figure row', () => {
  const ref = { variant: 'v', label: 'cfq', process: 'read', metric: 'MBps' as const }

  it('reads bytes/s as MB/s, both columns, with simulated ÷ published', () => {
    const r = figureRow(ref, 10_615_301, 12_000_000, 'bytes/sec')
    expect(r.unit).toBe('MB/s')
    expect(r.published).toBeCloseTo(10.615301, 9)
    expect(r.simulated).toBeCloseTo(12, 9)
    expect(r.ratio).toBeCloseTo(12 / 10.615301, 9)
    expect(r.figure).toBe('v/cfq read MBps')
  })

  it('has no ratio without a simulated value or against a published 0', () => {
    expect(figureRow(ref, 37, null, 'MB/s')).toMatchObject({ simulated: null, ratio: null, unit: 'MB/s' })
    expect(figureRow(ref, 37, Number.NaN, 'MB/s').simulated).toBeNull()
    expect(figureRow(ref, 0, 3, 'MB/s').ratio).toBeNull()
  })
})

describe('an entry before its run', () => {
  const entry: GalleryEntry = {
    name: 'e',
    order: 1,
    title: 'T',
    source: 'S',
    about: 'x.md',
    variants: [
      { id: 'a', title: 'A', spec: {} },
      { id: 'b', title: 'B', spec: {}, sweep: { path: 'x', values: [1, 2, 4] } },
    ],
    published: [{ variant: 'a', label: 'noop', metric: 'seconds', value_published: 3, unit: 's' }],
    claims: [
      {
        id: 'C1',
        text: 'fast',
        kind: 'range',
        x: { variant: 'a', label: 'noop', metric: 'seconds' },
        max: 5,
      },
    ],
  }

  it('lists its variants with their swept values, its published figures and its claims', () => {
    const v = entryView(entry, '# Page')
    expect(v.variants).toEqual([
      { id: 'a', title: 'A', values: null },
      { id: 'b', title: 'B', values: [1, 2, 4] },
    ])
    expect(v.figures).toEqual([expect.objectContaining({ published: 3, simulated: null, unit: 's' })])
    expect(v.claims).toEqual([{ id: 'C1', text: 'fast' }])
    expect(v.page).toBe('# Page')
    expect(experimentsOf(v)).toBe(4)
  })
})

describe('a page summary', () => {
  it('is the first paragraph in plain text, after headings, lists and tables', () => {
    const page =
      '# Title\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- item\n\nThe **first** `real` paragraph,\nwith a [link](https://x.org).\n\nSecond.'
    expect(pageSummary(page)).toBe('The first real paragraph, with a link.')
  })

  it('is cut at a word, with an ellipsis, when long', () => {
    const s = pageSummary(`${'word '.repeat(100)}end`, 40)
    expect(s.length).toBeLessThanOrEqual(40)
    expect(s).toMatch(/word …$/)
  })

  it('is the “What it shows” paragraph when the page has one, without its label', () => {
    const page = '# T\n\nIt was measured so:\n\n**What it shows: idleness.** The reader waits.\n\nMore.'
    expect(pageSummary(page)).toBe('Idleness. The reader waits.')
    expect(pageSummary('# T\n\nLead.\n\n**What it shows.** Flash has no seeks.')).toBe('Flash has no seeks.')
  })

  it('ends a paragraph that leads into a table or a command with an ellipsis', () => {
    expect(pageSummary('# T\n\nOn a disk, it ran:\n\n| a |\n|---|')).toBe('On a disk, it ran …')
    expect(pageSummary('# T\n\n    dd if=/dev/zero\n\nIt wrote.')).toBe('It wrote.')
  })

  it('is empty for a page without a paragraph', () => {
    expect(pageSummary('# Only a heading')).toBe('')
  })
})
