// Inputs of every LabApi method as zod schemas, checked wherever a call crosses a process
// boundary (IPC in main, HTTP in the browser host). The mapped type makes the compiler refuse a
// method without a schema. Spec documents stay `unknown` here: validateSpec checks them in depth.
import { z } from 'zod'
import type { ExperimentResult } from '../experiment/compare'
import type { LabInput, LabMethod, SessionDocumentV1, SweepResult } from './contract'
import { MAX_SWEEP_POINTS } from './sweep'
import { REAL_INPUTS } from './real-schemas'
import { GALLERY_INPUTS } from './gallery-schemas'
import {
  LIBRARY_INPUTS,
  notesSchema,
  sessionDevicesSchema,
  sessionRunsSchema,
  tagsSchema,
} from './library-schemas'

const none = z.undefined()
const spec = z.unknown().refine((v) => v !== undefined, 'missing (expected the spec document)')
const sweepValue = z.union([z.number(), z.string().max(200), z.boolean()])
const sweep = z.strictObject({
  path: z.string().min(1).max(300),
  values: z.array(sweepValue).min(2).max(MAX_SWEEP_POINTS),
})
/** A sweep's results may have more points than the app runs at once: the CLI's merged sweeps. */
const sweepOfResult = sweep.extend({ values: z.array(sweepValue).min(2) })

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** Enough of an ExperimentResult to draw it: the schema tag, runs and summary rows. */
export const experimentResultSchema = z.custom<ExperimentResult>(
  (v) =>
    isObject(v) &&
    v.schema === 'iosched-lab/experiment@1' &&
    Array.isArray(v.runs) &&
    Array.isArray(v.summary) &&
    isObject(v.spec),
  'expected an experiment result (schema "iosched-lab/experiment@1")',
)

export const sweepResultSchema = z.custom<SweepResult>(
  (v) =>
    isObject(v) &&
    sweepOfResult.safeParse(v.sweep).success &&
    Array.isArray(v.points) &&
    v.points.every((p) => isObject(p) && experimentResultSchema.safeParse(p.result).success),
  'expected sweep results ({ sweep, points: [{ value, result }] })',
)

/** The session document, version 1 (docs/session-json.md). */
export const sessionDocumentSchema: z.ZodType<SessionDocumentV1> = z.object({
  schema: z.literal('iosched-lab/session@1'),
  name: z.string().min(1).max(200),
  savedAt: z.string(),
  app: z.string(),
  spec,
  result: experimentResultSchema.nullable(),
  sweep: sweepResultSchema.nullable(),
})

export const LAB_INPUTS: { [M in LabMethod]: z.ZodType<LabInput<M>> } = {
  catalogue: none,
  examples: none,
  validateSpec: z.strictObject({ spec }),
  startRun: z.strictObject({ spec, sweep: sweep.optional(), allowLarge: z.boolean().optional() }),
  cancelRun: z.strictObject({ runId: z.string().min(1).max(100) }),
  listSessions: none,
  saveSession: z.strictObject({
    name: z.string().trim().min(1, 'give the session a name').max(200),
    spec,
    result: experimentResultSchema.nullable().optional(),
    sweep: sweepResultSchema.nullable().optional(),
    path: z
      .string()
      .min(1)
      .max(4096)
      .refine((p) => /\.json(\.gz)?$/.test(p), 'a session file name ends in .json (or .json.gz)')
      .optional(),
    replace: z.union([z.boolean(), z.strictObject({ revision: z.number().int().min(0) })]).optional(),
    notes: notesSchema.optional(),
    tags: tagsSchema.optional(),
    runs: sessionRunsSchema.optional(),
    devices: sessionDevicesSchema.optional(),
  }),
  openSession: z.strictObject({ path: z.string().min(1).max(4096) }),
  library: none,
  ...REAL_INPUTS,
  ...LIBRARY_INPUTS,
  ...GALLERY_INPUTS,
}
