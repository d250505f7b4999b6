import { describe, expect, it, vi } from 'vitest'
import type * as GalleryEntries from '../../src/main/services/gallery-entries'
import type { LoadedEntry, ReproduceResult } from '../../src/main/services/gallery-entries'
import { listGallery, loadGalleryEntry } from '../../src/main/services/gallery-entries'
import { reproduceReport, reproduceTotalText } from '../../src/cli/reproduce-text'

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

// the command runs the real gallery's entries; only the simulation is left out
const failingOf: Record<string, number> = { 'dd-under-cpu-load-1997': 2 }
vi.mock('../../src/main/services/gallery-entries', async (original) => {
  const real = await original<typeof GalleryEntries>()
  return {
    ...real,
    reproduce: vi.fn(async (loaded: LoadedEntry) => judged(loaded, failingOf[loaded.entry.name] ?? 0)),
  }
})

describe('iosched-lab reproduce (text)', () => {
  it('gives figures published in bytes/s in MB/s (MB = 10^6 bytes), other units as they are', () => {
    const dd = reproduceReport(judged(loadGalleryEntry('dd-under-cpu-load-1997')))
    // each figure in words, as the app's figures table names it (not the entry's "dd bytesPerSecond")
    const row = dd.split('\n').find((l) => l.startsWith('idle[4k]/noop: dd · throughput'))!
    // published 10615301 bytes/s, simulated at 96 % of it
    expect(row.trim().split(/\s{2,}/)).toEqual([
      'idle[4k]/noop: dd · throughput',
      '10.2',
      '10.6',
      'MB/s',
      '0.96×',
    ])
    expect(dd).not.toMatch(/bytes\/s/)
    const book = reproduceReport(judged(loadGalleryEntry('textbook-disk-scheduling'), 0, 1))
    expect(book).toMatch(/queue\/fcfs: head movement\s+640\s+640\s+cylinders\s+1\.00×\n/)
    expect(book).not.toContain('seekCylinders')
  })

  it('names the mechanisms of the why in words, as the app does', () => {
    const r = judged(loadGalleryEntry('row-vs-cfq-emmc-2012'))
    const explanation = {
      process: 'read',
      metric: 'seconds' as const,
      best: 'lmdd-parallel/row',
      worst: 'lmdd-parallel/cfq',
      text: 'Under lmdd-parallel/cfq the read took 17.1 s.',
      about: 'ROW serves reads before writes.',
    }
    const holds = reproduceReport({
      ...r,
      explanation: { ...explanation, mechanism: 'read-priority', expected: 'read-priority', matches: true },
    })
    expect(holds).toContain('Why (names the published mechanism, read-over-write priority):')
    const misses = reproduceReport({
      ...r,
      explanation: { ...explanation, mechanism: 'seeks', expected: 'read-priority', matches: false },
    })
    expect(misses).toContain('Why (names seeks, NOT the published mechanism (read-over-write priority)):')
  })

  it('--all: a progress line per entry on stderr, each report, then claims holding / all per entry and the total', async () => {
    const { reproduceCommand } = await import('../../src/cli/commands/reproduce')
    const out: string[] = []
    const err: string[] = []
    const status = await reproduceCommand.run(['--all'], {
      out: (s) => out.push(s),
      err: (s) => err.push(s),
    })
    const names = listGallery().map((e) => e.name)
    expect(names.length).toBeGreaterThan(1)
    expect(err).toEqual(names.map((n, i) => `reproduce ${i + 1}/${names.length}: ${n}…`))
    const text = out.join('\n')
    const totals = text.slice(text.lastIndexOf('\nentry '))
    const claims = Object.fromEntries(names.map((n) => [n, loadGalleryEntry(n).entry.claims.length]))
    for (const n of names) {
      const held = claims[n] - (failingOf[n] ?? 0)
      const verdict = failingOf[n] ? 'NOT reproduced' : 'reproduced'
      expect(totals).toMatch(new RegExp(`\\n${n}\\s+${held} / ${claims[n]}\\s+${verdict}\\n`))
    }
    const all = Object.values(claims).reduce((a, b) => a + b, 0)
    expect(totals.trimEnd().split('\n').at(-1)).toBe(
      `total: ${all - 2} of ${all} claims hold; ${names.length - 1} of ${names.length} entries reproduced`,
    )
    expect(status).toBe(1)
  })

  it('--all --json carries the same totals; stdout holds only the document', async () => {
    const { reproduceCommand } = await import('../../src/cli/commands/reproduce')
    const out: string[] = []
    await reproduceCommand.run(['--all', '--json'], { out: (s) => out.push(s), err: () => {} })
    expect(out).toHaveLength(1)
    const doc = JSON.parse(out[0])
    const all = doc.entries.reduce((n: number, e: ReproduceResult) => n + e.claims.length, 0)
    expect(doc.total).toEqual({
      entries: doc.entries.length,
      reproduced: doc.entries.length - 1,
      claims: all,
      holding: all - 2,
    })
  })

  it('a single entry: no progress lines, no total', async () => {
    const { reproduceCommand } = await import('../../src/cli/commands/reproduce')
    const out: string[] = []
    const err: string[] = []
    expect(
      await reproduceCommand.run(['textbook-disk-scheduling'], {
        out: (s) => out.push(s),
        err: (s) => err.push(s),
      }),
    ).toBe(0)
    expect(err).toEqual([])
    expect(out.join('\n')).not.toContain('total:')
    expect(out.join('\n')).toMatch(/\d+ of \d+ claims hold$/)
  })

  it('the total table sums what it is given', () => {
    const a = judged(loadGalleryEntry('textbook-disk-scheduling'))
    const b = judged(loadGalleryEntry('interactive-latency'), 1)
    const text = reproduceTotalText([a, b])
    const n = a.claims.length + b.claims.length
    expect(text.split('\n').at(-1)).toBe(`total: ${n - 1} of ${n} claims hold; 1 of 2 entries reproduced`)
  })
})
