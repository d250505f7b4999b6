/**
 * Parameters as data: every scheduler tunable, device parameter, host setting and workload
 * parameter is described once here — default, unit, meaning, allowed range — and the same
 * description drives validation, the CLI listing, the UI forms and the docs.
 */
import { exact } from './people-numbers'

export type ParamKind = 'int' | 'number' | 'bool' | 'enum' | 'size' | 'string' | 'duration'

export interface ParamSpec {
  readonly name: string
  readonly kind: ParamKind
  readonly default: number | boolean | string
  /** Unit of the value as stored (`ms`, `sectors`, `requests`, `bytes`, `MB/s`, `%`…); '' if none. */
  readonly unit: string
  /** One line: what it means. */
  readonly meaning: string
  readonly min?: number
  readonly max?: number
  /** For `enum`. */
  readonly values?: readonly string[]
  /** Where the default comes from (a kernel source, a datasheet, a published measurement). */
  readonly source?: string
}

export type ParamValues = Record<string, number | boolean | string>

export interface ParamIssue {
  path: string
  message: string
}

const SIZE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kib: 1024,
  kb: 1000,
  m: 1024 ** 2,
  mib: 1024 ** 2,
  mb: 1000 ** 2,
  g: 1024 ** 3,
  gib: 1024 ** 3,
  gb: 1000 ** 3,
  t: 1024 ** 4,
  tib: 1024 ** 4,
  tb: 1000 ** 4,
  s: 512,
}

/**
 * Parse a size the way dd and fio write them: `4096`, `4k` (KiB), `1M` (MiB), `2GiB`, `1MB`
 * (decimal), `8s` (512-byte sectors). Returns NaN when it is not a size.
 */
export function parseSize(v: number | string): number {
  if (typeof v === 'number') return Number.isFinite(v) ? v : NaN
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(v)
  if (!m) return NaN
  const mult = SIZE_UNITS[m[2].toLowerCase()]
  if (mult === undefined) return NaN
  return Math.round(parseFloat(m[1]) * mult)
}

const DURATION_UNITS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  min: 60_000,
  h: 3_600_000,
}

/** Parse a duration into milliseconds: `500` (ms), `500ms`, `5s`, `10us`, `2m`. NaN if invalid. */
export function parseDurationMs(v: number | string): number {
  if (typeof v === 'number') return Number.isFinite(v) ? v : NaN
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(v)
  if (!m) return NaN
  const mult = m[2] === '' ? 1 : DURATION_UNITS[m[2].toLowerCase()]
  if (mult === undefined) return NaN
  return parseFloat(m[1]) * mult
}

function describe(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v)
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'an array'
  if (typeof v === 'object') return 'an object'
  return String(v)
}

/** Check one value against its spec; returns the normalised value or an error message. */
export function checkParam(
  spec: ParamSpec,
  v: unknown,
): { value: number | boolean | string } | { error: string } {
  const range = (x: number, what: string): { value: number } | { error: string } => {
    if (spec.min !== undefined && x < spec.min)
      return {
        error: `expected ${what} ≥ ${exact(spec.min)}${spec.unit ? ' ' + spec.unit : ''}, got ${describe(v)}`,
      }
    if (spec.max !== undefined && x > spec.max)
      return {
        error: `expected ${what} ≤ ${exact(spec.max)}${spec.unit ? ' ' + spec.unit : ''}, got ${describe(v)}`,
      }
    return { value: x }
  }
  switch (spec.kind) {
    case 'int': {
      const what =
        spec.min === 1 ? 'a positive integer' : spec.min === 0 ? 'a non-negative integer' : 'an integer'
      if (typeof v !== 'number' || !Number.isInteger(v))
        return { error: `expected ${what}, got ${describe(v)}` }
      if ((spec.min === 1 || spec.min === 0) && v < spec.min)
        return { error: `expected ${what}, got ${describe(v)}` }
      return range(v, 'an integer')
    }
    case 'number':
      if (typeof v !== 'number' || !Number.isFinite(v))
        return { error: `expected a number, got ${describe(v)}` }
      return range(v, 'a number')
    case 'bool':
      if (typeof v === 'boolean') return { value: v }
      if (v === 0 || v === 1) return { value: v === 1 }
      return { error: `expected true or false, got ${describe(v)}` }
    case 'enum':
      if (typeof v !== 'string' || !spec.values?.includes(v))
        return {
          error: `expected one of ${spec.values?.map((x) => JSON.stringify(x)).join(', ')}, got ${describe(v)}`,
        }
      return { value: v }
    case 'string':
      if (typeof v !== 'string') return { error: `expected a string, got ${describe(v)}` }
      return { value: v }
    case 'size': {
      if (typeof v !== 'number' && typeof v !== 'string')
        return { error: `expected a size (bytes, or like "4k", "1M"), got ${describe(v)}` }
      const x = parseSize(v)
      if (!Number.isFinite(x) || x < 0)
        return { error: `expected a size (bytes, or like "4k", "1M"), got ${describe(v)}` }
      return range(x, 'a size')
    }
    case 'duration': {
      if (typeof v !== 'number' && typeof v !== 'string')
        return { error: `expected a duration in ms (or like "5s", "10us"), got ${describe(v)}` }
      const x = parseDurationMs(v)
      if (!Number.isFinite(x) || x < 0)
        return { error: `expected a duration in ms (or like "5s", "10us"), got ${describe(v)}` }
      return range(x, 'a duration')
    }
  }
}

/**
 * Validate a set of values against specs: unknown names are errors (with the known names listed),
 * missing ones take their defaults. Returns the complete, normalised set.
 */
export function resolveParams(
  specs: readonly ParamSpec[],
  given: unknown,
  path: string,
  issues: ParamIssue[],
  base?: ParamValues,
): ParamValues {
  const out: ParamValues = {}
  for (const s of specs) out[s.name] = base?.[s.name] ?? s.default
  if (given === undefined || given === null) return out
  if (typeof given !== 'object' || Array.isArray(given)) {
    issues.push({
      path,
      message: `expected an object of ${specs.map((s) => s.name).join(', ')}, got ${describe(given)}`,
    })
    return out
  }
  for (const [k, v] of Object.entries(given as Record<string, unknown>)) {
    const spec = specs.find((s) => s.name === k)
    const p = path ? `${path}.${k}` : k
    if (!spec) {
      const known = specs.map((s) => s.name).join(', ')
      issues.push({
        path: p,
        message: `unknown key${known ? `; expected one of: ${known}` : ' (this takes no parameters)'}`,
      })
      continue
    }
    const r = checkParam(spec, v)
    if ('error' in r) issues.push({ path: p, message: r.error })
    else out[k] = r.value
  }
  return out
}
