// zod schemas of the session document v2 and of its parts (runs, results, notes, tags): what a
// reader checks, and what the API's inputs reuse. The runs are checked for their shape's keys,
// not in depth: they were written by the lab or its importers.
import { z } from 'zod'
import type { SweepResult } from '../api/contract'
import type { ExperimentResult } from '../experiment/compare'
import type { RunResult } from '../experiment/result'
import { SESSION_SCHEMA } from './types'
import type { RunKind, SessionEnvironment, SessionIndex } from './types'

export const MAX_NOTES = 100_000
export const MAX_TAGS = 50

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** A run (docs/run-json.md): the schema tag and the fields every table and chart reads. */
export const runResultSchema = z.custom<RunResult>(
  (v) =>
    isObject(v) &&
    v.schema === 'iosched-lab/run@1' &&
    typeof v.label === 'string' &&
    typeof v.scheduler === 'string' &&
    (v.source === 'simulated' || v.source === 'real') &&
    typeof v.repetition === 'number' &&
    typeof v.device === 'string' &&
    Array.isArray(v.processes) &&
    isObject(v.totals),
  'expected a run (schema "iosched-lab/run@1")',
)

const experimentLike = (v: unknown): boolean =>
  isObject(v) &&
  v.schema === 'iosched-lab/experiment@1' &&
  Array.isArray(v.runs) &&
  v.runs.every((r) => runResultSchema.safeParse(r).success) &&
  Array.isArray(v.summary) &&
  isObject(v.spec)

export const experimentSchema = z.custom<ExperimentResult>(
  experimentLike,
  'expected an experiment result (schema "iosched-lab/experiment@1")',
)

export const sweepSchema = z.custom<SweepResult>(
  (v) =>
    isObject(v) &&
    isObject(v.sweep) &&
    typeof v.sweep.path === 'string' &&
    Array.isArray(v.sweep.values) &&
    Array.isArray(v.points) &&
    v.points.every((p) => isObject(p) && experimentLike(p.result)),
  'expected sweep results ({ sweep, points: [{ value, result }] })',
)

/** A tag: a short word or phrase, trimmed. */
export const tagSchema = z.string().trim().min(1, 'an empty tag').max(60, 'a tag of more than 60 characters')
export const tagsSchema = z.array(tagSchema).max(MAX_TAGS)
export const notesSchema = z.string().max(MAX_NOTES)
export const sessionNameSchema = z.string().trim().min(1, 'give the session a name').max(200)
/** Files written before revisions were counted are revision 0. */
const revisionSchema = z.number().int().min(0).default(0)

const kind = z.enum(['simulated', 'real', 'imported']) satisfies z.ZodType<RunKind>
const strings = z.array(z.string())

export const environmentSchema: z.ZodType<SessionEnvironment> = z.object({
  app: z.string(),
  node: z.string().optional(),
  os: z.object({ platform: z.string(), type: z.string(), release: z.string(), arch: z.string() }).optional(),
  cpu: z.object({ model: z.string(), count: z.number() }).optional(),
  devices: z.array(z.record(z.string(), z.unknown())).optional(),
})

export const indexSchema: z.ZodType<SessionIndex> = z.object({
  runs: z.number(),
  kinds: z.array(kind),
  devices: strings,
  schedulers: strings,
  labels: strings,
  workloads: strings,
  hasResult: z.boolean(),
  hasSweep: z.boolean(),
  runSets: z.array(
    z.object({
      key: z.string(),
      label: z.string(),
      scheduler: z.string(),
      kind,
      device: z.string(),
      workloads: strings,
      processes: strings,
      repetitions: z.number(),
      tunables: z.record(z.string(), z.union([z.number(), z.string(), z.boolean()])).optional(),
      tool: z.string().optional(),
      point: z.object({ path: z.string(), value: z.union([z.number(), z.string(), z.boolean()]) }).optional(),
    }),
  ),
})

/** The header fields (everything before the spec): what the library reads of a session. */
export const headerSchema = z.object({
  schema: z.literal(SESSION_SCHEMA),
  name: z.string().min(1).max(200),
  savedAt: z.string(),
  app: z.string(),
  revision: revisionSchema,
  index: indexSchema,
  notes: notesSchema.default(''),
  tags: tagsSchema.default([]),
  environment: environmentSchema,
})

/**
 * The whole document. The index is not trusted here: a reader recomputes it from the runs
 * (`readSessionDocument`), so a hand-edited file cannot list one thing and hold another.
 */
export const documentSchema = z.object({
  schema: z.literal(SESSION_SCHEMA),
  name: z.string().min(1).max(200),
  savedAt: z.string(),
  app: z.string(),
  revision: revisionSchema,
  index: z.unknown().optional(),
  notes: notesSchema.default(''),
  tags: tagsSchema.default([]),
  environment: environmentSchema.default({ app: '' }),
  spec: z.unknown(),
  result: experimentSchema.nullable().default(null),
  sweep: sweepSchema.nullable().default(null),
  runs: z.array(runResultSchema).default([]),
})
