import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { dirname, resolve } from 'node:path'
import { validateSpec } from '../shared/experiment/validate'
import { parseJsonText } from '../shared/util/json-text'
import type { ResolvedSpec } from '../shared/experiment/resolved'

/** A problem with the user's input: printed as one line per problem, exit status 2. */
export class InputError extends Error {
  constructor(readonly lines: string[]) {
    super(lines.join('\n'))
  }
}

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
  inlineTraceFiles(doc, dirname(path))
  const v = validateSpec(doc)
  if (!v.ok) throw new InputError(v.issues.map((i) => `${path}: ${i.path ? `${i.path}: ` : ''}${i.message}`))
  return v.spec
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
