import { Engine } from '../sim/engine'
import { Rng } from '../sim/rng'
import { IOPRIO_CLASS_NAMES } from '../block/types'
import type { IoPrioClass } from '../block/types'
import { createDevice, resolveDevice } from '../devices/registry'
import { hostParams } from '../host/params'
import { checkWriteCall } from '../host/write-call'
import { hostPresets } from '../host/presets'
import type { HostPreset } from '../host/presets'
import { fileSystems, findFileSystem } from '../fs/registry'
import type { FsSpec } from '../fs/types'
import { findScheduler, schedulers } from '../schedulers/registry'
import { findWorkload, workloads } from '../workloads/registry'
import type { ParamIssue } from '../util/params'
import { parseSize, resolveParams } from '../util/params'
import { jsonPathSegments, locateJsonPath } from '../util/json-text'
import { describeValue, zodIssues } from './format-issues'
import type { ResolvedFile, ResolvedProcess, ResolvedScheduler, ResolvedSpec } from './resolved'
import { specSchema } from './schema'
import { partsOf, salvage } from './spec-parts'
import { DEFAULT_STABLE_CV_PERCENT, DEFAULT_STABLE_MAX_REPETITIONS } from './stability'

export type Validation = { ok: true; spec: ResolvedSpec } | { ok: false; issues: ParamIssue[] }

export const DEFAULT_MAX_SECONDS = 600
/** Pages a process with `memory` touches between two of its system calls, unless it says. */
export const DEFAULT_PAGES_PER_CALL = 16

/** Render issues one per line: `path: message`. */
export function formatIssues(issues: readonly ParamIssue[]): string {
  return issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('\n')
}

export class SpecError extends Error {
  constructor(readonly issues: ParamIssue[]) {
    super(formatIssues(issues))
    this.name = 'SpecError'
  }
}

/**
 * Validate and resolve an experiment spec (parsed JSON). Never throws on bad input. Every problem
 * is reported at once: the structure's (zod's, all of them), and the checks of every part that is
 * well formed — a process with a bad `startMs` does not hide an unknown scheduler elsewhere.
 */
export function validateSpec(doc: unknown): Validation {
  const parsed = specSchema.safeParse(doc, { reportInput: true })
  const issues: ParamIssue[] = parsed.success ? [] : zodIssues(parsed.error, doc)
  const s = parsed.success ? partsOf(parsed.data) : salvage(doc)

  // Device: a preset with overrides; build it once to learn its capacity.
  const dev = s.device && resolveDevice(s.device.preset, s.device.overrides, 'device', issues)
  let capacitySectors = 0
  if (dev) {
    try {
      const d = createDevice(dev.model, dev.values, {
        engine: new Engine(),
        sink: { deviceCompleted() {} },
        rng: new Rng(0),
      })
      capacitySectors = d.info.capacitySectors
    } catch (e) {
      issues.push({ path: 'device.overrides', message: (e as Error).message })
    }
    if (dev.model === 'virtual') checkSchedulerPath(dev.values.schedulerPathUs, issues)
  }

  // Host: a preset with overrides.
  const hostPresetName = s.host?.preset ?? 'linux-modern'
  const hp = hostPresets.find((p) => p.name === hostPresetName)
  if (!hp)
    issues.push({
      path: 'host.preset',
      message: `unknown host preset ${describeValue(hostPresetName)}; known: ${hostPresets.map((p) => p.name).join(', ')}`,
    })
  const hostValues = resolveParams(hostParams, s.host?.overrides, 'host.overrides', issues, hp?.values)
  if ((hostValues.reservedMiB as number) >= (hostValues.memoryMiB as number))
    issues.push({
      path: 'host.overrides.reservedMiB',
      message: `must be less than memoryMiB (${hostValues.memoryMiB})`,
    })

  checkWriteCall(hostValues, 'host.overrides.writeCallQuantilesUs', issues)

  const filesystem = resolveFileSystem(s.host?.filesystem, hp?.filesystem, issues)

  // Processes and their workloads.
  const processes: ResolvedProcess[] = []
  const names = new Set<string>()
  const needs = new Map<string, { size: number; path: string }>()
  s.processes.forEach((p, i) => {
    const path = `workload.processes[${i}]`
    if (p === null) {
      // malformed (reported above): its name still counts for the stop list
      if (s.processNames[i] !== undefined) names.add(s.processNames[i])
      return
    }
    if (names.has(p.name))
      issues.push({ path: `${path}.name`, message: `duplicate process name ${describeValue(p.name)}` })
    names.add(p.name)
    const w = findWorkload(p.type)
    if (!w) {
      issues.push({
        path: `${path}.type`,
        message: `unknown workload ${describeValue(p.type)}; known: ${workloads.map((x) => x.name).join(', ')}`,
      })
      return
    }
    const before = issues.length
    const params = resolveParams(w.params, p.params, `${path}.params`, issues)
    if (issues.length === before)
      for (const [k, m] of w.check?.(params, { capacitySectors }) ?? [])
        issues.push({ path: `${path}.params.${k}`, message: m })
    for (const f of w.files(params, p.name)) {
      const prev = needs.get(f.name)
      if (!prev || prev.size < f.size) needs.set(f.name, { size: f.size, path })
    }
    const ioClass = IOPRIO_CLASS_NAMES.indexOf(p.ioClass ?? 'none') as IoPrioClass
    processes.push({
      name: p.name,
      type: w.name,
      params,
      startMs: p.startMs ?? 0,
      ioClass,
      ioLevel: p.ioLevel ?? 4,
      nice: p.nice ?? 0,
      ...(p.memory
        ? {
            memory: {
              pages: Math.max(1, Math.round((p.memory.MiB * 2 ** 20) / 4096)),
              pattern: p.memory.pattern ?? 'sequential',
              pagesPerCall: p.memory.pagesPerCall ?? DEFAULT_PAGES_PER_CALL,
            },
          }
        : {}),
    })
  })

  // Files: declared ones first, then whatever the workloads need.
  const files: ResolvedFile[] = []
  const declared = new Set<string>()
  s.files.forEach((f, i) => {
    const path = `workload.files[${i}]`
    if (f === null) return
    if (declared.has(f.name))
      issues.push({ path: `${path}.name`, message: `duplicate file name ${describeValue(f.name)}` })
    if (f.name === '/dev')
      issues.push({
        path: `${path}.name`,
        message: '"/dev" is the raw device and cannot be declared as a file',
      })
    declared.add(f.name)
    const size = sizeOf(f.size, `${path}.size`, issues)
    const need = needs.get(f.name)
    if (need && size < need.size)
      issues.push({
        path: `${path}.size`,
        message: `${size} bytes is smaller than ${need.path} needs (${need.size} bytes)`,
      })
    const rf: ResolvedFile = { name: f.name, size: Math.max(size, need?.size ?? 0) }
    if (f.at !== undefined) rf.atSector = placeAt(f.at, capacitySectors, `${path}.at`, issues)
    if (f.extent !== undefined) rf.extentBytes = sizeOf(f.extent, `${path}.extent`, issues)
    if (f.gap !== undefined) rf.gapBytes = sizeOf(f.gap, `${path}.gap`, issues)
    files.push(rf)
  })
  for (const [n, need] of needs) if (!declared.has(n)) files.push({ name: n, size: need.size })
  if (capacitySectors > 0) {
    const total = files.reduce((a, f) => a + Math.ceil(f.size / 512), 0)
    if (total > capacitySectors)
      issues.push({
        path: 'workload',
        message: `the files need ${total * 512} bytes but the device holds ${capacitySectors * 512}`,
      })
  }

  // Stop condition.
  const stopNames = s.stop?.processes
  stopNames?.forEach((n, i) => {
    if (!names.has(n))
      issues.push({ path: `workload.stop.processes[${i}]`, message: `no process named ${describeValue(n)}` })
  })
  const finite = processes.filter((p) => !findWorkload(p.type)!.openEnded(p.params)).map((p) => p.name)
  const stop = {
    processes: stopNames ?? finite,
    maxSeconds: s.stop?.maxSeconds ?? DEFAULT_MAX_SECONDS,
  }

  // Schedulers.
  const scheds: ResolvedScheduler[] = []
  const labels = new Map<string, number>()
  s.schedulers.forEach((e, i) => {
    const path = `schedulers[${i}]`
    if (e === null) return
    const entry = typeof e === 'string' ? { name: e } : e
    const t = findScheduler(entry.name)
    if (!t) {
      issues.push({
        path: typeof e === 'string' ? path : `${path}.name`,
        message: `unknown scheduler ${describeValue(entry.name)}; known: ${schedulers.map((x) => x.name).join(', ')}`,
      })
      return
    }
    const tunables = resolveParams(
      t.tunables,
      'tunables' in entry ? entry.tunables : undefined,
      `${path}.tunables`,
      issues,
    )
    // the name as written (`none`, `as` …) labels the entry unless a label is given
    const label = ('label' in entry && entry.label) || entry.name
    const prev = labels.get(label)
    if (prev !== undefined)
      issues.push({
        path,
        message: `label ${describeValue(label)} is also used by schedulers[${prev}]; give each a distinct "label"`,
      })
    labels.set(label, i)
    scheds.push({ name: t.name, label, tunables })
  })

  const reps = s.repetitions ?? 1
  const maxReps = s.untilStable?.maxRepetitions ?? DEFAULT_STABLE_MAX_REPETITIONS
  if (s.untilStable && maxReps < reps)
    issues.push({
      path: 'untilStable.maxRepetitions',
      message: `must be at least repetitions (${reps}), the least number of runs; got ${maxReps}`,
    })
  if (issues.length > 0 || !dev || !s.device) return { ok: false, issues: inDocumentOrder(issues, doc) }
  return {
    ok: true,
    spec: {
      name: s.name ?? 'experiment',
      description: s.description ?? '',
      device: { preset: s.device.preset, model: dev.model, values: dev.values, capacitySectors },
      host: { preset: hostPresetName, values: hostValues, filesystem },
      files,
      processes,
      stop,
      schedulers: scheds,
      repetitions: reps,
      ...(s.untilStable
        ? {
            untilStable: {
              cvPercent: s.untilStable.cvPercent ?? DEFAULT_STABLE_CV_PERCENT,
              maxRepetitions: maxReps,
            },
          }
        : {}),
      seed: s.seed ?? 1,
    },
  }
}

/** The issues in the order of the places they name in the document (stable for one place). */
function inDocumentOrder(issues: ParamIssue[], doc: unknown): ParamIssue[] {
  let text: string
  try {
    text = JSON.stringify(doc) ?? ''
  } catch {
    return issues
  }
  const at = issues.map((i) => locateJsonPath(text, jsonPathSegments(i.path)))
  return issues
    .map((i, k) => ({ i, k }))
    .sort((a, b) => at[a.k] - at[b.k] || a.k - b.k)
    .map((x) => x.i)
}

/** Validate or throw a SpecError listing every problem. */
export function resolveSpec(doc: unknown): ResolvedSpec {
  const v = validateSpec(doc)
  if (!v.ok) throw new SpecError(v.issues)
  return v.spec
}

function sizeOf(v: number | string, path: string, issues: ParamIssue[]): number {
  const n = parseSize(v)
  if (!Number.isFinite(n) || n < 0) {
    issues.push({ path, message: `expected a size (bytes, or like "4k", "1M"), got ${describeValue(v)}` })
    return 0
  }
  return n
}

function placeAt(v: number | string, capacity: number, path: string, issues: ParamIssue[]): number {
  if (typeof v === 'string' && /^\s*\d+(\.\d+)?\s*%\s*$/.test(v)) {
    const pct = parseFloat(v)
    if (pct > 100) issues.push({ path, message: `expected a share ≤ 100%, got ${describeValue(v)}` })
    return Math.floor((capacity * Math.min(pct, 100)) / 100 / 8) * 8
  }
  if (typeof v === 'number') return Math.floor(v)
  return Math.floor(sizeOf(v, path, issues) / 512 / 8) * 8
}

/**
 * `host.filesystem`: a type (default: the preset's) and its mount options, each checked against
 * the file system's parameter data; the preset's options apply when the type is the preset's.
 */
function resolveFileSystem(
  given: { type?: string; [k: string]: unknown } | undefined,
  preset: HostPreset['filesystem'],
  issues: ParamIssue[],
): FsSpec {
  const type = given?.type ?? preset?.type ?? 'none'
  const fs = findFileSystem(type)
  if (!fs) {
    issues.push({
      path: 'host.filesystem.type',
      message: `unknown file system ${describeValue(type)}; known: ${fileSystems.map((f) => f.name).join(', ')}`,
    })
    return { type: 'none', values: {} }
  }
  const base = preset?.type === type ? preset.options : undefined
  const options: Record<string, unknown> = { ...given }
  delete options.type
  return { type, values: resolveParams(fs.params, options, 'host.filesystem', issues, base) }
}

/**
 * A virtual device's `schedulerPathUs` names schedulers as the simulator does: an unknown name
 * (or a kernel alias, which the device would never be asked for) is an error, not a silent miss.
 */
function checkSchedulerPath(text: unknown, issues: ParamIssue[]): void {
  if (typeof text !== 'string') return
  for (const part of text.split(',')) {
    const name = /^\s*([a-z][a-z0-9-]*)\s*:/i.exec(part)?.[1]
    if (name === undefined) continue // a malformed entry: the device's own check reports it
    const t = findScheduler(name)
    const path = 'device.overrides.schedulerPathUs'
    if (t === undefined)
      issues.push({
        path,
        message: `unknown scheduler "${name}"; known: ${schedulers.map((x) => x.name).join(', ')}`,
      })
    else if (t.name !== name)
      issues.push({ path, message: `"${name}" is called "${t.name}" here: write "${t.name}:…"` })
  }
}
