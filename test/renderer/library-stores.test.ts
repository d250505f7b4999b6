// The library's stores against a fake lab: searching as filters change, picking run sets and a
// baseline, comparing; the session's notes, tags and imported runs through save and open.
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { setLab } from '../../src/renderer/src/api'
import { SEARCH_DELAY_MS, useLibrary } from '../../src/renderer/src/stores/library'
import type { PickedSet } from '../../src/renderer/src/stores/library'
import { useSessions } from '../../src/renderer/src/stores/sessions'
import type { LibrarySearchResult, RunSetFacts } from '../../src/shared/api/library-contract'
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

beforeEach(() => setActivePinia(createPinia()))
afterEach(() => {
  vi.useRealTimers()
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
