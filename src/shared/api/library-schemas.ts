// Inputs of the library's LabApi methods (schemas.ts merges them into LAB_INPUTS), and the
// session fields that saveSession takes besides the spec and results.
import { z } from 'zod'
import {
  experimentSchema,
  notesSchema,
  runResultSchema,
  sessionNameSchema,
  sweepSchema,
  tagsSchema,
} from '../session/schema'
import type { LibraryLabApi } from './library-contract'

const path = z.string().min(1).max(4096)
const date = z
  .string()
  .max(40)
  .refine(
    (s) => !Number.isNaN(Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(s) ? `${s}T00:00:00Z` : s)),
    'expected a date, YYYY-MM-DD',
  )
const word = z.string().max(200)
const kind = z.enum(['simulated', 'real', 'imported'])
const format = z.enum(['html', 'csv', 'json', 'text'])
const importFormat = z.enum([
  'fio-json',
  'bonnie-csv',
  'dd',
  'lmdd',
  'iozone',
  'vmstat',
  'kdiskmark',
  'blkparse',
])

/** Extra runs of a session: imported or real ones, beside the result. */
export const sessionRunsSchema = z.array(runResultSchema).max(10_000)
/** Details of the real devices of the runs (model, size …), kept in the session's environment. */
export const sessionDevicesSchema = z.array(z.record(z.string(), z.unknown())).max(64)
export { notesSchema, tagsSchema }

type Inputs = { [M in keyof LibraryLabApi]: z.ZodType<Parameters<LibraryLabApi[M]>[0]> }

export const LIBRARY_INPUTS: Inputs = {
  librarySearch: z.strictObject({
    text: word.optional(),
    device: word.optional(),
    scheduler: word.optional(),
    workload: word.optional(),
    kind: kind.optional(),
    tags: z.array(word).max(50).optional(),
    from: date.optional(),
    to: date.optional(),
  }),
  libraryCompare: z
    .strictObject({
      sets: z
        .array(
          z.strictObject({
            path,
            set: z.string().min(1).max(1000),
            rename: z.record(z.string().min(1).max(200), z.string().min(1).max(200)).optional(),
          }),
        )
        .min(1, 'pick at least one run set')
        .max(64),
      baseline: z.number().int().min(0).optional(),
      alpha: z.number().gt(0).lt(1).optional(),
    })
    .refine((v) => (v.baseline ?? 0) < v.sets.length, { message: 'no such run set', path: ['baseline'] }),
  setSessionMeta: z.strictObject({
    path,
    name: sessionNameSchema.optional(),
    notes: notesSchema.optional(),
    tags: tagsSchema.optional(),
  }),
  importFiles: z.strictObject({
    files: z
      .array(z.strictObject({ name: z.string().min(1).max(1000), text: z.string().max(128 * 2 ** 20) }))
      .min(1, 'choose at least one file')
      .max(200),
    format: importFormat.optional(),
    label: word.optional(),
    scheduler: word.optional(),
    device: word.optional(),
    intervalSeconds: z.number().gt(0).optional(),
  }),
  exportReport: z.union([
    z.strictObject({ format, path }),
    z.strictObject({
      format,
      session: z.strictObject({
        name: sessionNameSchema,
        spec: z.unknown().optional(),
        result: experimentSchema.nullable().optional(),
        sweep: sweepSchema.nullable().optional(),
        runs: sessionRunsSchema.optional(),
        notes: notesSchema.optional(),
        tags: tagsSchema.optional(),
      }),
    }),
  ]),
}
