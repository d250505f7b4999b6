// Searching the library: text, device, scheduler, workload, kind, tags and dates; the matching run
// sets of each session; the choices for each filter.
import { describe, expect, it } from 'vitest'
import { dateBound, facetsOf, searchEntries } from '../../src/shared/library/filter'
import type { LibraryEntry } from '../../src/shared/library/types'
import { sessionIndex } from '../../src/shared/session/run-sets'
import { experiment, importedRuns } from './helpers'

function entry(
  name: string,
  savedAt: string,
  tags: string[],
  content: Parameters<typeof sessionIndex>[0],
): LibraryEntry {
  return {
    path: `/lib/${name}.json`,
    file: `${name}.json`,
    bytes: 1,
    modifiedAt: savedAt,
    compressed: false,
    version: 2,
    name,
    savedAt,
    app: '1',
    revision: 1,
    notes: name === 'ide' ? 'The LKML comparison, re-run' : '',
    tags,
    environment: { app: '1' },
    index: sessionIndex(content),
  }
}

const none = { sweep: null, runs: [] }
const entries = [
  entry('ide', '2026-01-10T10:00:00Z', ['hdd', '2003'], {
    ...none,
    result: experiment('ide', { deadline: [3], anticipatory: [1] }, 'hdd-2003-ide'),
  }),
  entry('nvme', '2026-03-02T23:59:00Z', ['nvme'], {
    ...none,
    result: experiment('nvme', { none: [1], kyber: [1] }, 'nvme-gen4'),
  }),
  entry('imports', '2026-02-15T08:00:00Z', ['hdd'], {
    result: null,
    sweep: null,
    runs: [...importedRuns('bonnie a', [1, 2], 'bonnie++'), ...importedRuns('dd a', [1], 'GNU dd')],
  }),
]
const names = (q: Parameters<typeof searchEntries>[1]) => searchEntries(entries, q).map((h) => h.name)

describe('library search', () => {
  it('lists everything newest first without filters, each with all its run sets', () => {
    const hits = searchEntries(entries, {})
    expect(hits.map((h) => [h.name, h.sets.length])).toEqual([
      ['nvme', 2],
      ['imports', 2],
      ['ide', 2],
    ])
  })

  it('filters run sets by device, scheduler (name or label), workload and kind', () => {
    expect(names({ device: 'nvme-gen4' })).toEqual(['nvme'])
    expect(names({ scheduler: 'kyber' })).toEqual(['nvme'])
    expect(searchEntries(entries, { scheduler: 'deadline' })[0].sets.map((s) => s.label)).toEqual([
      'deadline',
    ])
    expect(names({ workload: 'cat' })).toEqual(['nvme', 'ide'])
    expect(names({ workload: 'dd' })).toEqual(['imports'])
    expect(searchEntries(entries, { workload: 'bonnie++' })[0].sets.map((s) => s.label)).toEqual(['bonnie a'])
    expect(names({ kind: 'imported' })).toEqual(['imports'])
    expect(names({ kind: 'real' })).toEqual([])
    expect(names({ device: 'hdd-2003-ide', scheduler: 'kyber' })).toEqual([])
  })

  it('filters sessions by tags (all of them), dates (inclusive days) and words', () => {
    expect(names({ tags: ['hdd'] })).toEqual(['imports', 'ide'])
    expect(names({ tags: ['HDD', '2003'] })).toEqual(['ide'])
    expect(names({ from: '2026-02-01' })).toEqual(['nvme', 'imports'])
    expect(names({ to: '2026-03-02' })).toEqual(['nvme', 'imports', 'ide'])
    expect(names({ from: '2026-02-15', to: '2026-02-15' })).toEqual(['imports'])
    expect(names({ text: 'lkml' })).toEqual(['ide'])
    expect(names({ text: 'bonnie imports' })).toEqual(['imports'])
    expect(names({ text: 'anticipatory hdd' })).toEqual(['ide'])
    expect(names({ text: 'nothing-like-it' })).toEqual([])
    expect(dateBound('2026-02-15', true) - dateBound('2026-02-15', false)).toBe(86_400_000 - 1)
  })

  it('offers every value present for each filter', () => {
    expect(facetsOf(entries)).toEqual({
      devices: ['hdd-2003-ide', 'nvme-gen4', 'sda'],
      schedulers: ['anticipatory', 'deadline', 'kyber', 'none', 'unknown'],
      workloads: ['bonnie++', 'cat', 'dd'],
      kinds: ['imported', 'simulated'],
      tags: ['2003', 'hdd', 'nvme'],
    })
  })
})
