import type { z } from 'zod'
import type { ParamIssue } from '../util/params'

/** `a.b[2].c` from a path of keys and indexes. */
export function formatPath(path: readonly PropertyKey[]): string {
  let s = ''
  for (const k of path) {
    if (typeof k === 'number') s += `[${k}]`
    else s += s ? `.${String(k)}` : String(k)
  }
  return s
}

export function describeValue(v: unknown): string {
  if (v === undefined) return 'nothing'
  if (v === null) return 'null'
  if (typeof v === 'string') return JSON.stringify(v.length > 60 ? v.slice(0, 57) + '...' : v)
  if (Array.isArray(v)) return 'an array'
  if (typeof v === 'object') return 'an object'
  return String(v)
}

const article = (t: string): string => (/^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`)

/** Turn zod's issues into `path: message` lines a person can act on. */
export function zodIssues(error: z.ZodError, root: unknown): ParamIssue[] {
  const out: ParamIssue[] = []
  for (const i of error.issues) {
    const path = formatPath(i.path)
    const input = 'input' in i ? (i as { input?: unknown }).input : valueAt(root, i.path)
    switch (i.code) {
      case 'unrecognized_keys':
        for (const k of i.keys) out.push({ path: formatPath([...i.path, k]), message: 'unknown key' })
        break
      case 'invalid_type':
        out.push({
          path,
          message:
            input === undefined
              ? `missing (expected ${article(String(i.expected))})`
              : `expected ${article(String(i.expected))}, got ${describeValue(input)}`,
        })
        break
      case 'too_small':
      case 'too_big': {
        const small = i.code === 'too_small'
        const limit = small
          ? (i as { minimum: number | bigint }).minimum
          : (i as { maximum: number | bigint }).maximum
        const incl = (i as { inclusive?: boolean }).inclusive !== false
        const origin = (i as { origin?: string }).origin
        if (origin === 'array')
          out.push({ path, message: `expected ${small ? 'at least' : 'at most'} ${limit} entries` })
        else if (origin === 'string')
          out.push({
            path,
            message: `expected ${small ? 'at least' : 'at most'} ${limit} characters, got ${describeValue(input)}`,
          })
        else if (small && Number(limit) === 0 && !incl)
          out.push({
            path,
            message: `expected a positive ${Number.isInteger(input) ? 'integer' : 'number'}, got ${describeValue(input)}`,
          })
        else
          out.push({
            path,
            message: `expected a number ${small ? (incl ? '≥' : '>') : incl ? '≤' : '<'} ${limit}, got ${describeValue(input)}`,
          })
        break
      }
      case 'invalid_value':
        out.push({
          path,
          message: `expected one of ${(i as { values: unknown[] }).values.map((v) => JSON.stringify(v)).join(', ')}, got ${describeValue(input)}`,
        })
        break
      case 'invalid_union':
        out.push({ path, message: unionMessage(path, input) })
        break
      default:
        out.push({ path, message: i.message })
    }
  }
  return out
}

function unionMessage(path: string, input: unknown): string {
  if (/^schedulers\[\d+\]$/.test(path))
    return `expected a scheduler name or { "name", "label", "tunables" }, got ${describeValue(input)}`
  return `expected a size (bytes, or like "4k", "1M"), got ${describeValue(input)}`
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined
    v = (v as Record<PropertyKey, unknown>)[k]
  }
  return v
}
