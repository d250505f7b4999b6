// Setup's foldable sections: the summary line each shows when folded, and the folds kept in
// localStorage across a new store (a reload).
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SETUP_SECTIONS, sectionSummary } from '../../src/renderer/src/lib/setup-summary'
import { blankDoc, normalizeDoc } from '../../src/renderer/src/lib/spec-doc'
import { FOLDS_KEY, useSetupFolds } from '../../src/renderer/src/stores/setup-folds'

const flagshipLike = normalizeDoc({
  name: 'streaming',
  device: { preset: 'hdd-2003-ide', overrides: { queueDepth: 4, rpm: 5400 } },
  host: { preset: 'linux-2003' },
  workload: {
    files: [
      { name: 'foo', size: '512M' },
      { name: 'bar', size: '100M' },
    ],
    processes: [
      { name: 'writer', type: 'dd', params: { loop: true } },
      { name: 'reader', type: 'cat' },
    ],
    stop: { processes: ['reader'], maxSeconds: 900 },
  },
  schedulers: ['noop', { name: 'cfq', label: 'cfq-v1', tunables: { version: 'v1', quantum: 8 } }],
  repetitions: 3,
  seed: 7,
})

describe('a setup section’s summary line', () => {
  it('says what each section holds', () => {
    expect(sectionSummary('experiment', flagshipLike)).toBe('streaming · 3 repetitions · seed 7')
    expect(sectionSummary('schedulers', flagshipLike)).toBe('2: noop, cfq-v1 · 2 tunables changed')
    expect(sectionSummary('workload', flagshipLike)).toBe(
      '2 files · 2 processes: writer (dd), reader (cat) · stops when reader finishes, or after 900 s',
    )
    expect(sectionSummary('device', flagshipLike, 'hdd')).toBe(
      'hdd-2003-ide (hdd model) · 2 parameters changed',
    )
    expect(sectionSummary('host', flagshipLike)).toBe('linux-2003 · defaults')
  })

  it('in the singular for one, and for a blank experiment', () => {
    const doc = blankDoc()
    doc.untilStable = { maxRepetitions: 5 }
    doc.workload.stop = { processes: ['a', 'b'] }
    expect(sectionSummary('experiment', doc)).toBe(
      'my-experiment · at least 1 repetition, until stable (at most 5) · seed 1',
    )
    expect(sectionSummary('schedulers', doc)).toBe('2: noop, deadline')
    expect(sectionSummary('workload', doc)).toBe('1 process: reader (cat) · stops when a, b finish')
    doc.workload.stop = { maxSeconds: 60 }
    expect(sectionSummary('workload', doc)).toBe('1 process: reader (cat) · stops after 60 s')
    doc.device.overrides = { rpm: 5400 }
    expect(sectionSummary('device', doc)).toBe('hdd-7200-sata · 1 parameter changed')
  })
})

describe('the folds', () => {
  const store = new Map<string, string>()
  beforeEach(() => {
    store.clear()
    ;(globalThis as { localStorage?: unknown }).localStorage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    }
    setActivePinia(createPinia())
  })
  afterEach(() => {
    delete (globalThis as { localStorage?: unknown }).localStorage
  })

  it('are kept in localStorage and read back by a new store', () => {
    const folds = useSetupFolds()
    expect(folds.isFolded('schedulers')).toBe(false)
    folds.fold('schedulers', true)
    folds.fold('host', true)
    folds.fold('host', true)
    expect(JSON.parse(store.get(FOLDS_KEY)!)).toEqual(['schedulers', 'host'])
    folds.fold('schedulers', false)
    setActivePinia(createPinia())
    const again = useSetupFolds()
    expect(again.isFolded('host')).toBe(true)
    expect(again.isFolded('schedulers')).toBe(false)
  })

  it('fold and unfold all at once', () => {
    const folds = useSetupFolds()
    folds.fold('host', true)
    folds.foldAll(SETUP_SECTIONS, true)
    expect(SETUP_SECTIONS.every((id) => folds.isFolded(id))).toBe(true)
    expect(JSON.parse(store.get(FOLDS_KEY)!)).toHaveLength(SETUP_SECTIONS.length)
    folds.foldAll(SETUP_SECTIONS, false)
    expect(folds.folded).toEqual([])
  })

  it('start unfolded when the stored value is not a list', () => {
    store.set(FOLDS_KEY, '{not json')
    expect(useSetupFolds().folded).toEqual([])
  })
})
