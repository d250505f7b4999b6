// Sweeps: one experiment per value of one parameter, named by its path in the spec document
// (`schedulers[1].tunables.fifo_batch`, `device.overrides.rpm`, `workload.processes[0].params.bs`).
// Pure functions over the spec document as written; each point is then validated like any spec.
import type { ParamIssue } from '../util/params'

export type SweepValue = number | string | boolean

export interface SweepSpec {
  /** Where the value goes, in the issue-path notation of the spec's validation. */
  path: string
  values: SweepValue[]
}

/** Points of a sweep the app and the API run at once; the CLI's `sweep` has no such limit (work limits apply). */
export const MAX_SWEEP_POINTS = 64

/** `a.b[2].c` → ['a', 'b', 2, 'c']; undefined when it is not such a path. */
export function parsePath(path: string): (string | number)[] | undefined {
  if (!/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$-]*|\[\d+\])*$/.test(path)) return undefined
  const keys: (string | number)[] = []
  for (const m of path.matchAll(/([A-Za-z_$][\w$-]*)|\[(\d+)\]/g)) keys.push(m[1] ?? Number(m[2]))
  return keys
}

type Json = Record<string, unknown> | unknown[]

/**
 * A deep copy of `doc` with `value` at `path`, creating objects on the way. A scheduler given by
 * name (`"noop"`) becomes `{ "name": "noop" }` when a path goes into it.
 */
export function setAtPath(doc: unknown, path: string, value: SweepValue): unknown {
  const keys = parsePath(path)
  if (!keys) throw new Error(`not a parameter path: ${JSON.stringify(path)}`)
  const root = JSON.parse(JSON.stringify(doc ?? {})) as Json
  let node: Json = root
  for (let i = 0; i < keys.length - 1; i++) {
    const k = keys[i]
    const container = node as Record<string | number, unknown>
    let next = container[k]
    if (typeof next === 'string' && keys[i - 1] === 'schedulers') next = container[k] = { name: next }
    if (next === undefined || next === null) next = container[k] = typeof keys[i + 1] === 'number' ? [] : {}
    if (typeof next !== 'object')
      throw new Error(`${path}: ${keys.slice(0, i + 1).join('.')} is not an object`)
    node = next as Json
  }
  ;(node as Record<string | number, unknown>)[keys[keys.length - 1]] = value
  return root
}

/** The value at `path` in `doc`, or undefined. */
export function getAtPath(doc: unknown, path: string): unknown {
  const keys = parsePath(path)
  if (!keys) return undefined
  let node: unknown = doc
  for (const k of keys) {
    if (node === null || typeof node !== 'object') return undefined
    node = (node as Record<string | number, unknown>)[k]
  }
  return node
}

/** Check a sweep's shape; the points themselves are validated as specs. */
export function sweepIssues(s: SweepSpec, maxPoints = MAX_SWEEP_POINTS): ParamIssue[] {
  const issues: ParamIssue[] = []
  if (!parsePath(s.path)) issues.push({ path: 'sweep.path', message: `not a parameter path: ${s.path}` })
  if (s.values.length < 2) issues.push({ path: 'sweep.values', message: 'give at least two values' })
  if (s.values.length > maxPoints)
    issues.push({ path: 'sweep.values', message: `at most ${maxPoints} values` })
  return issues
}

/** `count` evenly spaced numbers from `from` to `to`; `integer`: rounded, without repeats. */
export function range(from: number, to: number, count: number, integer = false): number[] {
  if (!(count >= 2)) return [from]
  const ints = integer
  const out: number[] = []
  for (let i = 0; i < count; i++) {
    const v = from + ((to - from) * i) / (count - 1)
    out.push(ints ? Math.round(v) : Number(v.toPrecision(12)))
  }
  return ints ? [...new Set(out)] : out
}
