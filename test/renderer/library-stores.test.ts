// The library's stores against a fake lab: searching as filters change, picking run sets and a
// baseline, comparing, and keeping the picks across a reload; the session's notes, tags and
// imported runs through save and open.
import { createPinia, setActivePinia } from 'pinia'
import { nextTick } from 'vue'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { setLab } from '../../src/renderer/src/api'
import { COMPARE_STORAGE_KEY, SEARCH_DELAY_MS, useLibrary } from '../../src/renderer/src/stores/library'
import type { PickedSet } from '../../src/renderer/src/stores/library'
import { useSessions } from '../../src/renderer/src/stores/sessions'
import type { LibraryHit, LibrarySearchResult, RunSetFacts } from '../../src/shared/api/library-contract'
import { importedRuns } from '../library/helpers'
import { fakeLab } from './fake-lab'

const empty: LibrarySearchResult = {
  folder: '/lib',
  total: 0,
  hits: [],
  problems: [],
  facets: { devices: [], schedulers: [], workloads: [], kinds: [], tags: [] },
}
const facts = (label: string): RunSetFacts => ({
  key: `result/${label}`,
  label,
  scheduler: label,
  kind: 'simulated',
  device: 'hdd',
  workloads: ['cat'],
  processes: ['reader'],
  repetitions: 3,
})
const pick = (path: string, label: string): PickedSet => ({
  path,
  set: `result/${label}`,
  session: path,
  facts: facts(label),
})
const pickLabel = (p: PickedSet): string => `${p.session}: ${p.facts.label}`

beforeEach(() => setActivePinia(createPinia()))
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
  setLab(null)
})

describe('library store', () => {
  it('searches a moment after the filters change, leaving empty ones out', async () => {
    vi.useFakeTimers()
    const lab = fakeLab({ librarySearch: () => empty })
    const lib = useLibrary()
    lib.filters.device = 'hdd-2003-ide'
    lib.filters.text = '  flagship '
    lib.toggleTag('hdd')
    await vi.advanceTimersByTimeAsync(SEARCH_DELAY_MS + 10)
    const calls = lab.calls.filter((c) => c.method === 'librarySearch')
    expect(calls).toHaveLength(1)
    expect(calls[0].input).toEqual({ device: 'hdd-2003-ide', text: 'flagship', tags: ['hdd'] })
    expect(lib.filtered).toBe(true)
    lib.clearFilters()
    await vi.advanceTimersByTimeAsync(SEARCH_DELAY_MS + 10)
    expect(lab.calls.at(-1)?.input).toEqual({})
    expect(lib.result).toEqual(empty)
  })

  it('picks run sets from any sessions, the first as baseline, and compares them', async () => {
    const lab = fakeLab({
      libraryCompare: (i) => ({ echo: i }),
    })
    const lib = useLibrary()
    lib.toggle(pick('/a.json', 'deadline'))
    lib.toggle(pick('/b.json', 'noop'))
    lib.toggle(pick('/b.json', 'cfq'))
    expect(lib.isPicked('/b.json', 'result/noop')).toBe(true)
    expect(lib.baseline).toBe(0)
    lib.setBaseline(2)
    await vi.waitFor(() => expect(lib.comparing).toBe(false))
    const last = lab.calls.filter((c) => c.method === 'libraryCompare').at(-1)
    expect(last?.input).toEqual({
      sets: [
        { path: '/a.json', set: 'result/deadline' },
        { path: '/b.json', set: 'result/noop' },
        { path: '/b.json', set: 'result/cfq' },
      ],
      baseline: 2,
    })
    // the baseline picked again (removed): the first one takes its place
    lib.toggle(pick('/b.json', 'cfq'))
    expect(lib.baseline).toBe(0)
    lib.toggle(pick('/a.json', 'deadline'))
    expect(lib.picked.map((p) => p.facts.label)).toEqual(['noop'])
    expect(lib.baseline).toBe(0)
    lib.clearPicks()
    expect(lib.comparison).toBeNull()
  })

  it('keeps only the answer to the latest comparison', async () => {
    const answers: ((v: unknown) => void)[] = []
    fakeLab({ libraryCompare: () => new Promise((r) => answers.push(r)) })
    const lib = useLibrary()
    lib.toggle(pick('/a.json', 'deadline'))
    lib.toggle(pick('/a.json', 'noop'))
    await vi.waitFor(() => expect(answers).toHaveLength(2))
    answers[1]({ which: 'new' })
    answers[0]({ which: 'old' })
    await vi.waitFor(() => expect(lib.comparing).toBe(false))
    expect(lib.comparison).toEqual({ which: 'new' })
  })

  it('saves notes and tags of a session, then lists again', async () => {
    const lab = fakeLab({ setSessionMeta: () => ({}), librarySearch: () => empty })
    const lib = useLibrary()
    expect(await lib.saveMeta('/a.json', 'n', ['x'])).toBe(true)
    expect(lab.calls.map((c) => c.method)).toEqual(['setSessionMeta', 'librarySearch'])
    expect(lab.calls[0].input).toEqual({ path: '/a.json', notes: 'n', tags: ['x'] })
  })

  it('brings the notes, tags and revision of the session open here up to date, so Save is not refused', async () => {
    fakeLab({
      setSessionMeta: (i) => {
        const { path, tags } = i as { path: string; tags: string[] }
        return { path, name: 'A', revision: 5, tags }
      },
      librarySearch: () => empty,
      saveSession: (i) => {
        const r = (i as { replace?: { revision: number } }).replace
        if (r?.revision !== 5) throw new Error(`saved over revision ${r?.revision}`)
        return { path: '/lib/a.json', name: 'A', revision: 6 }
      },
    })
    const sessions = useSessions()
    sessions.current = { name: 'A', path: '/lib/a.json', revision: 4 }
    sessions.notes = 'old'
    await useLibrary().saveMeta('/lib/b.json', 'other session', [])
    expect(sessions.notes).toBe('old')
    expect(await useLibrary().saveMeta('/lib/a.json', 'new notes', ['t'])).toBe(true)
    expect(sessions.current).toEqual({ name: 'A', path: '/lib/a.json', revision: 5 })
    expect([sessions.notes, sessions.tags]).toEqual(['new notes', ['t']])
    expect((await sessions.saveCurrent())?.revision).toBe(6)
  })
})

/** localStorage as a Map, installed as the global one. */
function memoryStorage(initial: Record<string, string> = {}) {
  const m = new Map(Object.entries(initial))
  const s = {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, String(v)),
    removeItem: (k: string) => void m.delete(k),
    map: m,
  }
  vi.stubGlobal('localStorage', s)
  return s
}
/** A library hit: a session file and its run sets. */
const hit = (path: string, name: string, labels: string[]): LibraryHit =>
  ({ path, name, sets: labels.map(facts) }) as unknown as LibraryHit
const listing = (...hits: LibraryHit[]): LibrarySearchResult => ({ ...empty, total: hits.length, hits })
const stored = (s: ReturnType<typeof memoryStorage>) => JSON.parse(s.map.get(COMPARE_STORAGE_KEY) ?? 'null')

describe('library store: the picks and the baseline survive a reload', () => {
  it('remembers the picks and the baseline as they change, and forgets them when cleared', async () => {
    const storage = memoryStorage()
    fakeLab({ libraryCompare: () => ({}) })
    const lib = useLibrary()
    lib.toggle(pick('/a.json', 'deadline'))
    lib.toggle(pick('/b.json', 'noop'))
    lib.setBaseline(1)
    await nextTick()
    expect(stored(storage)).toEqual({
      picked: [pick('/a.json', 'deadline'), pick('/b.json', 'noop')],
      baseline: { path: '/b.json', set: 'result/noop' },
    })
    lib.toggle(pick('/b.json', 'noop'))
    await nextTick()
    expect(stored(storage).baseline).toEqual({ path: '/a.json', set: 'result/deadline' })
    lib.clearPicks()
    await nextTick()
    expect(storage.map.has(COMPARE_STORAGE_KEY)).toBe(false)
  })

  it('brings them back when it starts, with the names and facts the library has now, and compares', async () => {
    memoryStorage({
      [COMPARE_STORAGE_KEY]: JSON.stringify({
        picked: [pick('/a.json', 'deadline'), pick('/b.json', 'noop'), pick('/b.json', 'cfq')],
        baseline: { path: '/b.json', set: 'result/noop' },
      }),
    })
    const lab = fakeLab({
      librarySearch: () =>
        listing(hit('/a.json', 'A', ['deadline']), hit('/b.json', 'B renamed', ['noop', 'cfq'])),
      libraryCompare: (i) => ({ echo: i }),
    })
    const lib = useLibrary()
    // at once, before the library answers
    expect(lib.picked.map((p) => p.facts.label)).toEqual(['deadline', 'noop', 'cfq'])
    expect(lib.baseline).toBe(1)
    expect(lib.restoring).toBe(true)
    void lib.compare() // waits for the check
    await vi.waitFor(() => expect(lib.comparison).not.toBeNull())
    expect(lab.calls.map((c) => c.method)).toEqual(['librarySearch', 'libraryCompare'])
    expect(lab.calls[0].input).toEqual({}) // every session, whatever the filters
    expect(lab.calls[1].input).toEqual({
      sets: [
        { path: '/a.json', set: 'result/deadline' },
        { path: '/b.json', set: 'result/noop' },
        { path: '/b.json', set: 'result/cfq' },
      ],
      baseline: 1,
    })
    expect(lib.picked.map((p) => p.session)).toEqual(['A', 'B renamed', 'B renamed'])
    expect(lib.restoring).toBe(false)
    expect(lib.restoreNote).toBe('')
  })

  it('drops picks whose session or run set is gone, with a note, and keeps the rest', async () => {
    const storage = memoryStorage({
      [COMPARE_STORAGE_KEY]: JSON.stringify({
        picked: [pick('/gone.json', 'noop'), pick('/a.json', 'deadline'), pick('/a.json', 'bfq')],
        baseline: { path: '/gone.json', set: 'result/noop' },
      }),
    })
    const lab = fakeLab({
      librarySearch: () => listing(hit('/a.json', '/a.json', ['deadline'])),
      libraryCompare: (i) => ({ echo: i }),
    })
    const lib = useLibrary()
    await vi.waitFor(() => expect(lib.comparison).not.toBeNull())
    expect(lib.picked.map((p) => pickLabel(p))).toEqual(['/a.json: deadline'])
    expect(lib.baseline).toBe(0)
    expect(lib.restoreNote).toBe(
      '2 run sets picked before are no longer in the library and left the comparison: /gone.json: noop, /a.json: bfq.',
    )
    expect(lib.compareError).toBe('')
    expect(lab.calls.at(-1)?.input).toEqual({
      sets: [{ path: '/a.json', set: 'result/deadline' }],
      baseline: 0,
    })
    await nextTick()
    // each kept pick remembers its session's sets as they are now (its colour is its results page's)
    const kept = stored(storage) as { picked: { siblings?: { label: string }[] }[] }
    expect(kept.picked[0].siblings?.map((s) => s.label)).toEqual(['deadline'])
    expect({ ...kept, picked: kept.picked.map(({ siblings: _, ...p }) => p) }).toEqual({
      picked: [pick('/a.json', 'deadline')],
      baseline: { path: '/a.json', set: 'result/deadline' },
    })
  })

  it('keeps the picks as they were when the library cannot be listed', async () => {
    memoryStorage({
      [COMPARE_STORAGE_KEY]: JSON.stringify({ picked: [pick('/a.json', 'deadline')], baseline: null }),
    })
    fakeLab({
      librarySearch: () => {
        throw new Error('disk on fire')
      },
      libraryCompare: (i) => ({ echo: i }),
    })
    const lib = useLibrary()
    await vi.waitFor(() => expect(lib.comparison).not.toBeNull())
    expect(lib.picked.map((p) => p.facts.label)).toEqual(['deadline'])
    expect(lib.restoreNote).toBe('')
  })

  it.each([
    ['not JSON', '{"picked": [{"path"'],
    ['not a selection', '[1, 2, 3]'],
    ['picks of the wrong shape', JSON.stringify({ picked: [{ path: 1, set: 'x' }], baseline: null })],
    ['no picks', JSON.stringify({ picked: 'all', baseline: null })],
  ])('ignores a stored value that is %s', async (_what, text) => {
    const storage = memoryStorage({ [COMPARE_STORAGE_KEY]: text })
    const lab = fakeLab({ libraryCompare: () => ({}) })
    const lib = useLibrary()
    await nextTick()
    expect(lib.picked).toEqual([])
    expect(lib.restoring).toBe(false)
    expect([lib.restoreNote, lib.compareError, lib.error]).toEqual(['', '', ''])
    expect(lab.calls).toEqual([])
    // and picking works, replacing it
    lib.toggle(pick('/a.json', 'deadline'))
    await nextTick()
    expect(stored(storage).picked).toEqual([pick('/a.json', 'deadline')])
  })
})

describe('sessions store: notes, tags and imported runs', () => {
  it('adds imported runs continuing their repetitions, saves them with notes and tags, and opens them again', async () => {
    const lab = fakeLab({
      saveSession: (i) => ({ path: '/lib/s.json', name: (i as { name: string }).name, tags: ['hdd'] }),
      listSessions: () => [],
      library: () => ({ folder: '/lib' }),
      openSession: () => ({
        name: 'opened',
        spec: null,
        result: null,
        sweep: null,
        runs: importedRuns('fio', [1]),
        notes: 'n2',
        tags: ['t2'],
      }),
    })
    const sessions = useSessions()
    sessions.addRuns(importedRuns('bonnie', [1, 2]))
    sessions.addRuns(importedRuns('bonnie', [3]))
    expect(sessions.extraRuns.map((r) => r.repetition)).toEqual([0, 1, 2])
    await sessions.save('mine', undefined, { notes: 'about it', tags: ['hdd', 'x'] })
    const saved = lab.calls.find((c) => c.method === 'saveSession')?.input as Record<string, unknown>
    expect(saved).toMatchObject({ name: 'mine', notes: 'about it', tags: ['hdd', 'x'] })
    expect((saved.runs as unknown[]).length).toBe(3)
    expect(sessions.tags).toEqual(['hdd']) // as the lab kept them
    sessions.removeRuns('bonnie', 'imported')
    expect(sessions.extraRuns).toEqual([])
    expect(await sessions.open('/lib/other.json')).toBe(true)
    expect(sessions.notes).toBe('n2')
    expect(sessions.tags).toEqual(['t2'])
    expect(sessions.extraRuns.map((r) => r.label)).toEqual(['fio'])
    sessions.reset()
    expect([sessions.current, sessions.notes, sessions.tags, sessions.extraRuns]).toEqual([null, '', [], []])
  })
})
