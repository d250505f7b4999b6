// What a fingerprint and a validation both check before they start: nothing else holds the real
// runs, the target may be written (they sweep it with writes: the refusals of a written workload),
// and the backend is up. The problems, or none.
import type { RealTargetInput } from '../../../shared/api/real-contract'
import { resolveSpec } from '../../../shared/experiment/validate'
import { sweepSpec } from '../real/fingerprint'
import type { RealBackend } from '../real/real-backend'
import { checkTarget } from './preview'

export async function admitWritingSweep(
  target: RealTargetInput,
  backend: RealBackend,
  blockers: () => Promise<string[]>,
): Promise<string[]> {
  const problems = await blockers()
  if (problems.length > 0) return problems
  const t = await checkTarget(target, false, resolveSpec(sweepSpec(1, 1 << 20, { preset: 'ssd-sata-mlc' })))
  if (!t.ok) return [t.reason]
  try {
    await backend.start()
  } catch (e) {
    return [(e as Error).message]
  }
  return []
}
