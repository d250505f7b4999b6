import { z } from 'zod'
import { MECHANISMS } from '../experiment/explain'

const metric = z.enum([
  'seconds',
  'MBps',
  'opsPerSecond',
  'bytes',
  'bytesPerSecond',
  'readMBps',
  'writeMBps',
  'p50Ms',
  'p99Ms',
  'maxMs',
  'seekCylinders',
])

const ref = z.strictObject({
  variant: z.string(),
  label: z.string(),
  value: z.union([z.string(), z.number(), z.boolean()]).optional(),
  process: z.string().optional(),
  phase: z.string().optional(),
  metric,
})

/** One variant's runs of one scheduler label (at one value of a swept variant). */
const runRef = z.strictObject({
  variant: z.string(),
  label: z.string(),
  value: z.union([z.string(), z.number(), z.boolean()]).optional(),
})

const claimBase = { id: z.string(), text: z.string() }

/** The gallery entry file format (gallery/NAME.json). */
export const galleryEntrySchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9.-]+$/),
  /** Place in the gallery (the start page and \`iosched-lab gallery\` list entries by it). */
  order: z.number().int().nonnegative(),
  title: z.string(),
  source: z.string(),
  /** Path of the Markdown page, relative to the repository (or the page itself). */
  about: z.string(),
  variants: z
    .array(
      z.strictObject({
        id: z.string(),
        title: z.string(),
        spec: z.unknown().optional(),
        /** A spec file instead of an inline spec, relative to the repository. */
        specFile: z.string().optional(),
        sweep: z
          .strictObject({
            path: z.string(),
            values: z.array(z.union([z.number(), z.string(), z.boolean()])).min(1),
          })
          .optional(),
      }),
    )
    .min(1),
  published: z.array(ref.extend({ value_published: z.number(), unit: z.string() })),
  /** What the published result is about, for the explanation of the reproduction (types.ts GalleryExplain). */
  explain: z
    .strictObject({
      process: z.string(),
      worse: runRef,
      better: runRef,
      mechanism: z.enum(MECHANISMS),
      about: z.string(),
    })
    .optional(),
  claims: z.array(
    z.discriminatedUnion('kind', [
      z.strictObject({
        ...claimBase,
        kind: z.literal('ratio'),
        a: ref,
        b: ref,
        min: z.number().optional(),
        max: z.number().optional(),
      }),
      z.strictObject({
        ...claimBase,
        kind: z.literal('range'),
        x: ref,
        min: z.number().optional(),
        max: z.number().optional(),
      }),
      z.strictObject({ ...claimBase, kind: z.literal('between'), x: ref, lo: ref, hi: ref }),
      z.strictObject({
        ...claimBase,
        kind: z.literal('close'),
        a: ref,
        b: ref,
        tolerance: z.number().positive(),
      }),
    ]),
  ),
})
