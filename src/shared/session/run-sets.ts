// A session's runs as run sets — the repetitions of one scheduler label from the result, the extra
// runs or a sweep point — with the facts the library lists and filters on, and the index of them
// that a session file carries in its header.
import type { ExperimentResult } from '../experiment/compare'
import { groupProcesses } from '../experiment/process-groups'
import { runKind } from '../experiment/result'
import type { RunResult } from '../experiment/result'
import type { SessionDocument, SessionIndex, RunSetFacts } from './types'

/** What a session holds, as far as its runs go. */
export type SessionContent = Pick<SessionDocument, 'result' | 'sweep' | 'runs'>

export interface RunSet {
  facts: RunSetFacts
  runs: RunResult[]
}

export { runKind }

/** A tool's name as a workload type: `GNU dd` → `dd`, `KDiskMark` → `kdiskmark`. */
export const toolWorkload = (tool: string): string =>
  tool
    .trim()
    .toLowerCase()
    .replace(/^(gnu|bsd)\s+/, '')

/** Every run set of a session, in order: the result's labels, the sweep's points, the extra runs. */
export function runSetsOf(content: SessionContent): RunSet[] {
  const sets: RunSet[] = []
  if (content.result) sets.push(...fromExperiment(content.result, 'result/'))
  content.sweep?.points.forEach((p, i) => {
    for (const s of fromExperiment(p.result, `sweep/${i}/`))
      sets.push({ ...s, facts: { ...s.facts, point: { path: content.sweep!.sweep.path, value: p.value } } })
  })
  const extra = new Map<string, RunResult[]>()
  for (const r of content.runs) {
    const key = `runs/${runKind(r)}/${r.label}`
    const g = extra.get(key)
    if (g) g.push(r)
    else extra.set(key, [r])
  }
  for (const [key, runs] of extra) {
    const tool = runs.find((r) => r.imported)?.imported?.tool
    const workloads = unique(runs.map((r) => (r.imported ? toolWorkload(r.imported.tool) : '')))
    sets.push({ facts: factsOf(key, runs, workloads, tool), runs })
  }
  return sets
}

function fromExperiment(result: ExperimentResult, prefix: string): RunSet[] {
  const workloads = unique((result.spec?.processes ?? []).map((p) => p.type))
  const byLabel = new Map<string, RunResult[]>()
  for (const r of result.runs) {
    const g = byLabel.get(r.label)
    if (g) g.push(r)
    else byLabel.set(r.label, [r])
  }
  return [...byLabel].map(([label, runs]) => ({ facts: factsOf(prefix + label, runs, workloads), runs }))
}

function factsOf(key: string, runs: RunResult[], workloads: string[], tool?: string): RunSetFacts {
  const first = runs[0]
  const facts: RunSetFacts = {
    key,
    label: first.label,
    scheduler: first.scheduler,
    kind: runKind(first),
    device: first.device,
    workloads,
    processes: unique(runs.flatMap((r) => groupProcesses(r).processes.map((p) => p.name))),
    repetitions: runs.length,
    tunables: first.tunables ?? {},
  }
  if (tool) facts.tool = tool
  return facts
}

/** The index written in a session's header; `labels` has the spec's scheduler labels first. */
export function sessionIndex(content: SessionContent & { spec?: unknown }): SessionIndex {
  const sets = runSetsOf(content).map((s) => s.facts)
  return {
    runs: sets.reduce((n, s) => n + s.repetitions, 0),
    kinds: unique(sets.map((s) => s.kind)),
    devices: unique(sets.map((s) => s.device)),
    schedulers: unique(sets.map((s) => s.scheduler)),
    labels: unique([...specLabels(content.spec), ...sets.map((s) => s.label)]),
    workloads: unique(sets.flatMap((s) => s.workloads)),
    hasResult: content.result !== null,
    hasSweep: content.sweep !== null,
    runSets: sets,
  }
}

/** The runs of one set of a session, by its key; undefined when there is no such set. */
export function findRunSet(content: SessionContent, key: string): RunSet | undefined {
  return runSetsOf(content).find((s) => s.facts.key === key)
}

/** Labels of a spec document's schedulers, as far as they can be read without validating it. */
export function specLabels(spec: unknown): string[] {
  const list = (spec as { schedulers?: unknown } | null)?.schedulers
  if (!Array.isArray(list)) return []
  return list.map((e) =>
    typeof e === 'string'
      ? e
      : String((e as { label?: unknown; name?: unknown })?.label ?? (e as { name?: unknown })?.name ?? '?'),
  )
}

function unique<T extends string>(values: T[]): T[] {
  return [...new Set(values.filter((v) => v !== ''))]
}
