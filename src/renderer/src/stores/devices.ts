// Real devices: what real runs need (root, fio) and how this lab gets root, the device list, the
// target and options of a real run with its preview (job file and command), doctor, and what was
// repaired at start. The run itself goes through the run store (its results join the comparison).
import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type {
  DoctorReport,
  RealAccess,
  RealDevice,
  RealDeviceTargetInput,
  RealPreview,
  RealRunInput,
  RealTargetInput,
  StartupRepair,
} from '../../../shared/api/real-contract'
import { errorText, useLab } from '../api'
import { useUi } from './ui'

/** Options as typed into the form. */
export interface RealRunForm {
  /** `scratch`, `dir` (a test file in `dir`), or a device name. */
  target: string
  /** The directory of a test file (target `dir`): an absolute path. */
  dir: string
  confirm: string
  scratchMiB: number | null
  maxSeconds: number | null
  rampSeconds: number | null
  /** Extra fio options, separated by spaces or lines. */
  fioArgs: string
  alsoSimulate: boolean
  dropCaches: boolean
  /** Trace the block events for the request stages (the reading takes CPU: real/trace-cost.ts). */
  trace: boolean
}

export const useDevices = defineStore('devices', () => {
  const access = shallowRef<RealAccess | null>(null)
  const devices = shallowRef<RealDevice[]>([])
  const loading = ref(false)
  const error = ref('')
  const doctor = shallowRef<DoctorReport | null>(null)
  const doctoring = ref(false)
  const startup = shallowRef<StartupRepair | null>(null)
  const startupSeen = ref(false)
  const preview = shallowRef<RealPreview | null>(null)
  const previewing = ref(false)
  const form = ref<RealRunForm>({
    target: 'scratch',
    dir: '',
    confirm: '',
    scratchMiB: null,
    maxSeconds: null,
    rampSeconds: null,
    fioArgs: '',
    alsoSimulate: true,
    dropCaches: true,
    trace: true,
  })

  async function load(): Promise<void> {
    loading.value = true
    try {
      const lab = useLab()
      const [a, d] = await Promise.all([lab.realAccess(), lab.devices()])
      access.value = a
      devices.value = d.devices
      error.value = ''
    } catch (e) {
      error.value = errorText(e)
    } finally {
      loading.value = false
    }
  }

  async function loadStartup(): Promise<void> {
    try {
      startup.value = await useLab().startupRepairs()
    } catch {
      startup.value = null
    }
  }

  async function runDoctor(): Promise<void> {
    doctoring.value = true
    try {
      doctor.value = await useLab().doctor()
      error.value = ''
      // root may have been granted (the helper), and devices restored
      await load()
    } catch (e) {
      error.value = errorText(e)
    } finally {
      doctoring.value = false
    }
  }

  const target = computed<RealTargetInput>(() => {
    const f = form.value
    if (f.target === 'dir') return { kind: 'dir', dir: f.dir.trim() }
    return f.target === 'scratch'
      ? { kind: 'scratch', ...(f.scratchMiB ? { sizeMiB: f.scratchMiB } : {}) }
      : { kind: 'device', name: f.target, confirm: f.confirm }
  })

  /** The target as a device to measure (fingerprint, validation); null for a test file in a directory. */
  const deviceTarget = computed<RealDeviceTargetInput | null>(() =>
    target.value.kind === 'dir' ? null : target.value,
  )

  /** The real run's input for a spec document. */
  function input(spec: unknown): RealRunInput {
    const f = form.value
    const fioArgs = f.fioArgs.split(/\s+/).filter(Boolean)
    return {
      spec,
      target: target.value,
      ...(fioArgs.length ? { fioArgs } : {}),
      ...(f.maxSeconds ? { maxSeconds: f.maxSeconds } : {}),
      ...(f.rampSeconds ? { rampSeconds: f.rampSeconds } : {}),
      alsoSimulate: f.alsoSimulate,
      dropCaches: f.dropCaches,
      trace: f.trace,
      ...(useUi().allowLarge ? { allowLarge: true } : {}),
    }
  }

  let asked = 0
  async function refreshPreview(spec: unknown): Promise<void> {
    const mine = ++asked
    previewing.value = true
    try {
      const p = await useLab().previewRealRun(input(spec))
      if (mine === asked) preview.value = p
    } catch (e) {
      if (mine === asked) error.value = errorText(e)
    } finally {
      if (mine === asked) previewing.value = false
    }
  }

  const device = (name: string): RealDevice | undefined => devices.value.find((d) => d.name === name)

  return {
    access,
    devices,
    loading,
    error,
    doctor,
    doctoring,
    startup,
    startupSeen,
    preview,
    previewing,
    form,
    target,
    deviceTarget,
    load,
    loadStartup,
    runDoctor,
    input,
    refreshPreview,
    device,
  }
})
