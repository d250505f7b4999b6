// The catalogue: what the lab models (schedulers, devices, hosts, workloads), loaded once.
import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { Catalogue } from '../../../shared/catalogue'
import { errorText, useLab } from '../api'

export type SchedulerInfo = Catalogue['schedulers'][number]
export type PresetInfo = Catalogue['devices']['presets'][number]
export type WorkloadInfo = Catalogue['workloads'][number]

export const useCatalogue = defineStore('catalogue', () => {
  const cat = shallowRef<Catalogue | null>(null)
  const error = ref('')

  /** Load once; `force` loads again (a fingerprint added a device preset). */
  async function load(force = false): Promise<void> {
    if (cat.value && !force) return
    try {
      cat.value = await useLab().catalogue()
    } catch (e) {
      error.value = errorText(e)
    }
  }

  const scheduler = (name: string): SchedulerInfo | undefined =>
    cat.value?.schedulers.find((s) => s.name === name || s.aliases.includes(name))
  const preset = (name: string): PresetInfo | undefined =>
    cat.value?.devices.presets.find((p) => p.name === name)
  const model = (name: string) => cat.value?.devices.models.find((m) => m.name === name)
  const workload = (name: string): WorkloadInfo | undefined =>
    cat.value?.workloads.find((w) => w.name === name)
  const hostPreset = (name: string) => cat.value?.hosts.presets.find((p) => p.name === name)
  const ready = computed(() => cat.value !== null)

  return { cat, error, ready, load, scheduler, preset, model, workload, hostPreset }
})
