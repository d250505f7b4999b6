// Inputs of the gallery's methods (gallery-contract.ts) as zod schemas; schemas.ts merges them
// into LAB_INPUTS. Whether the entry exists is the lab's to say (it names the known ones).
import { z } from 'zod'
import type { GalleryLabApi } from './gallery-contract'

type Inputs = { [M in keyof GalleryLabApi]: z.ZodType<Parameters<GalleryLabApi[M]>[0]> }

export const GALLERY_INPUTS: Inputs = {
  startReproduce: z.strictObject({
    name: z
      .string()
      .trim()
      .min(1, 'name a gallery entry')
      .max(100)
      .regex(/^[a-z0-9.-]+$/, 'a gallery entry is named with lower-case letters, digits, dots and dashes'),
  }),
}
