import { IOPRIO_CLASS_NAMES } from '../block/types'
import { DEVICE_MODELS, devicePresets } from '../devices/registry'
import type { ResolvedSpec } from '../experiment/resolved'
import { hostParams } from '../host/params'
import { hostPresets } from '../host/presets'
import { schedulers } from '../schedulers/registry'
import type { ParamSpec, ParamValues } from '../util/params'
import { workloads } from '../workloads/registry'

// A resolved spec (what a result holds: every default filled in) told as a person would write it:
// only what differs from the defaults — a workload's parameters from its type's, a scheduler's
// tunables from the kernel's, the device's and host's values from their preset's — sizes in K, M, G.

/** 1048576 → "1M", 536870912 → "512M", 1000 → "1000". */
export function sizeText(bytes: number): string {
  for (const [unit, n] of [
    ['G', 2 ** 30],
    ['M', 2 ** 20],
    ['K', 2 ** 10],
  ] as const)
    if (bytes >= n && bytes % n === 0) return `${bytes / n}${unit}`
  return String(bytes)
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b)

/** The values that differ from `params`' defaults (over `base`), sizes written short. */
export function changedValues(
  values: ParamValues,
  params: readonly ParamSpec[],
  base: ParamValues = {},
): ParamValues {
  const out: ParamValues = {}
  for (const [k, v] of Object.entries(values)) {
    const spec = params.find((p) => p.name === k)
    const def = k in base ? base[k] : spec?.default
    if (def !== undefined && same(v, def)) continue
    out[k] = spec?.kind === 'size' && typeof v === 'number' ? sizeText(v) : v
  }
  return out
}

/** Whether a spec is a resolved one (files and processes at its top level). */
export const isResolved = (spec: unknown): spec is ResolvedSpec =>
  typeof spec === 'object' && spec !== null && Array.isArray((spec as { processes?: unknown }).processes)

/** The workload of a resolved spec as the form writes it (files, processes, stop). */
export function resolvedWorkload(spec: ResolvedSpec): {
  files: Array<{ name: string; size: string }>
  processes: Array<{
    name: string
    type: string
    params: ParamValues
    startMs?: number
    ioClass?: string
    ioLevel?: number
    nice?: number
  }>
  stop: { processes: string[]; maxSeconds: number }
} {
  return {
    files: spec.files.map((f) => ({ name: f.name, size: sizeText(f.size) })),
    processes: spec.processes.map((p) => ({
      name: p.name,
      type: p.type,
      params: changedValues(p.params, workloads.find((w) => w.name === p.type)?.params ?? []),
      ...(p.startMs > 0 ? { startMs: p.startMs } : {}),
      ...(p.ioClass !== 0 ? { ioClass: IOPRIO_CLASS_NAMES[p.ioClass], ioLevel: p.ioLevel } : {}),
      ...(p.nice !== 0 ? { nice: p.nice } : {}),
    })),
    stop: spec.stop,
  }
}

/** Each scheduler entry's tunables that are not the kernel's defaults. */
export function resolvedTunables(
  spec: ResolvedSpec,
): Array<{ label: string; name: string; tunables: ParamValues }> {
  return spec.schedulers.map((s) => ({
    label: s.label,
    name: s.name,
    tunables: changedValues(s.tunables, schedulers.find((x) => x.name === s.name)?.tunables ?? []),
  }))
}

/** The device's and the host's values that are not their preset's. */
export function resolvedOverrides(spec: ResolvedSpec): { device: ParamValues; host: ParamValues } {
  const model = DEVICE_MODELS.find((m) => m.name === spec.device.model)
  const preset = devicePresets().find((p) => p.name === spec.device.preset)
  const host = hostPresets.find((p) => p.name === spec.host.preset)
  return {
    device: model ? changedValues(spec.device.values, model.params, preset?.values) : {},
    host: changedValues(spec.host.values, hostParams, host?.values),
  }
}
