// The spec document as the setup form edits it: plain JSON, possibly invalid while being edited
// (the shared validation says where). Helpers to read and change it by issue path.
import { parsePath } from '../../../shared/api/sweep'

export interface SchedulerEntryDoc {
  name: string
  label?: string
  tunables?: Record<string, unknown>
}

export interface ProcessDoc {
  name: string
  type: string
  params?: Record<string, unknown>
  startMs?: unknown
  ioClass?: string
  ioLevel?: unknown
  nice?: unknown
}

export interface FileDoc {
  name: string
  size: unknown
  at?: unknown
}

export interface SpecDoc {
  name?: string
  description?: string
  device: { preset: string; overrides?: Record<string, unknown> }
  host?: { preset?: string; overrides?: Record<string, unknown> }
  workload: {
    files?: FileDoc[]
    processes: ProcessDoc[]
    stop?: { processes?: string[]; maxSeconds?: unknown }
  }
  schedulers: (string | SchedulerEntryDoc)[]
  repetitions?: unknown
  seed?: unknown
  [key: string]: unknown
}

export function blankDoc(): SpecDoc {
  return {
    name: 'my-experiment',
    device: { preset: 'hdd-7200-sata' },
    host: { preset: 'linux-modern' },
    workload: { processes: [{ name: 'reader', type: 'cat', params: { size: '100M' } }] },
    schedulers: ['noop', 'deadline'],
    repetitions: 1,
    seed: 1,
  }
}

/** A deep copy with the containers the form needs present (whatever else it holds is kept). */
export function normalizeDoc(raw: unknown): SpecDoc {
  const d = (
    raw && typeof raw === 'object' && !Array.isArray(raw) ? JSON.parse(JSON.stringify(raw)) : {}
  ) as SpecDoc
  if (!d.device || typeof d.device !== 'object') d.device = { preset: '' }
  if (!d.workload || typeof d.workload !== 'object') d.workload = { processes: [] }
  if (!Array.isArray(d.workload.processes)) d.workload.processes = []
  if (!Array.isArray(d.schedulers)) d.schedulers = []
  return d
}

export const entryOf = (e: string | SchedulerEntryDoc): SchedulerEntryDoc =>
  typeof e === 'string' ? { name: e } : e

export const labelOf = (e: string | SchedulerEntryDoc): string => {
  const x = entryOf(e)
  return x.label || x.name
}

/** `base`, or `base-2`, `base-3` … whichever no entry uses. */
export function uniqueLabel(taken: readonly string[], base: string): string {
  if (!taken.includes(base)) return base
  for (let i = 2; ; i++) if (!taken.includes(`${base}-${i}`)) return `${base}-${i}`
}

/**
 * Set (or, with undefined, remove) the value at an issue path such as
 * `schedulers[1].tunables.fifo_batch`, creating objects on the way and dropping emptied ones.
 */
export function setPath(doc: SpecDoc, path: string, value: unknown): void {
  const keys = parsePath(path)
  if (!keys) throw new Error(`bad path ${path}`)
  const trail: Record<string | number, unknown>[] = []
  let node = doc as unknown as Record<string | number, unknown>
  for (let i = 0; i < keys.length - 1; i++) {
    const k = keys[i]
    let next = node[k]
    if (typeof next === 'string' && keys[i - 1] === 'schedulers') next = node[k] = { name: next }
    if (next === undefined || next === null || typeof next !== 'object') {
      if (value === undefined) return
      next = node[k] = {}
    }
    trail.push(node)
    node = next as Record<string | number, unknown>
  }
  const last = keys[keys.length - 1]
  if (value === undefined) delete node[last]
  else node[last] = value
  // Drop objects left empty (overrides: {}), except the spec's own sections.
  for (let i = keys.length - 2; i >= 1 && value === undefined; i--) {
    const parent = trail[i]
    const child = parent[keys[i]]
    if (child && typeof child === 'object' && !Array.isArray(child) && Object.keys(child).length === 0)
      delete parent[keys[i]]
    else break
  }
}

/** Turn what was typed into the value the spec takes: numbers as numbers, anything else as text. */
export function parseTyped(text: string, kind: string): unknown {
  const t = text.trim()
  if (t === '') return undefined
  if (kind === 'int' || kind === 'number') return /^-?\d+(\.\d+)?(e-?\d+)?$/i.test(t) ? Number(t) : t
  if (kind === 'size' || kind === 'duration') return /^\d+$/.test(t) ? Number(t) : t
  return text
}

/** The path one level up: `a.b[2].c` → `a.b[2]` → `a.b` → `a` → null. */
export function parentPath(path: string): string | null {
  const m = /^(.*)(\.[^.[\]]+|\[\d+\])$/.exec(path)
  return m ? m[1] : null
}
