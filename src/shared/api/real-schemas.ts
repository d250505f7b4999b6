// Inputs of the real-device methods (real-contract.ts) as zod schemas; schemas.ts merges them into
// LAB_INPUTS. Device names are kernel names (sdb, nvme0n1, loop3), never paths to elsewhere.
import { z } from 'zod'
import { VALIDATE_MATRIX } from '../validate/matrix'
import type { RealLabApi } from './real-contract'

const none = z.undefined()
const spec = z.unknown().refine((v) => v !== undefined, 'missing (expected the spec document)')
const deviceName = z
  .string()
  .trim()
  .regex(/^(\/dev\/)?[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/, 'expected a device name like sdb or nvme0n1')

const deviceTarget = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('scratch'),
    sizeMiB: z
      .number()
      .int()
      .min(16)
      .max(1 << 20)
      .optional(),
  }),
  z.strictObject({ kind: z.literal('device'), name: deviceName, confirm: z.string().max(80).optional() }),
])

/**
 * A real run's target: a device, or a directory for a test file. Only its size is checked here:
 * the target's own judgement (empty, relative, missing, tmpfs …) is the preview's refusal.
 */
const target = z.discriminatedUnion('kind', [
  ...deviceTarget.options,
  z.strictObject({
    kind: z.literal('dir'),
    dir: z.string().max(4096),
  }),
])

const realRun = z.strictObject({
  spec,
  target,
  fioArgs: z.array(z.string().min(1).max(200)).max(50).optional(),
  maxSeconds: z.number().positive().max(86_400).optional(),
  rampSeconds: z.number().min(0).max(3600).optional(),
  engine: z.enum(['fio', 'dd', 'bonnie++']).optional(),
  alsoSimulate: z.boolean().optional(),
  dropCaches: z.boolean().optional(),
  trace: z.boolean().optional(),
  allowLarge: z.boolean().optional(),
})

const presetName = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,79}$/, 'letters, digits, dots, dashes and underscores')

const workloadId = z.string().refine((id) => VALIDATE_MATRIX.some((w) => w.id === id), {
  error: (iss) =>
    `no workload ${JSON.stringify(iss.input)} in the matrix; it has ${VALIDATE_MATRIX.map((w) => w.id).join(', ')}`,
})

type Inputs = { [M in keyof RealLabApi]: z.ZodType<Parameters<RealLabApi[M]>[0]> }

export const REAL_INPUTS: Inputs = {
  realAccess: none,
  devices: none,
  previewRealRun: realRun,
  startRealRun: realRun,
  doctor: none,
  startFingerprint: z.strictObject({
    target: deviceTarget,
    seconds: z.number().positive().max(600).optional(),
    name: presetName.optional(),
  }),
  fingerprintPresets: none,
  startValidation: z.strictObject({
    target: deviceTarget,
    quick: z.boolean().optional(),
    presetName: presetName.optional(),
    seconds: z.number().min(0.5).max(600).optional(),
    only: z.array(workloadId).min(1).max(VALIDATE_MATRIX.length).optional(),
  }),
  startupRepairs: none,
  runStatus: z.strictObject({ runId: z.string().min(1).max(100) }),
}
