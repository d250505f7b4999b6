// A sweep from the command line: the spec file (trace files inlined), `--param PATH` and
// `--values v1,v2,…` as a SweepDefinition; each point resolved as a spec; the definition's hash,
// which every part of the sweep carries so that parts of different sweeps are never merged.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { jobsOf } from '../main/services/experiments'
import { packageRoot } from '../main/services/package-root'
import { setAtPath, sweepIssues } from '../shared/api/sweep'
import type { SweepValue } from '../shared/api/sweep'
import type { MergeContext, SweepDefinition } from '../shared/api/sweep-shards'
import type { ResolvedSpec } from '../shared/experiment/resolved'
import { validateSpec } from '../shared/experiment/validate'
import { InputError, inlineTraceFiles, readJsonFile, refuseGalleryEntry } from './spec-file'

/**
 * `--values`: a JSON array (`[1, "4k", true]`), or values separated by commas, each a number when
 * it reads as one, `true`/`false`, else the text itself (`4k`, `mq-deadline`).
 */
export function parseValues(text: string): SweepValue[] {
  const t = text.trim()
  if (t.startsWith('[')) {
    let v: unknown
    try {
      v = JSON.parse(t)
    } catch (e) {
      throw new InputError([`sweep: --values: not a JSON array (${(e as Error).message})`])
    }
    if (!Array.isArray(v) || !v.every((x) => ['number', 'string', 'boolean'].includes(typeof x)))
      throw new InputError(['sweep: --values: a JSON array of numbers, strings or true/false'])
    return v as SweepValue[]
  }
  return t.split(',').map((raw, i) => {
    const s = raw.trim()
    if (s === '') throw new InputError([`sweep: --values: value ${i + 1} is empty (in "${text}")`])
    if (s === 'true' || s === 'false') return s === 'true'
    const n = Number(s)
    return Number.isFinite(n) ? n : s
  })
}

/** The sweep of `specPath`: the spec as written, with its trace files' text in it. */
export function loadDefinition(
  specPath: string,
  path: string,
  values: SweepValue[],
  why: boolean,
): SweepDefinition {
  const spec = readJsonFile(specPath)
  refuseGalleryEntry(specPath, spec)
  inlineTraceFiles(spec, dirname(specPath))
  // the app runs at most MAX_SWEEP_POINTS at once; here the work limits decide (--allow-large)
  const issues = sweepIssues({ path, values }, Infinity)
  if (issues.length)
    throw new InputError(
      issues.map((i) => `sweep: ${i.path === 'sweep.path' ? '--param' : '--values'}: ${i.message}`),
    )
  return { spec, sweep: { path, values }, why }
}

/** Each point's resolved spec; an InputError names the file, the place and the value. */
export function resolvePoints(def: SweepDefinition, file = 'spec'): ResolvedSpec[] {
  const { path, values } = def.sweep
  return values.map((value) => {
    let doc: unknown
    try {
      doc = setAtPath(def.spec, path, value)
    } catch (e) {
      throw new InputError([`sweep: --param: ${(e as Error).message}`])
    }
    const v = validateSpec(doc)
    if (!v.ok)
      throw new InputError(
        v.issues.map(
          (i) =>
            `${file}: ${i.path ? `${i.path}: ` : ''}${i.message} (with ${path} = ${JSON.stringify(value)})`,
        ),
      )
    if (v.spec.untilStable)
      throw new InputError([
        `${file}: untilStable: a sweep runs a fixed number of repetitions, so that its shards are fixed in advance: give "repetitions" instead`,
      ])
    return v.spec
  })
}

/** SHA-256 of the definition: the spec, the parameter, its values and whether runs keep their why. */
export function definitionHash(def: SweepDefinition): string {
  const text = JSON.stringify({
    spec: def.spec,
    path: def.sweep.path,
    values: def.sweep.values,
    why: def.why,
  })
  return createHash('sha256').update(text).digest('hex')
}

/** The lab's version (package.json), written into every part. */
export function labVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string })
    .version
}

/** What merging needs of the lab: the hash, the points' specs and their jobs. */
export const mergeContext: MergeContext = {
  hash: definitionHash,
  resolve: (def) => resolvePoints(def),
  jobsOf,
}
