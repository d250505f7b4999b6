// The experiment being set up: the spec document, edited by the form or as JSON, and what the
// shared validation (through the API) says about it, by path.
import { defineStore } from 'pinia'
import { computed, ref, shallowRef, watch } from 'vue'
import type { ResolvedSpec } from '../../../shared/experiment/resolved'
import type { ParamIssue } from '../../../shared/util/params'
import { errorText, useLab } from '../api'
import { blankDoc, labelOf, normalizeDoc, setPath } from '../lib/spec-doc'
import type { SpecDoc } from '../lib/spec-doc'

/** Wait this long after the last change before asking for validation. */
export const VALIDATE_DELAY_MS = 120

export const useExperiment = defineStore('experiment', () => {
  const doc = ref<SpecDoc>(blankDoc())
  const issues = ref<ParamIssue[]>([])
  const resolved = shallowRef<ResolvedSpec | null>(null)
  const checking = ref(false)
  /** Bumped by every change: a validation answer for an older version is dropped. */
  let version = 0
  let timer: ReturnType<typeof setTimeout> | null = null

  async function validate(): Promise<boolean> {
    if (timer) clearTimeout(timer)
    timer = null
    const mine = ++version
    checking.value = true
    try {
      const r = await useLab().validateSpec({ spec: doc.value })
      if (mine !== version) return false
      issues.value = r.ok ? [] : r.issues
      resolved.value = r.ok ? r.spec : null
      return r.ok
    } catch (e) {
      if (mine === version) issues.value = [{ path: '', message: errorText(e) }]
      return false
    } finally {
      if (mine === version) checking.value = false
    }
  }

  watch(
    doc,
    () => {
      version++
      checking.value = true
      if (timer) clearTimeout(timer)
      timer = setTimeout(() => void validate(), VALIDATE_DELAY_MS)
    },
    { deep: true },
  )

  /** Replace the whole document (gallery, session, JSON editor). */
  function load(raw: unknown): void {
    doc.value = normalizeDoc(raw)
  }

  /** Set or (undefined) remove the value at an issue path. */
  function set(path: string, value: unknown): void {
    setPath(doc.value, path, value)
  }

  /** Messages for exactly this path, joined. */
  const issueAt = (path: string): string =>
    issues.value
      .filter((i) => i.path === path)
      .map((i) => i.message)
      .join('; ')

  const labels = computed(() => doc.value.schedulers.map(labelOf))
  const ok = computed(() => issues.value.length === 0 && !checking.value)

  return { doc, issues, resolved, checking, ok, labels, validate, load, set, issueAt }
})
