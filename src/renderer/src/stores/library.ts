// The library: the saved sessions that match the filters, the run sets picked from any of them,
// the baseline among those, and their comparison (difference in percent and significance).
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

/** Wait after the last change of a filter before searching. */
export const SEARCH_DELAY_MS = 150

export interface PickedSet {
  path: string
  set: string
  session: string
  facts: RunSetFacts
}

export const pickKey = (p: { path: string; set: string }): string => `${p.path}\n${p.set}`

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
  let searchSeq = 0
  let compareSeq = 0
  let timer: ReturnType<typeof setTimeout> | null = null

  /** The filters as the API takes them: empty ones left out. */
  const query = computed<LibraryQuery>(() => {
    const q: LibraryQuery = {}
    for (const k of ['text', 'device', 'scheduler', 'workload', 'from', 'to'] as const)
      if (filters[k].trim()) q[k] = filters[k].trim()
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

  function clearPicks(): void {
    picked.value = []
    baselineKey.value = ''
    comparison.value = null
  }

  async function compare(): Promise<void> {
    const seq = ++compareSeq
    if (picked.value.length === 0) {
      comparison.value = null
      compareError.value = ''
      return
    }
    comparing.value = true
    try {
      const c = await useLab().libraryCompare({
        sets: picked.value.map((p) => ({ path: p.path, set: p.set })),
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

  /** Change a saved session's notes and tags, then list again. */
  async function saveMeta(path: string, notes: string, tags: string[]): Promise<boolean> {
    try {
      await useLab().setSessionMeta({ path, notes, tags })
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
    search,
    clearFilters,
    toggleTag,
    isPicked,
    toggle,
    setBaseline,
    clearPicks,
    compare,
    saveMeta,
  }
})
