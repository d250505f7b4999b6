import { parseSchedulerPath } from '../../../shared/devices/virtual-path-params'
import { SCHEDULER_CPU_COST } from '../../../shared/schedulers/cpu-cost'
import type { ParamValues } from '../../../shared/util/params'
import type { FitPoint } from './fit-virtual'

/**
 * The schedulers' CPU on this machine, from the fingerprint's scheduler points: the QD32 4 KiB
 * random reads run again under each of the kernel's schedulers.
 *  - `schedCpuScale` (host): fio's own CPU per I/O grows under a scheduler by its insert and
 *    dispatch work, which runs in the submitting process. The growth over none, against the
 *    ICPE 2024 per-request costs (schedulers/cpu-cost.ts), fitted by least squares through 0:
 *    one factor for this CPU (a VM's vCPUs with steal time are several times slower at it than
 *    the study's bare-metal core).
 *  - `pathUs` and `schedulerPathUs` (virtual device): on a device with one serial host path (a
 *    loop device's hardware queue), the scheduler's work lies on that path, so the QD32 rate
 *    under none gives the path's own time per request (1 / IOPS), and each scheduler's rate the
 *    time it adds there (1 / IOPS less none's). That is not its CPU as fio sees it: on the 2-vCPU
 *    VM one day BFQ's fio CPU grew 3.3 µs per I/O over none but its path only 1.3 µs, mq-deadline's
 *    1.5 and 2.1 µs — so the path takes each scheduler's own measured figure.
 * Both are re-simulated with the sweep, and the points' residuals reported. The points' spec is
 * fingerprint.ts's `schedulerSweepSpec`.
 */

/** The schedulers whose cost the points measure (none is the sweep's own QD32 point). */
export const COST_SCHEDULERS = ['mq-deadline', 'kyber', 'bfq'] as const
export type CostScheduler = (typeof COST_SCHEDULERS)[number]

/** The QD32 random-read point run under one scheduler. */
export interface SchedulerPoint {
  scheduler: CostScheduler
  point: FitPoint
  /**
   * The time per request it adds over none measured back to back, µs: the median over the passes
   * of (1 / its IOPS − 1 / none's IOPS in the same pass). On a shared VM the rate drifts by more
   * than a scheduler's cost between the sweep's none point and a scheduler point minutes later.
   */
  pairedUs?: number
  /** How many passes paired it. */
  pairs?: number
  /** The paired t-test's two-sided p-value of those differences (absent: fewer than 2 passes). */
  pairedP?: number
}

/**
 * Paired differences whose p-value reaches this are not told from the machine's drift: the rate
 * of this VM moves 10–25 % within minutes, and one fingerprint's three passes put mq-deadline
 * 1.4 µs a request behind none (−7 %), which the validation run after it did not find (8 pairs
 * of runs: −3 %, p = 0.29), while the simulation, given the 1.4 µs, ran it 13 % behind.
 */
export const PAIRED_ALPHA = 0.05

/** Whether a scheduler's paired difference from none is beyond the noise of its passes. */
export const pairedBeyondNoise = (p: SchedulerPoint): boolean =>
  p.pairedP === undefined || p.pairedP < PAIRED_ALPHA

/** The path time a scheduler adds over none, µs, as measured (0: not beyond the noise). */
export function addedPathUs(p: SchedulerPoint, noneIops: number): number {
  if (p.pairedUs === undefined) return 1e6 / p.point.iops - 1e6 / noneIops
  return pairedBeyondNoise(p) ? p.pairedUs : 0
}

export interface SchedulerCostFit {
  /** null when the points do not determine it (no fio CPU figures, no scheduler ran). */
  schedCpuScale: number | null
  /** The serial path's own time per request, µs; null when not determined. */
  pathUs: number | null
  /** What each measured scheduler adds on the path per request ("scheduler:µs, …"); null: none. */
  schedulerPathUs: string | null
  sources: Record<string, string>
}

const r3 = (x: number): number => Math.round(x * 1000) / 1000
const costUs = (s: CostScheduler): number => SCHEDULER_CPU_COST[s].default as number

/**
 * The serial path's time per request, µs, from the QD32 random reads under none: 1 / their rate,
 * the most it can be if it alone limits them (what fitSchedulerCost gives when a scheduler point
 * ran; a refit of a saved fingerprint takes it from the saved point again).
 */
export function nonePathUs(none: FitPoint): { us: number; why: string } {
  return {
    us: r3(1e6 / none.iops),
    why: `fitted: the QD32 4 KiB random reads' time per request under none (1 / ${Math.round(none.iops)} IOPS)`,
  }
}

export function fitSchedulerCost(none: FitPoint, points: readonly SchedulerPoint[]): SchedulerCostFit {
  const sources: Record<string, string> = {}
  const withCpu = points.filter((p) => p.point.fioCpuUs !== null && p.point.iops > 0)
  let scale: number | null = null
  if (none.fioCpuUs !== null && withCpu.length > 0) {
    let num = 0
    let den = 0
    const parts: string[] = []
    for (const p of withCpu) {
      const grew = p.point.fioCpuUs! - none.fioCpuUs
      num += grew * costUs(p.scheduler)
      den += costUs(p.scheduler) ** 2
      parts.push(`${p.scheduler} ${grew >= 0 ? '+' : ''}${r3(grew)} µs`)
    }
    scale = r3(Math.min(50, Math.max(0, num / den)))
    sources.schedCpuScale =
      `fitted: fio's own CPU per I/O at QD32 4 KiB random reads grew over none (${r3(none.fioCpuUs)} µs) by ` +
      `${parts.join(', ')}; least squares on the ICPE 2024 per-request costs`
  }
  let pathUs: number | null = null
  let schedulerPathUs: string | null = null
  const measured = points.filter((p) => p.point.iops > 0)
  if (none.iops > 0 && measured.length > 0) {
    const path = nonePathUs(none)
    pathUs = path.us
    const each = measured.map((p) => ({ s: p.scheduler, us: r3(Math.max(0, addedPathUs(p, none.iops))) }))
    schedulerPathUs = each.map((e) => `${e.s}:${e.us}`).join(', ')
    sources.pathUs = path.why
    const how = (p: SchedulerPoint): string =>
      p.pairedUs !== undefined
        ? `${p.scheduler} ${r3(p.pairedUs)} µs (median of ${p.pairs ?? 1} pass${p.pairs === 1 ? '' : 'es'} run back to back with none` +
          (p.pairedP === undefined
            ? ')'
            : pairedBeyondNoise(p)
              ? `, paired t-test p = ${p.pairedP.toPrecision(2)})`
              : `; not beyond their noise, paired t-test p = ${p.pairedP.toPrecision(2)} ≥ ${PAIRED_ALPHA}: taken as 0)`)
        : `${p.scheduler} 1 / ${Math.round(p.point.iops)} IOPS`
    sources.schedulerPathUs =
      `fitted: the same reads' time per request under each scheduler less none's ` +
      `(${measured.map(how).join(', ')})`
  }
  return { schedCpuScale: scale, pathUs, schedulerPathUs, sources }
}

/**
 * The scheduler points re-simulated on `values`, with each scheduler's `schedulerPathUs`
 * corrected until the simulation adds over none what was measured, within 2 % of a request's
 * time, or `maxIterations` simulations; the values the returned simulation ran on.
 *
 * The rate does not fall evenly with the path time: once a virtual device's host thread is busy
 * over half the time its stalls set in (devices/host-stalls.ts), and at QD32 random reads a few
 * µs more took the rate from +7 % to −28 % of the measured (2026-12-05), where a step by the
 * miss alone swung from one side to the other. So each scheduler's time is bracketed between one
 * that simulates too fast and one too slow, and the bracket halved; each scheduler keeps the
 * time that came closest.
 */
export function refineSchedulerPaths(
  values: ParamValues,
  points: readonly SchedulerPoint[],
  measuredNone: FitPoint,
  simulatedNone: FitPoint | undefined,
  simulate: (values: ParamValues) => FitPoint[],
  maxIterations = 10,
): { values: ParamValues; simulated: FitPoint[]; corrected: boolean } {
  let sims = simulate(values)
  if (typeof values.schedulerPathUs !== 'string' || !simulatedNone || simulatedNone.iops <= 0)
    return { values, simulated: sims, corrected: false }
  const measuredUs = Object.fromEntries(points.map((x) => [x.scheduler, addedPathUs(x, measuredNone.iops)]))
  const tolerance = (0.02 * 1e6) / simulatedNone.iops
  const current = parseSchedulerPath(values.schedulerPathUs, 'schedulerPathUs', [])
  // per scheduler: the time tried, the largest too fast and smallest too slow, the closest
  const search = new Map(
    points.map((x) => {
      const us = (current[x.scheduler] ?? 0) / 1000
      return [x.scheduler, { us, fast: -1, slow: Infinity, best: us, bestOff: Infinity }]
    }),
  )
  let v = values
  let corrected = false
  for (let i = 0; ; i++) {
    let worst = 0
    for (const [k, x] of points.entries()) {
      const st = search.get(x.scheduler)!
      const off = 1e6 / sims[k].iops - 1e6 / simulatedNone.iops - measuredUs[x.scheduler]
      if (!Number.isFinite(off)) continue
      if (Math.abs(off) < st.bestOff) {
        st.best = st.us
        st.bestOff = Math.abs(off)
      }
      if (off < 0) st.fast = Math.max(st.fast, st.us)
      else st.slow = Math.min(st.slow, st.us)
      worst = Math.max(worst, Math.abs(off))
      // the next time to try: within the bracket once there is one, else a step by the miss
      if (Math.abs(off) > tolerance)
        st.us =
          st.fast >= 0 && Number.isFinite(st.slow)
            ? (st.fast + st.slow) / 2
            : Math.max(0, st.us - off, off < 0 ? st.us * 2 : 0)
    }
    if (worst <= tolerance || i + 1 >= maxIterations) break
    const tried = points.map((x) => `${x.scheduler}:${r3(search.get(x.scheduler)!.us)}`).join(', ')
    if (tried === v.schedulerPathUs) break
    v = { ...v, schedulerPathUs: tried }
    corrected = true
    sims = simulate(v)
  }
  // every scheduler at its closest time: simulate those if the last run tried others
  const closest = points.map((x) => `${x.scheduler}:${r3(search.get(x.scheduler)!.best)}`).join(', ')
  if (closest !== v.schedulerPathUs) {
    v = { ...v, schedulerPathUs: closest }
    corrected = true
    sims = simulate(v)
  }
  return { values: v, simulated: sims, corrected }
}
