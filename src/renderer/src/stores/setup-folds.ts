// Which setup sections are folded: kept in localStorage, so the setup page looks the same after
// going to the results and back, or after a reload.
import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { SetupSectionId } from '../lib/setup-summary'
import { storage } from '../lib/local-storage'

export const FOLDS_KEY = 'iosched-lab.setup.folded'

function load(): SetupSectionId[] {
  try {
    const v: unknown = JSON.parse(storage()?.getItem(FOLDS_KEY) ?? '[]')
    return Array.isArray(v) ? v.filter((x): x is SetupSectionId => typeof x === 'string') : []
  } catch {
    return []
  }
}

export const useSetupFolds = defineStore('setup-folds', () => {
  const folded = ref<SetupSectionId[]>(load())

  const isFolded = (id: SetupSectionId): boolean => folded.value.includes(id)

  function fold(id: SetupSectionId, on: boolean): void {
    if (on === isFolded(id)) return
    folded.value = on ? [...folded.value, id] : folded.value.filter((x) => x !== id)
    try {
      storage()?.setItem(FOLDS_KEY, JSON.stringify(folded.value))
    } catch {
      // storage full or refused: folding still works for this page
    }
  }

  /** Fold or unfold every section in `ids`. */
  function foldAll(ids: readonly SetupSectionId[], on: boolean): void {
    for (const id of ids) fold(id, on)
  }

  return { folded, isFolded, fold, foldAll }
})
