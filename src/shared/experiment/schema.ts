import { z } from 'zod'

/**
 * The experiment spec's structure (version 1). One JSON document: device, host, workload,
 * schedulers, repetitions, seed. Unknown keys are errors everywhere. Parameter values (device
 * overrides, host settings, workload parameters, tunables) are checked against the registries'
 * parameter data in `validate.ts`, which also turns every problem into `path: message`.
 */
/** Text that names something: not empty, not only spaces. */
const nonBlank = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => s.trim() !== '', { message: 'must not be empty or only spaces' })
const name = nonBlank(200)
const paramBag = z.record(z.string(), z.unknown())
const size = z.union([z.number().nonnegative(), z.string()])

export const fileSchema = z.strictObject({
  name,
  size,
  /** Start on the device: a sector number, a byte size ("2G"), or a share ("50%"). */
  at: size.optional(),
  /** Fragment the file into extents of this size … */
  extent: size.optional(),
  /** … separated by gaps of this size. */
  gap: size.optional(),
})

export const processSchema = z.strictObject({
  name,
  type: z.string(),
  params: paramBag.optional(),
  /** When it starts, ms after the run begins. */
  startMs: z.number().nonnegative().optional(),
  ioClass: z.enum(['none', 'rt', 'be', 'idle']).optional(),
  ioLevel: z.number().int().min(0).max(7).optional(),
  nice: z.number().int().min(-20).max(19).optional(),
  /**
   * Anonymous memory of its own: allocated (written) when it starts, freed when it exits, and
   * touched between its system calls by `pattern`.
   */
  memory: z
    .strictObject({
      MiB: z
        .number()
        .positive()
        .max(1 << 22),
      pattern: z.enum(['hold', 'sequential', 'random']).optional(),
      pagesPerCall: z
        .number()
        .int()
        .positive()
        .max(1 << 20)
        .optional(),
    })
    .optional(),
})

export const schedulerEntrySchema = z.union([
  z.string(),
  z.strictObject({
    name: z.string(),
    label: nonBlank(100).optional(),
    tunables: paramBag.optional(),
  }),
])

export const specSchema = z.strictObject({
  $schema: z.string().optional(),
  name: name.optional(),
  description: z.string().optional(),
  device: z.strictObject({ preset: z.string(), overrides: paramBag.optional() }),
  host: z
    .strictObject({
      preset: z.string().optional(),
      overrides: paramBag.optional(),
      /** The file system the workload's files are on: `type` and its mount options (default: the preset's). */
      filesystem: z.object({ type: z.string().optional() }).catchall(z.unknown()).optional(),
    })
    .optional(),
  workload: z.strictObject({
    files: z.array(fileSchema).optional(),
    processes: z.array(processSchema).min(1),
    stop: z
      .strictObject({
        /** The run ends when these processes have finished (default: all that finish on their own). */
        processes: z.array(z.string()).optional(),
        /** … or after this much (simulated) time. */
        maxSeconds: z.number().positive().max(1e7).optional(),
      })
      .optional(),
  }),
  schedulers: z.array(schedulerEntrySchema).min(1),
  repetitions: z.number().int().positive().max(1000).optional(),
  /**
   * Repeat until stable (as the Phoronix Test Suite does): `repetitions` is then the least number
   * of runs per scheduler, and more follow until every process's throughput varies by at most
   * `cvPercent` (coefficient of variation) or `maxRepetitions` is reached.
   */
  untilStable: z
    .strictObject({
      cvPercent: z.number().gt(0).max(100).optional(),
      maxRepetitions: z.number().int().min(2).max(1000).optional(),
    })
    .optional(),
  seed: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
})

export type ExperimentSpec = z.infer<typeof specSchema>
