// Which columns the comparison table shows: the column picker's choice, per column kind (one
// choice for every process's p95 …), kept in localStorage so a reload shows the same table.
// Columns the user never chose keep their default, so a column added later shows as it should.
import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import { COLUMNS } from '../lib/metrics'
import { storage } from '../lib/local-storage'

export const COLUMNS_KEY = 'iosched-lab:columns'

/** The saved choices, column key → shown; anything unreadable is no choice at all. */
export function readChoices(text: string | null): Record<string, boolean> {
  if (!text) return {}
  try {
    const v: unknown = JSON.parse(text)
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return {}
    const known = new Set(COLUMNS.map((c) => c.key))
    return Object.fromEntries(
      Object.entries(v).filter(([k, x]) => known.has(k) && typeof x === 'boolean'),
    ) as Record<string, boolean>
  } catch {
    return {}
  }
}

export const useColumns = defineStore('columns', () => {
  const choices = ref<Record<string, boolean>>(readChoices(storage()?.getItem(COLUMNS_KEY) ?? null))

  /** Keys of the columns shown, in the table's order. */
  const shown = computed(() => COLUMNS.filter((c) => choices.value[c.key] ?? c.shown).map((c) => c.key))
  const isShown = (key: string): boolean => shown.value.includes(key)

  function save(): void {
    try {
      const s = storage()
      if (Object.keys(choices.value).length === 0) s?.removeItem(COLUMNS_KEY)
      else s?.setItem(COLUMNS_KEY, JSON.stringify(choices.value))
    } catch {
      // storage full or refused: the choice holds until the page closes
    }
  }

  function set(key: string, on: boolean): void {
    const def = COLUMNS.find((c) => c.key === key)
    if (!def) return
    const next = { ...choices.value }
    if (on === def.shown) delete next[key]
    else next[key] = on
    choices.value = next
    save()
  }

  /** Back to the default columns. */
  function reset(): void {
    choices.value = {}
    save()
  }

  return { choices, shown, isShown, set, reset }
})
