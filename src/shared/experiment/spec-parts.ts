import type { z } from 'zod'
import { fileSchema, processSchema, schedulerEntrySchema, specSchema } from './schema'
import type { ExperimentSpec } from './schema'

type Shape = typeof specSchema.shape
type Workload = Shape['workload']['shape']

/**
 * A spec as its parts, each well formed or null: what the checks of validate.ts work on. A
 * document the schema accepts is all its parts; one it refuses still has every part that is well
 * formed on its own, so those are checked too and every problem is reported at once. Array
 * entries keep their places (null where malformed), so each problem keeps its path.
 */
export interface SpecParts {
  name?: string
  description?: string
  device: ExperimentSpec['device'] | null
  host: ExperimentSpec['host']
  files: (z.infer<typeof fileSchema> | null)[]
  processes: (z.infer<typeof processSchema> | null)[]
  /** Every process's name as written, well formed or not (what the stop list may name). */
  processNames: (string | undefined)[]
  stop: z.infer<Workload['stop']>
  schedulers: (z.infer<typeof schedulerEntrySchema> | null)[]
  repetitions?: number
  untilStable: ExperimentSpec['untilStable']
  seed?: number
}

/** The parts of a well-formed spec. */
export function partsOf(s: ExperimentSpec): SpecParts {
  return {
    name: s.name,
    description: s.description,
    device: s.device,
    host: s.host,
    files: s.workload.files ?? [],
    processes: s.workload.processes,
    processNames: s.workload.processes.map((p) => p.name),
    stop: s.workload.stop,
    schedulers: s.schedulers,
    repetitions: s.repetitions,
    untilStable: s.untilStable,
    seed: s.seed,
  }
}

const record = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {}

/**
 * The part if it is well formed; else, for an object, the part without its malformed keys (a
 * process with a bad `startMs` still has its params checked), when that is well formed; else null.
 */
function part<T>(schema: z.ZodType<T>, v: unknown): T | null {
  const r = schema.safeParse(v)
  if (r.success) return r.data
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null
  const bad = new Set<PropertyKey | undefined>()
  for (const i of r.error.issues)
    if (i.code === 'unrecognized_keys' && i.path.length === 0) for (const k of i.keys) bad.add(k)
    else bad.add(i.path[0])
  if (bad.has(undefined)) return null
  const rest = Object.fromEntries(Object.entries(v).filter(([k]) => !bad.has(k)))
  const again = schema.safeParse(rest)
  return again.success ? again.data : null
}

const list = <T>(schema: z.ZodType<T>, v: unknown): (T | null)[] =>
  Array.isArray(v) ? v.map((x) => part(schema, x)) : []

/** The well-formed parts of a document the schema refused (its problems are reported by the schema). */
export function salvage(doc: unknown): SpecParts {
  const o = record(doc)
  const w = record(o.workload)
  const sh = specSchema.shape
  const processes = Array.isArray(w.processes) ? w.processes : []
  return {
    name: part(sh.name, o.name) ?? undefined,
    description: part(sh.description, o.description) ?? undefined,
    device: part(sh.device, o.device),
    host: part(sh.host, o.host) ?? undefined,
    files: list(fileSchema, w.files),
    processes: list(processSchema, processes),
    processNames: processes.map((p) => {
      const n = record(p).name
      return typeof n === 'string' ? n : undefined
    }),
    stop: part(sh.workload.shape.stop, w.stop) ?? undefined,
    schedulers: list(schedulerEntrySchema, o.schedulers),
    repetitions: part(sh.repetitions, o.repetitions) ?? undefined,
    untilStable: part(sh.untilStable, o.untilStable) ?? undefined,
    seed: part(sh.seed, o.seed) ?? undefined,
  }
}
