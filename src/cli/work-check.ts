import type { ResolvedSpec } from '../shared/experiment/resolved'
import { estimateWork } from '../shared/experiment/work-estimate'
import { beyondLimits, workExcesses } from '../shared/experiment/work-limits'
import { InputError } from './spec-file'

/**
 * Refuse, before any simulation starts, a spec whose estimated work is beyond the limits
 * (experiment/work-limits.ts), unless `--allow-large`: an InputError naming the file, each limit
 * passed and why it matters.
 */
export function checkWork(path: string, spec: ResolvedSpec, allowLarge = false): void {
  const over = workExcesses(estimateWork([spec]))
  if (over.length > 0 && !allowLarge)
    throw new InputError(beyondLimits(over, 'run it anyway with --allow-large').map((l) => `${path}: ${l}`))
}
