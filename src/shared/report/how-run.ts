import type { RunResult } from '../experiment/result'
import type { ReportInput } from './input'
import { isResolved, resolvedOverrides, resolvedTunables, resolvedWorkload } from './resolved-setup'

// What a reader needs to repeat an experiment from its text report: where each set of runs came
// from (simulated on which model, measured on which device, imported from which tool's file), the
// workload — files, processes with their parameters, when the run stops — and the schedulers'
// tunables and the device's and host's changed parameters. From the spec when the document holds
// it (as written, or resolved: then only what differs from the defaults), else from what the runs
// say.

type Obj = Record<string, unknown>
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)

/** `k=v k=v`, values as JSON would write them but strings bare. */
export const keyValues = (o: Obj): string =>
  Object.entries(o)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ')

/** Where a run came from, in words: "simulated (hdd-2003-ide)", "real (sdb)", "imported (fio 3.33, a.json)". */
export function sourceOf(r: RunResult): string {
  if (r.imported)
    return `imported (${r.imported.tool}${r.imported.version ? ` ${r.imported.version}` : ''}, ${r.imported.file})`
  return r.source === 'real' ? `real (${r.device})` : `simulated (${r.device})`
}

/** One [label, source] row per label and source of the summary. */
export function sourceRows(input: ReportInput): string[][] {
  return input.summary.map((s) => {
    const runs = input.runs.filter((r) => r.label === s.label && r.source === s.source)
    const sources = [...new Set(runs.map(sourceOf))]
    return [s.source === 'real' ? `${s.label} (real)` : s.label, sources.join('; ') || s.source]
  })
}

/** The workload's lines: files, each process with its type and parameters, the stop rule. */
export function workloadLines(spec: unknown): string[] {
  const w = isResolved(spec)
    ? (resolvedWorkload(spec) as unknown as Obj)
    : isObj(spec) && isObj(spec.workload)
      ? spec.workload
      : null
  if (!w) return []
  const out: string[] = []
  const files = Array.isArray(w.files) ? w.files.filter(isObj) : []
  if (files.length > 0)
    out.push(
      `files: ${files.map((f) => `${String(f.name)} ${String(f.size)}${f.at !== undefined ? ` at ${String(f.at)}` : ''}`).join(', ')}`,
    )
  for (const p of Array.isArray(w.processes) ? w.processes.filter(isObj) : []) {
    const extra: string[] = []
    if (p.startMs !== undefined) extra.push(`starts at ${String(p.startMs)} ms`)
    if (p.ioClass !== undefined)
      extra.push(`ionice ${String(p.ioClass)}${p.ioLevel !== undefined ? `/${String(p.ioLevel)}` : ''}`)
    if (p.nice !== undefined) extra.push(`nice ${String(p.nice)}`)
    const params = isObj(p.params) && Object.keys(p.params).length > 0 ? ` ${keyValues(p.params)}` : ''
    out.push(`${String(p.name)}: ${String(p.type)}${params}${extra.length ? `; ${extra.join(', ')}` : ''}`)
  }
  const stop = isObj(w.stop) ? w.stop : {}
  const until =
    Array.isArray(stop.processes) && stop.processes.length > 0
      ? `when ${stop.processes.join(', ')} ${stop.processes.length === 1 ? 'finishes' : 'finish'}`
      : ''
  const max = stop.maxSeconds !== undefined ? `or after ${String(stop.maxSeconds)} s at the latest` : ''
  out.push(
    `stops: ${[until || 'when every process that ends on its own has ended', max].filter(Boolean).join(', ')}`,
  )
  return out
}

/** Each scheduler entry with its tunables, and the device's and host's changed parameters. */
export function tunableLines(input: ReportInput): string[] {
  const spec = isObj(input.spec) ? input.spec : null
  const out: string[] = []
  if (isResolved(spec)) {
    for (const e of resolvedTunables(spec))
      out.push(
        `${e.label}: ${e.name}, ${Object.keys(e.tunables).length > 0 ? keyValues(e.tunables) : 'defaults'}`,
      )
    const o = resolvedOverrides(spec)
    if (Object.keys(o.device).length > 0) out.push(`device ${spec.device.preset}: ${keyValues(o.device)}`)
    if (Object.keys(o.host).length > 0) out.push(`host ${spec.host.preset}: ${keyValues(o.host)}`)
    return out
  }
  if (spec && Array.isArray(spec.schedulers)) {
    for (const e of spec.schedulers) {
      if (typeof e === 'string') out.push(`${e}: ${e}, defaults`)
      else if (isObj(e)) {
        const t = isObj(e.tunables) && Object.keys(e.tunables).length > 0 ? keyValues(e.tunables) : 'defaults'
        out.push(`${String(e.label ?? e.name)}: ${String(e.name)}, ${t}`)
      }
    }
    for (const part of ['device', 'host'] as const) {
      const o = spec[part]
      if (isObj(o) && isObj(o.overrides) && Object.keys(o.overrides).length > 0)
        out.push(`${part} ${String(o.preset ?? '')}: ${keyValues(o.overrides)}`)
    }
    return out
  }
  // no spec (run output, imports): the tunables each label ran with
  for (const s of input.summary) {
    const r = input.runs.find((x) => x.label === s.label && x.source === s.source)
    if (!r) continue
    const t = Object.keys(r.tunables ?? {}).length > 0 ? keyValues(r.tunables) : 'not recorded'
    out.push(`${s.label}: ${r.scheduler}, ${t}`)
  }
  return out
}
