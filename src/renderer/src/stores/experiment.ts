// The experiment being set up: the spec document, edited by the form or as JSON, and what the
// shared validation (through the API) says about it, by path.
import { defineStore } from 'pinia'
import { computed, ref, shallowRef, watch } from 'vue'
import type { ResolvedSpec } from '../../../shared/experiment/resolved'
import type { ParamIssue } from '../../../shared/util/params'
import { errorText, useLab } from '../api'
import { blankDoc, labelOf, normalizeDoc, setPath } from '../lib/spec-doc'
import type { JsonSyntaxError } from '../../../shared/util/json-text'
import { parseJsonText } from '../../../shared/util/json-text'
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
    draft.value = null
    doc.value = normalizeDoc(raw)
  }

  // The JSON tab's text while it is edited and not applied: its syntax error (line and column),
  // or what the validation says of it — shown instead of the document's, so the list never calls
  // the spec valid while the text in front of the user does not parse.
  const draft = ref<string | null>(null)
  const draftSyntax = ref<JsonSyntaxError | null>(null)
  const draftIssues = ref<ParamIssue[]>([])
  const draftChecking = ref(false)
  let draftVersion = 0
  let draftTimer: ReturnType<typeof setTimeout> | null = null

  /** The JSON tab's text as edited, or null when it is the document again (applied, reverted). */
  function setDraft(text: string | null): void {
    draft.value = text
    const mine = ++draftVersion
    if (draftTimer) clearTimeout(draftTimer)
    draftTimer = null
    draftIssues.value = []
    if (text === null) {
      draftSyntax.value = null
      draftChecking.value = false
      return
    }
    const parsed = parseJsonText(text)
    draftSyntax.value = parsed.ok ? null : parsed.error
    if (!parsed.ok) {
      draftChecking.value = false
      return
    }
    draftChecking.value = true
    draftTimer = setTimeout(() => {
      useLab()
        .validateSpec({ spec: parsed.value })
        .then((r) => {
          if (mine === draftVersion) draftIssues.value = r.ok ? [] : r.issues
        })
        .catch((e: unknown) => {
          if (mine === draftVersion) draftIssues.value = [{ path: '', message: errorText(e) }]
        })
        .finally(() => {
          if (mine === draftVersion) draftChecking.value = false
        })
    }, VALIDATE_DELAY_MS)
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

  return {
    doc,
    issues,
    resolved,
    checking,
    ok,
    labels,
    validate,
    load,
    set,
    issueAt,
    draft,
    draftSyntax,
    draftIssues,
    draftChecking,
    setDraft,
  }
})
