// `--until-stable [--target-cv P] [--max-repetitions N]` of `run` (simulated and real): the
// spec's untilStable from the command line, checked against the spec's least number of runs.
import type { ResolvedSpec, UntilStable } from '../shared/experiment/resolved'
import { DEFAULT_STABLE_CV_PERCENT, DEFAULT_STABLE_MAX_REPETITIONS } from '../shared/experiment/stability'
import { InputError } from './spec-file'

export const untilStableOptions = {
  'until-stable': { type: 'boolean' },
  'target-cv': { type: 'string' },
  'max-repetitions': { type: 'string' },
} as const

export const untilStableUsage = [
  '      [--until-stable [--target-cv P] [--max-repetitions N]]',
  '                                    repeat each scheduler until every process’s throughput varies',
  '                                    by ≤ P % (default 3) or N runs (default 10); repetitions = least',
]

/** The option's rule, or undefined when not asked for; bad values are InputErrors. */
export function untilStableFrom(values: {
  'until-stable'?: boolean
  'target-cv'?: string
  'max-repetitions'?: string
}): UntilStable | undefined {
  if (!values['until-stable']) {
    if (values['target-cv'] !== undefined || values['max-repetitions'] !== undefined)
      throw new InputError(['run: --target-cv and --max-repetitions go with --until-stable'])
    return undefined
  }
  const cv = Number(values['target-cv'] ?? DEFAULT_STABLE_CV_PERCENT)
  if (!(cv > 0 && cv <= 100))
    throw new InputError([`run: --target-cv expects a percentage in (0, 100], got "${values['target-cv']}"`])
  const max = Number(values['max-repetitions'] ?? DEFAULT_STABLE_MAX_REPETITIONS)
  if (!Number.isInteger(max) || max < 2 || max > 1000)
    throw new InputError([
      `run: --max-repetitions expects a whole number from 2 to 1000, got "${values['max-repetitions']}"`,
    ])
  return { cvPercent: cv, maxRepetitions: max }
}

/** The spec with the command line's rule (if any) in place of its own. */
export function withUntilStable<S extends ResolvedSpec>(spec: S, rule: UntilStable | undefined): S {
  if (!rule) return spec
  if (rule.maxRepetitions < spec.repetitions)
    throw new InputError([
      `run: --max-repetitions ${rule.maxRepetitions} is below the spec's repetitions (${spec.repetitions}), the least number of runs`,
    ])
  return { ...spec, untilStable: rule }
}

/** A run's name in progress lines and failures: `deadline`, or `deadline #2` when there can be several. */
export function runName(spec: ResolvedSpec, label: string, rep: number): string {
  return spec.repetitions > 1 || spec.untilStable !== undefined ? `${label} #${rep + 1}` : label
}
