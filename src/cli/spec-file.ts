import { existsSync, readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { dirname, join, resolve } from 'node:path'
import { packageRoot } from '../main/services/package-root'
import { validateSpec } from '../shared/experiment/validate'
import { parseJsonText } from '../shared/util/json-text'
import type { ResolvedSpec } from '../shared/experiment/resolved'

import { InputError } from './input-error'

// where the commands have always found it
export { InputError }

/** Read and parse a JSON file; a missing file or bad JSON is an InputError naming the file and place. */
export function readJsonFile(path: string): unknown {
  let text: string
  try {
    const bytes = readFileSync(path)
    // a compressed session (.json.gz) starts with gzip's magic bytes
    text = (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString('utf8')
  } catch (e) {
    const err = e as NodeJS.ErrnoException
    throw new InputError([`${path}: cannot read: ${err.code === 'ENOENT' ? 'no such file' : err.message}`])
  }
  const parsed = parseJsonText(text)
  if (!parsed.ok)
    throw new InputError([
      `${path}: invalid JSON at line ${parsed.error.line}, column ${parsed.error.column}: ${parsed.error.message}`,
    ])
  return parsed.value
}

/** Read, parse and validate a spec file; every problem names the file and the place. */
export function loadSpec(path: string): ResolvedSpec {
  const doc = readJsonFile(path)
  refuseGalleryEntry(path, doc)
  inlineTraceFiles(doc, dirname(path))
  const v = validateSpec(doc)
  if (!v.ok) throw new InputError(v.issues.map((i) => `${path}: ${i.path ? `${i.path}: ` : ''}${i.message}`))
  return v.spec
}

/**
 * A gallery entry (gallery/NAME.json: variants, published figures, claims) given where a spec
 * belongs: an InputError that says how gallery entries are run, not a spec's missing keys.
 */
export function refuseGalleryEntry(path: string, doc: unknown): void {
  const d = doc as { name?: unknown; variants?: unknown; claims?: unknown; published?: unknown }
  if (typeof d !== 'object' || d === null || !Array.isArray(d.variants)) return
  if (!Array.isArray(d.claims) && !Array.isArray(d.published)) return
  const name = typeof d.name === 'string' && /^[a-z0-9.-]+$/.test(d.name) ? d.name : null
  const own = name === null ? null : join(packageRoot(), 'gallery', `${name}.json`)
  if (own !== null && existsSync(own))
    throw new InputError([
      `${path}: a gallery entry, not a spec: run it with iosched-lab reproduce ${name}` +
        `${resolve(path) === own ? '' : ` (the gallery's own ${own})`}; its page and variants: iosched-lab gallery ${name}`,
    ])
  throw new InputError([
    `${path}: a gallery entry (variants, published figures and claims), not a spec: iosched-lab reproduce runs the gallery's entries by name (iosched-lab gallery lists them); to run one variant, save its "spec" as a file of its own`,
  ])
}

/**
 * A trace-replay process may name its blkparse output as `traceFile` (relative to the spec);
 * the text goes into the spec as `trace`, so the simulation itself reads no files.
 */
export function inlineTraceFiles(doc: unknown, baseDir: string): void {
  const procs = (doc as { workload?: { processes?: unknown } })?.workload?.processes
  if (!Array.isArray(procs)) return
  procs.forEach((p, i) => {
    const params = (p as { params?: Record<string, unknown> })?.params
    if (!params || typeof params.traceFile !== 'string') return
    const file = resolve(baseDir, params.traceFile)
    try {
      params.trace = readFileSync(file, 'utf8')
    } catch (e) {
      throw new InputError([
        `workload.processes[${i}].params.traceFile: cannot read ${file}: ${(e as Error).message}`,
      ])
    }
    delete params.traceFile
  })
}
