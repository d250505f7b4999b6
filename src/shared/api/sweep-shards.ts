// Sharded sweeps: a sweep's work units — every point × scheduler entry × repetition — dealt out
// to N shards round-robin by unit index (so each shard gets a share of every point, cheap and
// dear alike), each shard's runs written as a part, and the parts merged into the sweep's result.
// Merging checks that the parts are of one sweep definition (its hash), that every shard is there
// once, and that each part holds exactly its shard's units; the result is the same document,
// byte for byte, as the sweep run unsharded. Pure: hashing and files are the caller's.
import { summarizeRuns } from '../experiment/compare'
import type { ExperimentResult } from '../experiment/compare'
import type { ResolvedSpec } from '../experiment/resolved'
import type { RunResult } from '../experiment/result'
import type { SweepResult } from './contract'
import type { SweepSpec } from './sweep'

export const SWEEP_PART_SCHEMA = 'iosched-lab/sweep-part@1'
export const SWEEP_RESULT_SCHEMA = 'iosched-lab/sweep@1'

/** What a sweep is: the spec document as written (trace files inlined), the parameter and its values. */
export interface SweepDefinition {
  spec: unknown
  sweep: SweepSpec
  /** Whether runs keep their why (`--no-why`: false). */
  why: boolean
}

/** One simulation of a sweep: a point (index into the values), a scheduler entry, a repetition. */
export interface SweepUnit {
  point: number
  schedIndex: number
  repetition: number
}

/** `K/N` of `--shard`: shard K (1 … N) of N. */
export interface Shard {
  index: number
  count: number
}

export interface SweepPart extends SweepDefinition {
  schema: typeof SWEEP_PART_SCHEMA
  /** The lab version that ran it: parts of different versions are not merged. */
  app: string
  /** The hash of the definition (`spec`, `sweep`, `why`): parts of one sweep have the same. */
  definition: string
  shard: Shard
  /** Every unit of the shard that finished, in unit order. */
  runs: (SweepUnit & { result: RunResult })[]
  /** Every unit of the shard that failed, with why. */
  failures: (SweepUnit & { label: string; message: string })[]
}

/** A sweep's result: the app's SweepResult (`sweep`, `points`) with what it was made from. */
export interface SweepDocument extends SweepResult {
  schema: typeof SWEEP_RESULT_SCHEMA
  app: string
  definition: string
  name: string
  spec: unknown
  why: boolean
}

/** `K/N` → the shard; a string saying what is wrong otherwise. */
export function parseShard(text: string): Shard | string {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim())
  if (!m) return `expected K/N (shard K of N, e.g. 2/8), got "${text}"`
  const [index, count] = [Number(m[1]), Number(m[2])]
  if (count < 1) return `the number of shards must be at least 1, got ${count}`
  if (index < 1 || index > count) return `the shard must be from 1 to ${count}, got ${index}`
  return { index, count }
}

/**
 * Every unit of the sweep, in order: point by point, each point's jobs in the order its
 * experiment runs them (`jobsOf`: repetition by repetition, each scheduler entry).
 */
export function sweepUnits(
  jobsPerPoint: readonly { schedIndex: number; repetition: number }[][],
): SweepUnit[] {
  return jobsPerPoint.flatMap((jobs, point) =>
    jobs.map((j) => ({ point, schedIndex: j.schedIndex, repetition: j.repetition })),
  )
}

/** The units of shard K of N: those whose index is K − 1 modulo N. */
export const unitsOfShard = <T>(units: readonly T[], shard: Shard): T[] =>
  units.filter((_, i) => i % shard.count === shard.index - 1)

const unitKey = (u: SweepUnit): string => `${u.point}/${u.schedIndex}/${u.repetition}`

/** A part read from `file` (its parsed JSON). */
export interface PartFile {
  file: string
  doc: unknown
}

export interface MergeContext {
  /** The hash of a definition, as `sweep` computed it. */
  hash(def: SweepDefinition): string
  /** Each point's resolved spec; throws (with a message saying where) when a point is not valid. */
  resolve(def: SweepDefinition): ResolvedSpec[]
  /** Each point's jobs, in run order (`jobsOf`). */
  jobsOf(spec: ResolvedSpec): { schedIndex: number; repetition: number }[]
}

/** Why parts could not be merged: one line per problem, each naming its file. */
export class MergeError extends Error {
  constructor(readonly lines: string[]) {
    super(lines.join('\n'))
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** The part, or a line saying why `doc` is not one. */
function asPart(file: string, doc: unknown): SweepPart | string {
  const schema = isObject(doc) ? doc.schema : undefined
  if (schema === SWEEP_RESULT_SCHEMA)
    return `${file}: a merged sweep result, not a part (merge takes the parts that sweep --shard K/N wrote)`
  if (schema !== SWEEP_PART_SCHEMA)
    return `${file}: not a sweep part (${typeof schema === 'string' ? `"schema": "${schema}"` : 'no "schema"'}; expected "${SWEEP_PART_SCHEMA}", as sweep --shard K/N --out writes)`
  const d = doc as Record<string, unknown>
  const bad = (field: string, what: string): string => `${file}: field ${field}: ${what}`
  if (typeof d.definition !== 'string') return bad('definition', 'missing')
  if (typeof d.app !== 'string') return bad('app', 'missing')
  if (!isObject(d.sweep) || typeof d.sweep.path !== 'string' || !Array.isArray(d.sweep.values))
    return bad('sweep', 'expected { path, values }')
  if (typeof d.why !== 'boolean') return bad('why', 'expected true or false')
  const s = d.shard
  if (!isObject(s) || !Number.isInteger(s.index) || !Number.isInteger(s.count))
    return bad('shard', 'expected { index, count }')
  if (!Array.isArray(d.runs)) return bad('runs', 'expected a list')
  if (!Array.isArray(d.failures)) return bad('failures', 'expected a list')
  for (const [k, r] of [...d.runs.entries()].map(([i, r]) => [`runs[${i}]`, r] as const))
    if (!isObject(r) || !isObject(r.result) || r.result.schema !== 'iosched-lab/run@1')
      return bad(k, 'expected { point, schedIndex, repetition, result: a run }')
  return doc as SweepPart
}

/**
 * Merge the parts of a sweep into its result. Throws a MergeError, naming the files, when a file
 * is not a part, parts are of different sweeps or lab versions, a shard is missing or given twice,
 * or a part does not hold exactly its shard's units.
 */
export function mergeSweepParts(files: readonly PartFile[], ctx: MergeContext): SweepDocument {
  if (files.length === 0) throw new MergeError(['give the parts to merge'])
  const parts: { file: string; part: SweepPart }[] = []
  const problems: string[] = []
  for (const f of files) {
    const p = asPart(f.file, f.doc)
    if (typeof p === 'string') problems.push(p)
    else parts.push({ file: f.file, part: p })
  }
  if (problems.length) throw new MergeError(problems)
  // each part's stored hash is its own definition's (not edited since), and all are one sweep's
  for (const { file, part } of parts)
    if (ctx.hash(part) !== part.definition)
      problems.push(
        `${file}: its spec, parameter or values do not match its definition hash (edited after the sweep?)`,
      )
  const first = parts[0]
  for (const { file, part } of parts.slice(1)) {
    if (part.definition !== first.part.definition)
      problems.push(
        `${file}: a part of another sweep than ${first.file} (${differences(first.part, part)}; definition ${part.definition.slice(0, 12)}… ≠ ${first.part.definition.slice(0, 12)}…)`,
      )
    else if (part.app !== first.part.app)
      problems.push(
        `${file}: run by lab version ${part.app}, ${first.file} by ${first.part.app}: merge parts of one version`,
      )
    else if (part.shard.count !== first.part.shard.count)
      problems.push(
        `${file}: shard ${part.shard.index}/${part.shard.count}, but ${first.file} is shard ${first.part.shard.index}/${first.part.shard.count}: parts of one sweep have the same number of shards`,
      )
  }
  if (problems.length) throw new MergeError(problems)
  const count = first.part.shard.count
  const byShard = new Map<number, string>()
  for (const { file, part } of parts) {
    const k = part.shard.index
    if (k < 1 || k > count) problems.push(`${file}: shard ${k}/${count} is not a shard of ${count}`)
    else if (byShard.has(k)) problems.push(`${file} and ${byShard.get(k)} are both shard ${k}/${count}`)
    else byShard.set(k, file)
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((k) => !byShard.has(k))
  if (missing.length)
    problems.push(
      `missing ${missing.length === 1 ? 'shard' : 'shards'} ${missing.map((k) => `${k}/${count}`).join(', ')} (merge needs every part, 1 to ${count})`,
    )
  if (problems.length) throw new MergeError(problems)

  let specs: ResolvedSpec[]
  try {
    specs = ctx.resolve(first.part)
  } catch (e) {
    throw new MergeError([`${first.file}: ${(e as Error).message}`])
  }
  const units = sweepUnits(specs.map((s) => ctx.jobsOf(s)))
  const results = new Map<string, RunResult>()
  for (const { file, part } of parts) {
    const expected = unitsOfShard(units, part.shard).map(unitKey)
    const held = [...part.runs, ...part.failures].map(unitKey).sort()
    if (held.length !== expected.length || [...expected].sort().some((k, i) => k !== held[i]))
      problems.push(
        `${file}: holds ${held.length} runs and failures, not the ${expected.length} of shard ${part.shard.index}/${count} (an incomplete or edited part)`,
      )
    for (const r of part.runs) results.set(unitKey(r), r.result)
  }
  if (problems.length) throw new MergeError(problems)

  const points = first.part.sweep.values.map((value, p) => {
    const spec = specs[p]
    const runs = ctx
      .jobsOf(spec)
      .map((j) => results.get(unitKey({ point: p, ...j })))
      .filter((r): r is RunResult => r !== undefined)
    const result: ExperimentResult = {
      schema: 'iosched-lab/experiment@1',
      name: spec.name,
      spec,
      runs,
      summary: summarizeRuns(runs),
    }
    return { value, result }
  })
  const { spec, sweep, why, app, definition } = first.part
  return {
    schema: SWEEP_RESULT_SCHEMA,
    app,
    definition,
    name: specs[0]?.name ?? '',
    spec,
    sweep: { path: sweep.path, values: sweep.values },
    why,
    points,
  }
}

/** Which of the definition's parts differ between two parts, in words. */
function differences(a: SweepDefinition, b: SweepDefinition): string {
  const out: string[] = []
  if (JSON.stringify(a.spec) !== JSON.stringify(b.spec)) out.push('the spec differs')
  if (a.sweep.path !== b.sweep.path) out.push(`--param ${b.sweep.path} ≠ ${a.sweep.path}`)
  if (JSON.stringify(a.sweep.values) !== JSON.stringify(b.sweep.values)) out.push('--values differ')
  if (a.why !== b.why) out.push('one was run with --no-why')
  return out.join(', ') || 'the definition differs'
}

/** The failures the parts recorded, in unit order. */
export function partFailures(files: readonly PartFile[]): SweepPart['failures'] {
  return files
    .flatMap((f) => (f.doc as SweepPart).failures ?? [])
    .sort((a, b) => a.point - b.point || a.repetition - b.repetition || a.schedIndex - b.schedIndex)
}

/** The text of a sweep document or part as written: one JSON document, compact. */
export const sweepText = (doc: SweepDocument | SweepPart): string => `${JSON.stringify(doc)}\n`
