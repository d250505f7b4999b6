// Whether a comparison's best and worst scheduler differ beyond the run-to-run noise
// (explain.ts): a difference inside it has no cause to name, and the explanation says so instead
// of giving noise a mechanism.
import { welchCi95 } from '../metrics/stats'
import { num } from '../util/people-numbers'
import { SEPARABLE_MIN } from '../validate/judge'
import type { Side } from './explain'
import { runKind } from './result'

/**
 * Real runs of one scheduler differ from run to run by this share and more (relative to the
 * larger): validate's floor for a difference between two schedulers (validate/judge.ts
 * SEPARABLE_MIN, "smaller is no scheduler's doing"; on this lab's shared VM, validations found 3 to
 * 5 scheduler pairs a run "separable" below it, none the same twice, and 1 MiB reads moved
 * 940–1708 MB/s in consecutive 3 s runs: docs/real-devices.md). A simulation is exact: its floor
 * is explain.ts's TOO_CLOSE.
 */
export const REAL_NOISE = SEPARABLE_MIN

const measured = (s: Side): boolean => s.runs.some((r) => runKind(r) !== 'simulated')

/**
 * Why `worst` and `best` do not differ beyond their runs' noise, in a sentence of their figures; null
 * when they do. With two runs or more on each side, the difference of their means must lie outside
 * its 95 % confidence interval (Welch) — identical repetitions (a deterministic simulation) have no
 * spread, and then any difference counts. Measured runs (real, imported) must also differ by
 * REAL_NOISE: with one run a side, it is all there is to go by.
 */
export function withinNoise(
  name: string,
  metric: 'seconds' | 'MBps',
  worst: Side,
  best: Side,
  gap: number,
): string | null {
  const unit = metric === 'seconds' ? ' s' : ' MB/s'
  const d = Math.abs(worst.figure - best.figure)
  const figures = `${best.label} gave the ${name} ${num(best.figure)}${unit}, ${worst.label} ${num(worst.figure)}${unit}`
  const same = 'the schedulers did not differ beyond the run-to-run noise, and no mechanism is named.'
  const half = welchCi95(worst.values, best.values)
  if (half >= d)
    return (
      `${figures} (means of ${best.values.length} and ${worst.values.length} runs): the ${num(d)}${unit} between` +
      ` them is within the 95 % confidence interval of their difference (± ${num(half)}${unit}), so ${same}`
    )
  if ((measured(worst) || measured(best)) && gap < REAL_NOISE) {
    const one = worst.values.length < 2 || best.values.length < 2
    return (
      `${figures}${one ? '' : ` (means of ${best.values.length} and ${worst.values.length} runs)`}: ${num(gap * 100, 2)} % apart,` +
      ` under the ${num(REAL_NOISE * 100)} % that real runs of one scheduler differ by from run to run, so ${same}` +
      (one ? ' Repeat the runs to measure their noise.' : '')
    )
  }
  return null
}
