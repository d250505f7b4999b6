import { schedulers } from './schedulers/registry'
import { workloads } from './workloads/registry'
import { DEVICE_MODELS, devicePresets } from './devices/registry'
import { hostParams } from './host/params'
import { hostPresets } from './host/presets'
import { fileSystems } from './fs/registry'

/**
 * Everything the lab can model, as one serialisable document: schedulers with their era,
 * explanation and tunables; device models and presets (each value with its source); host
 * parameters and presets; file systems with their mount options; workloads with their parameters. The CLI's `list --json` prints it and
 * the UI renders it — both from the same data.
 */
export function catalogue() {
  return {
    schema: 'iosched-lab/catalogue@1' as const,
    schedulers: schedulers.map((s) => ({
      name: s.name,
      aliases: s.aliases,
      era: s.era,
      layer: s.layer,
      summary: s.summary,
      explanation: s.explanation,
      usesIoPriority: s.usesIoPriority,
      tunables: s.tunables,
      constants: s.constants ?? [],
    })),
    devices: {
      models: DEVICE_MODELS.map((m) => ({ name: m.name, summary: m.summary, params: m.params })),
      presets: devicePresets().map((p) => ({ ...p })),
    },
    hosts: { params: hostParams, presets: hostPresets },
    fileSystems: fileSystems.map((f) => ({ name: f.name, summary: f.summary, era: f.era, params: f.params })),
    workloads: workloads.map((w) => ({ name: w.name, summary: w.summary, params: w.params })),
  }
}

export type Catalogue = ReturnType<typeof catalogue>
