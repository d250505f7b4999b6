// The library: the saved sessions that match the filters, the run sets picked from any of them,
// the baseline among those, and their comparison (difference in percent and significance). The
// picks and the baseline are kept in localStorage, so a reload brings the comparison back; picks
// whose session (or run set) has left the library meanwhile are dropped with a note.
import { defineStore } from 'pinia'
import { computed, reactive, ref, shallowRef, watch } from 'vue'
import type {
  LibraryComparison,
  LibrarySearchResult,
  RunKind,
  RunSetFacts,
} from '../../../shared/api/library-contract'
import type { LibraryQuery } from '../../../shared/library/types'
import { errorText, useLab } from '../api'
import { useSessions } from './sessions'
import { storage } from '../lib/local-storage'
import { siblingsOf } from '../lib/colours'
import type { SetFacts } from '../lib/colours'

/** Wait after the last change of a filter before searching. */
export const SEARCH_DELAY_MS = 150

export interface PickedSet {
  path: string
  set: string
  session: string
  facts: RunSetFacts
  /** Its processes compared as the baseline's (own name → the name compared as); remembered with the pick. */
  rename?: Record<string, string>
  /** Every run set of its session, as its results page shows them together (its colour among them). */
  siblings?: SetFacts[]
}

export const pickKey = (p: { path: string; set: string }): string => `${p.path}\n${p.set}`

/** Where the picks and the baseline are remembered (the version in the key: a new shape, a new key). */
export const COMPARE_STORAGE_KEY = 'iosched-lab.library.compare.v1'

/** What is remembered: the picks in order and the baseline among them. */
export interface SavedCompare {
  picked: PickedSet[]
  baseline: { path: string; set: string } | null
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null
const isPick = (v: unknown): v is PickedSet =>
  isObject(v) &&
  typeof v.path === 'string' &&
  typeof v.set === 'string' &&
  typeof v.session === 'string' &&
  isObject(v.facts) &&
  typeof v.facts.label === 'string' &&
  (v.rename === undefined ||
    (isObject(v.rename) && Object.values(v.rename).every((x) => typeof x === 'string')))

/** A date filter's day: `YYYY-MM-DD`, a UTC day as the sessions' times are shown. */
export const DAY = /^\d{4}-\d{2}-\d{2}$/

/** The remembered selection from its stored text; null when there is none or it is not one. */
export function parseSavedCompare(text: string | null): SavedCompare | null {
  if (!text) return null
  let v: unknown
  try {
    v = JSON.parse(text)
  } catch {
    return null
  }
  if (!isObject(v) || !Array.isArray(v.picked) || !v.picked.every(isPick)) return null
  const b = v.baseline
  const baseline =
    isObject(b) && typeof b.path === 'string' && typeof b.set === 'string'
      ? { path: b.path, set: b.set }
      : null
  return { picked: v.picked, baseline }
}

export const useLibrary = defineStore('library', () => {
  const filters = reactive({
    text: '',
    device: '',
    scheduler: '',
    workload: '',
    kind: '' as RunKind | '',
    tags: [] as string[],
    from: '',
    to: '',
  })
  const result = shallowRef<LibrarySearchResult | null>(null)
  const loading = ref(false)
  const error = ref('')
  const picked = ref<PickedSet[]>([])
  const baselineKey = ref('')
  const comparison = shallowRef<LibraryComparison | null>(null)
  const comparing = ref(false)
  const compareError = ref('')
  const tab = ref<'sessions' | 'compare'>('sessions')
  /** Checking remembered picks against the library after a reload: comparing waits for it. */
  const restoring = ref(false)
  /** Remembered picks that were dropped because their session is gone (shown until dismissed). */
  const restoreNote = ref('')
  let searchSeq = 0
  let compareSeq = 0
  let timer: ReturnType<typeof setTimeout> | null = null

  /** The filters as the API takes them: empty ones left out. */
  const query = computed<LibraryQuery>(() => {
    const q: LibraryQuery = {}
    for (const k of ['text', 'device', 'scheduler', 'workload'] as const)
      if (filters[k].trim()) q[k] = filters[k].trim()
    // a day while it is typed ("2026-1") filters nothing, rather than everything away
    for (const k of ['from', 'to'] as const) if (DAY.test(filters[k].trim())) q[k] = filters[k].trim()
    if (filters.kind) q.kind = filters.kind
    if (filters.tags.length) q.tags = [...filters.tags]
    return q
  })
  const filtered = computed(() => Object.keys(query.value).length > 0)

  async function search(): Promise<void> {
    const seq = ++searchSeq
    loading.value = true
    try {
      const r = await useLab().librarySearch(query.value)
      if (seq !== searchSeq) return
      result.value = r
      error.value = ''
    } catch (e) {
      if (seq === searchSeq) error.value = errorText(e)
    } finally {
      if (seq === searchSeq) loading.value = false
    }
  }

  watch(
    query,
    () => {
      if (timer) clearTimeout(timer)
      loading.value = true
      timer = setTimeout(() => void search(), SEARCH_DELAY_MS)
    },
    { deep: true },
  )

  function clearFilters(): void {
    Object.assign(filters, {
      text: '',
      device: '',
      scheduler: '',
      workload: '',
      kind: '',
      tags: [],
      from: '',
      to: '',
    })
  }

  function toggleTag(tag: string): void {
    const i = filters.tags.indexOf(tag)
    if (i >= 0) filters.tags.splice(i, 1)
    else filters.tags.push(tag)
  }

  const pickedKeys = computed(() => new Set(picked.value.map(pickKey)))
  const baseline = computed(() =>
    Math.max(
      0,
      picked.value.findIndex((p) => pickKey(p) === baselineKey.value),
    ),
  )

  function isPicked(path: string, set: string): boolean {
    return pickedKeys.value.has(pickKey({ path, set }))
  }

  /** Pick or unpick a run set; the first one picked is the baseline until another is chosen. */
  function toggle(p: PickedSet): void {
    const key = pickKey(p)
    if (pickedKeys.value.has(key)) picked.value = picked.value.filter((x) => pickKey(x) !== key)
    else picked.value = [...picked.value, p]
    if (!picked.value.some((x) => pickKey(x) === baselineKey.value))
      baselineKey.value = picked.value[0] ? pickKey(picked.value[0]) : ''
    void compare()
  }

  function setBaseline(i: number): void {
    const p = picked.value[i]
    if (!p) return
    baselineKey.value = pickKey(p)
    void compare()
  }

  /**
   * Compare process `from` of picked set `i` as `to` (an imported fio job `t` as the simulated
   * `reader`); `to` empty or `from` itself: under its own name again.
   */
  function mapProcess(i: number, from: string, to: string): void {
    const p = picked.value[i]
    if (!p) return
    const rename = { ...(p.rename ?? {}) }
    if (to === '' || to === from) delete rename[from]
    else rename[from] = to
    const next = { ...p }
    if (Object.keys(rename).length > 0) next.rename = rename
    else delete next.rename
    picked.value = picked.value.map((x, k) => (k === i ? next : x))
    void compare()
  }

  function clearPicks(): void {
    picked.value = []
    baselineKey.value = ''
    comparison.value = null
  }

  async function compare(): Promise<void> {
    // the remembered picks are being checked: restore() compares when it is done
    if (restoring.value) return
    const seq = ++compareSeq
    if (picked.value.length === 0) {
      comparison.value = null
      compareError.value = ''
      return
    }
    comparing.value = true
    try {
      const c = await useLab().libraryCompare({
        sets: picked.value.map((p) => ({
          path: p.path,
          set: p.set,
          ...(p.rename && Object.keys(p.rename).length > 0 ? { rename: p.rename } : {}),
        })),
        baseline: baseline.value,
      })
      if (seq !== compareSeq) return
      comparison.value = c
      compareError.value = ''
    } catch (e) {
      if (seq === compareSeq) compareError.value = errorText(e)
    } finally {
      if (seq === compareSeq) comparing.value = false
    }
  }

  /** Remember the picks and the baseline (quietly not, when the browser will not store them). */
  function persist(): void {
    const saved: SavedCompare = {
      picked: picked.value,
      baseline: picked.value[baseline.value]
        ? { path: picked.value[baseline.value].path, set: picked.value[baseline.value].set }
        : null,
    }
    try {
      const s = storage()
      if (!s) return
      if (saved.picked.length) s.setItem(COMPARE_STORAGE_KEY, JSON.stringify(saved))
      else s.removeItem(COMPARE_STORAGE_KEY)
    } catch {
      // full or refused: the selection just does not survive a reload
    }
  }

  /**
   * Bring back the remembered picks and baseline, check them against the library (dropping, with
   * a note, those whose session or run set is gone; refreshing the others' names and facts), and
   * compare them. A stored value that is not a selection is ignored.
   */
  async function restore(): Promise<void> {
    let text: string | null = null
    try {
      text = storage()?.getItem(COMPARE_STORAGE_KEY) ?? null
    } catch {
      return
    }
    const saved = parseSavedCompare(text)
    if (!saved || saved.picked.length === 0) return
    picked.value = saved.picked
    const b = saved.baseline ? pickKey(saved.baseline) : ''
    baselineKey.value = saved.picked.some((p) => pickKey(p) === b) ? b : pickKey(saved.picked[0])
    restoring.value = true
    try {
      const all = await useLab().librarySearch({})
      const sessions = new Map(all.hits.map((h) => [h.path, h]))
      const gone: PickedSet[] = []
      const kept: PickedSet[] = []
      // picks changed meanwhile are checked as they are now
      for (const p of picked.value) {
        const hit = sessions.get(p.path)
        const facts = hit?.sets.find((f) => f.key === p.set)
        if (hit && facts) kept.push({ ...p, session: hit.name, facts, siblings: siblingsOf(hit.sets) })
        else gone.push(p)
      }
      picked.value = kept
      if (!kept.some((x) => pickKey(x) === baselineKey.value))
        baselineKey.value = kept[0] ? pickKey(kept[0]) : ''
      if (gone.length)
        restoreNote.value =
          `${gone.length === 1 ? 'A run set' : `${gone.length} run sets`} picked before ` +
          `${gone.length === 1 ? 'is' : 'are'} no longer in the library and left the comparison: ` +
          `${gone.map((p) => `${p.session}: ${p.facts.label}`).join(', ')}.`
    } catch {
      // the library cannot be listed: keep the picks; comparing them says what is wrong
    } finally {
      restoring.value = false
    }
    await compare()
  }

  watch([picked, baselineKey], persist)
  void restore()

  /** Change a saved session's notes and tags, then list again. */
  async function saveMeta(path: string, notes: string, tags: string[]): Promise<boolean> {
    try {
      useSessions().metaSaved(await useLab().setSessionMeta({ path, notes, tags }), { notes, tags })
      await search()
      return true
    } catch (e) {
      error.value = errorText(e)
      return false
    }
  }

  return {
    filters,
    query,
    filtered,
    result,
    loading,
    error,
    picked,
    baseline,
    comparison,
    comparing,
    compareError,
    tab,
    restoring,
    restoreNote,
    search,
    clearFilters,
    toggleTag,
    isPicked,
    toggle,
    setBaseline,
    mapProcess,
    clearPicks,
    compare,
    restore,
    saveMeta,
  }
})
