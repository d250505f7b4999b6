// The gallery of ready experiments (examples/*.json on the lab's side).
import { defineStore } from 'pinia'
import { ref, shallowRef } from 'vue'
import type { Example } from '../../../shared/api/contract'
import { errorText, useLab } from '../api'

export const useGallery = defineStore('gallery', () => {
  const examples = shallowRef<Example[]>([])
  const error = ref('')
  const loaded = ref(false)

  async function load(): Promise<void> {
    try {
      examples.value = await useLab().examples()
      loaded.value = true
    } catch (e) {
      error.value = errorText(e)
    }
  }

  return { examples, error, loaded, load }
})
