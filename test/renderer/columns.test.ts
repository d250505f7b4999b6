// The comparison table's columns: which metrics each column kind brings (IOPS beside MB/s, the
// percentiles, bonnie++'s phases), the column picker's choice kept in localStorage, and the
// tunables marker's differences from a scheduler's defaults.
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { COLUMNS, DEFAULT_COLUMNS, tableMetrics } from '../../src/renderer/src/lib/metrics'
import { COLUMNS_KEY, readChoices, useColumns } from '../../src/renderer/src/stores/columns'
import { summarizeRuns } from '../../src/shared/experiment/compare'
import { importText } from '../../src/shared/import/import-text'
import { schedulers } from '../../src/shared/schedulers/registry'
import { changesText, tunableChanges } from '../../src/shared/util/tunable-diff'
import { BONNIE_103, FIO_MINI } from '../formats/fixtures'

beforeEach(() => setActivePinia(createPinia()))
afterEach(() => vi.unstubAllGlobals())

function memoryStorage(initial: Record<string, string> = {}) {
  const m = new Map(Object.entries(initial))
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, String(v)),
    removeItem: (k: string) => void m.delete(k),
  })
  return m
}

const rows = () =>
  summarizeRuns([
    ...importText(FIO_MINI, 'mini.json').runs.map((r) => r.run),
    ...importText(BONNIE_103, 'bonnie.csv').runs.map((r) => r.run),
  ])

describe('the comparison table’s columns', () => {
  it('puts IOPS beside MB/s and p99 among the latencies shown at first; p95 and p99.9 a choice away', () => {
    const ids = tableMetrics(['reader'], undefined, rows()).map((m) => m.id)
    expect(ids.slice(0, 2)).toEqual(['reader:MBps', 'reader:IOPS'])
    expect(ids).toContain('reader:p99')
    // (the default table fits 1440 px with eight schedulers: the layout e2e test)
    expect(ids).not.toContain('reader:p95')
    expect(ids).not.toContain('reader:p999')
    expect(ids).not.toContain('reader:max')
    expect(ids).toEqual(expect.arrayContaining(['dev:readIops', 'dev:writeIops']))
    const chosen = tableMetrics(['reader'], undefined, rows(), [...DEFAULT_COLUMNS, 'p95', 'p999']).map(
      (m) => m.id,
    )
    expect(chosen).toEqual(expect.arrayContaining(['reader:p95', 'reader:p999']))
  })

  it('gives a process with phases one column per phase, in K/s or per second as bonnie++ prints them', () => {
    const ms = tableMetrics(['bonnie++'], undefined, rows()).filter((m) => m.column === 'phases')
    // +++++ tests (seq and random stat, seq delete) have no phase: no column
    expect(ms.map((m) => m.id.replace('bonnie++:phase:', ''))).toEqual([
      'putc',
      'put_block',
      'rewrite',
      'getc',
      'get_block',
      'seeks',
      'seq_create',
      'ran_create',
      'ran_del',
    ])
    expect(ms.map((m) => m.unit)).toEqual(['K/s', 'K/s', 'K/s', 'K/s', 'K/s', '/s', '/s', '/s', '/s'])
    const bonnie = rows().find((r) => r.label === 'bonnie')!
    expect(ms[1].get(bonnie)!.mean).toBeCloseTo((25497 + 24873) / 2, 6)
    // hiding the kind hides them all
    const shown = DEFAULT_COLUMNS.filter((c) => c !== 'phases')
    expect(tableMetrics(['bonnie++'], undefined, rows(), shown).some((m) => m.column === 'phases')).toBe(
      false,
    )
  })

  it('keeps the picker’s choice in localStorage, only where it differs from the default', () => {
    const m = memoryStorage()
    const c = useColumns()
    expect(c.shown).toEqual(DEFAULT_COLUMNS)
    c.set('p99', false)
    c.set('max', true)
    expect(c.isShown('p99')).toBe(false)
    expect(JSON.parse(m.get(COLUMNS_KEY)!)).toEqual({ p99: false, max: true })
    // a fresh page reads it back
    setActivePinia(createPinia())
    expect(useColumns().isShown('p99')).toBe(false)
    expect(useColumns().isShown('max')).toBe(true)
    // set back to its default: no choice left to keep
    useColumns().set('p99', true)
    useColumns().set('max', false)
    expect(m.has(COLUMNS_KEY)).toBe(false)
    expect(useColumns().shown).toEqual(DEFAULT_COLUMNS)
  })

  it('ignores saved choices it cannot read, or of columns it does not have', () => {
    expect(readChoices(null)).toEqual({})
    expect(readChoices('{not json')).toEqual({})
    expect(readChoices('[true]')).toEqual({})
    expect(readChoices('{"p95":false,"nonsense":true,"p99":"no"}')).toEqual({ p95: false })
    expect(COLUMNS.map((c) => c.key)).toEqual([...new Set(COLUMNS.map((c) => c.key))])
  })
})

describe('tunables beside a row', () => {
  const deadline = schedulers.find((s) => s.name === 'deadline')!

  it('lists those that differ from the scheduler’s defaults, with the defaults', () => {
    const defaults = Object.fromEntries(deadline.tunables.map((t) => [t.name, t.default]))
    expect(tunableChanges(defaults, deadline.tunables)).toEqual([])
    const fifo = deadline.tunables.find((t) => t.name === 'fifo_batch')!
    const changed = tunableChanges({ ...defaults, fifo_batch: 1 }, deadline.tunables)
    expect(changed).toEqual([{ name: 'fifo_batch', value: 1, default: fifo.default }])
    expect(changesText(changed)).toBe('fifo_batch=1')
  })

  it('keeps a tunable the scheduler does not know, with no default to compare', () => {
    expect(tunableChanges({ mystery: 3 }, deadline.tunables)).toEqual([
      { name: 'mystery', value: 3, default: '' },
    ])
  })
})
