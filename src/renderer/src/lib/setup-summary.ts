// One line per setup section, for when the section is folded: what it holds, in the words of the
// form (the experiment's name and repetitions, the schedulers, the workload, the device, the host).
import type { SpecDoc } from './spec-doc'
import { labelOf } from './spec-doc'

export const SETUP_SECTIONS = ['experiment', 'schedulers', 'workload', 'device', 'host'] as const
export type SetupSectionId = (typeof SETUP_SECTIONS)[number]

/** "1 process", "2 processes". */
export const count = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`

const changed = (o: Record<string, unknown> | undefined): string => {
  const n = Object.keys(o ?? {}).length
  return n === 0 ? 'defaults' : `${count(n, 'parameter')} changed`
}

/** The summary line of a setup section. `model` is the device preset's model, when known. */
export function sectionSummary(id: SetupSectionId, doc: SpecDoc, model?: string): string {
  switch (id) {
    case 'experiment': {
      const reps = typeof doc.repetitions === 'number' ? doc.repetitions : 1
      const stable = doc.untilStable as { maxRepetitions?: unknown } | undefined
      const runs = stable
        ? `at least ${count(reps, 'repetition')}, until stable (at most ${typeof stable.maxRepetitions === 'number' ? stable.maxRepetitions : 10})`
        : count(reps, 'repetition')
      return [doc.name || 'untitled', runs, `seed ${typeof doc.seed === 'number' ? doc.seed : 1}`].join(' · ')
    }
    case 'schedulers': {
      const labels = doc.schedulers.map(labelOf)
      const tunables = doc.schedulers.reduce(
        (n, e) => n + (typeof e === 'string' ? 0 : Object.keys(e.tunables ?? {}).length),
        0,
      )
      const parts = [`${labels.length}: ${labels.join(', ')}`]
      if (tunables > 0) parts.push(`${count(tunables, 'tunable')} changed`)
      return parts.join(' · ')
    }
    case 'workload': {
      const w = doc.workload
      const procs = w.processes.map((p) => `${p.name} (${p.type})`)
      const parts = [`${count(w.processes.length, 'process', 'processes')}: ${procs.join(', ')}`]
      const files = w.files?.length ?? 0
      if (files > 0) parts.unshift(count(files, 'file'))
      const stop = w.stop?.processes ?? []
      const until = stop.length
        ? `stops when ${stop.join(', ')} ${stop.length === 1 ? 'finishes' : 'finish'}`
        : ''
      const max = w.stop?.maxSeconds !== undefined ? String(w.stop.maxSeconds) : ''
      if (until) parts.push(max ? `${until}, or after ${max} s` : until)
      else if (max) parts.push(`stops after ${max} s`)
      return parts.join(' · ')
    }
    case 'device':
      return [
        `${doc.device.preset || 'no preset'}${model ? ` (${model} model)` : ''}`,
        changed(doc.device.overrides),
      ].join(' · ')
    case 'host':
      return [doc.host?.preset ?? 'linux-modern', changed(doc.host?.overrides)].join(' · ')
  }
}
