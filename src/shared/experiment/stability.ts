// Repeat until stable: after each round of runs, which scheduler entries need another repetition.
// A scheduler entry is stable when the throughput of every process varies across its repetitions
// by at most the spec's coefficient of variation; the Phoronix Test Suite's rule (3 % by default),
// with the spec's `repetitions` as the least number of runs and `maxRepetitions` as the cap.
import { mean, stddev } from '../metrics/stats'
import { identicalValues } from '../report/mean-ci'
import type { LabelSummary } from './compare'
import type { ResolvedSpec } from './resolved'
import type { RunResult } from './result'

/** Phoronix adds runs until the deviation is under about 3 %. */
export const DEFAULT_STABLE_CV_PERCENT = 3
/** The cap when the spec does not give one. */
export const DEFAULT_STABLE_MAX_REPETITIONS = 10

export interface StabilityVerdict {
  schedIndex: number
  label: string
  /** Runs of this entry so far. */
  runs: number
  /** Largest coefficient of variation (%) over the processes' throughputs; null below 2 runs. */
  cvPercent: number | null
  /** The process whose throughput varies most. */
  worst: string | null
  /** Run another repetition of this entry. */
  more: boolean
  reason: 'too few runs' | 'not stable yet' | 'stable' | 'run cap reached'
}

/**
 * Per scheduler entry, from the runs so far (simulated or real, any order): whether it needs
 * another repetition. Without `untilStable`, exactly `repetitions` runs. A failed run counts as
 * not run: the entry is tried again until the cap.
 */
export function stabilityOf(spec: ResolvedSpec, runs: readonly RunResult[]): StabilityVerdict[] {
  const rule = spec.untilStable
  const max = rule ? rule.maxRepetitions : spec.repetitions
  return spec.schedulers.map((entry, schedIndex) => {
    const mine = runs.filter((r) => r.label === entry.label)
    const base = { schedIndex, label: entry.label, runs: mine.length }
    let worst: string | null = null
    let cvPercent: number | null = null
    if (mine.length >= 2) {
      cvPercent = 0 // nothing moved data: nothing varies
      for (const p of mine[0].processes) {
        const values = mine.map((r) => r.processes.find((q) => q.name === p.name)?.MBps ?? NaN)
        if (values.some((v) => !Number.isFinite(v))) continue
        const m = mean(values)
        const cv = m > 0 ? (100 * stddev(values)) / m : 0
        if (worst === null || cv > cvPercent) {
          cvPercent = cv
          worst = p.name
        }
      }
    }
    const verdict = (more: boolean, reason: StabilityVerdict['reason']): StabilityVerdict => ({
      ...base,
      cvPercent,
      worst,
      more,
      reason,
    })
    if (mine.length < Math.min(spec.repetitions, max)) return verdict(true, 'too few runs')
    // stable on its last allowed run counts as stable, not as stopped by the cap
    if (rule && cvPercent !== null && cvPercent <= rule.cvPercent) return verdict(false, 'stable')
    if (mine.length >= max) return verdict(false, 'run cap reached')
    return verdict(true, 'not stable yet')
  })
}

/** One line per entry for a report: `deadline: 5 runs, CV 1.2 % (reader) — stable`. */
export function describeStability(v: StabilityVerdict): string {
  const cv = v.cvPercent === null ? 'CV –' : `CV ${v.cvPercent.toFixed(1)} %${v.worst ? ` (${v.worst})` : ''}`
  const same = v.cvPercent !== null && v.cvPercent < 1e-6 && v.runs >= 2 ? `, ${IDENTICAL_REPETITIONS}` : ''
  return `${v.label}: ${v.runs} run${v.runs === 1 ? '' : 's'}, ${cv} — ${v.reason}${same}`
}

/**
 * The next round of (scheduler entry, repetition) jobs: one more repetition of every entry that
 * needs it, numbered after its `attempts` so far (failed runs included, so a failing entry stops
 * at the cap). Empty when the experiment is complete.
 *
 * `blocks` (real runs): while any entry needs another run, every entry below the cap runs again,
 * so each round is a complete block of all schedulers. A real machine drifts (here 1 MiB reads
 * moved 940–1708 MB/s within a minute, bench/real-probes.sh drift); extra runs of only the
 * entries that varied would sample them in a later state of the machine than the stable ones and
 * turn that drift into a difference between schedulers. Complete blocks keep every scheduler's
 * runs side by side in time, which is what a paired comparison (validate/judge.ts) needs.
 */
export function nextRound(
  spec: ResolvedSpec,
  runs: readonly RunResult[],
  attempts: readonly number[],
  blocks = false,
): { schedIndex: number; repetition: number }[] {
  const max = spec.untilStable ? spec.untilStable.maxRepetitions : spec.repetitions
  const verdicts = stabilityOf(spec, runs)
  const again = blocks && verdicts.some((v) => v.more && attempts[v.schedIndex] < max)
  return verdicts
    .filter((v) => (again || v.more) && attempts[v.schedIndex] < max)
    .map((v) => ({ schedIndex: v.schedIndex, repetition: attempts[v.schedIndex] }))
}

/** Said when repeated runs gave the same figures: there is no spread to show. */
export const IDENTICAL_REPETITIONS = 'identical repetitions (deterministic workload)'

/**
 * Whether every repetition of a summary row gave the same figures: each process's bytes, time
 * and throughput, and the device's rates. False below two repetitions.
 */
export function identicalRepetitions(s: LabelSummary): boolean {
  if (s.repetitions < 2) return false
  const figures = [
    s.device.readMBps,
    s.device.writeMBps,
    ...s.processes.flatMap((p) => [p.bytes, p.seconds, p.MBps]),
  ]
  return figures.every((f) => f.n < 2 || identicalValues(f))
}

/**
 * Why repetitions can be identical and how to vary them: each repetition has its own seed, but a
 * workload and device that draw nothing from it give the same run every time.
 */
export function identicalAdvice(seed: number | null): string {
  const from = seed === null ? "the spec's seed" : `the spec's seed, ${seed},`
  return (
    `Each repetition ran with a seed of its own (derived from ${from} and the repetition), but nothing ` +
    'in this workload or device draws on it, so every run came out the same: there is no spread to ' +
    'show, and a confidence interval would only say ± 0. To measure run-to-run variation, give the ' +
    'experiment randomness — a workload with random choices (random-read, fio with rw=randread …) or ' +
    "the device preset's variability (seekSpreadPct, commandJitterUs …, see `iosched-lab list`) — " +
    'and each repetition draws it anew; a different `seed` gives another draw of all of them. ' +
    'Otherwise one repetition says it all.'
  )
}
