// The parameters a sweep can vary, read from the spec document and the catalogue: every tunable of
// every scheduler entry, every device and host parameter, every workload parameter of every process.
import type { ParamSpec } from '../../../shared/util/params'
import type { useCatalogue } from '../stores/catalogue'
import { entryOf, labelOf } from './spec-doc'
import type { SpecDoc } from './spec-doc'

export interface SweepableParam {
  path: string
  group: string
  spec: ParamSpec
}

export function sweepableParams(doc: SpecDoc, cat: ReturnType<typeof useCatalogue>): SweepableParam[] {
  const out: SweepableParam[] = []
  doc.schedulers.forEach((e, i) => {
    for (const t of cat.scheduler(entryOf(e).name)?.tunables ?? [])
      out.push({ path: `schedulers[${i}].tunables.${t.name}`, group: `scheduler ${labelOf(e)}`, spec: t })
  })
  const preset = cat.preset(doc.device.preset)
  for (const p of (preset && cat.model(preset.model)?.params) ?? [])
    out.push({ path: `device.overrides.${p.name}`, group: `device ${doc.device.preset}`, spec: p })
  for (const p of cat.cat?.hosts.params ?? [])
    out.push({ path: `host.overrides.${p.name}`, group: 'host', spec: p })
  doc.workload.processes.forEach((p, i) => {
    for (const w of cat.workload(p.type)?.params ?? [])
      out.push({ path: `workload.processes[${i}].params.${w.name}`, group: `process ${p.name}`, spec: w })
  })
  return out.filter((p) => p.spec.kind !== 'string')
}
