import { SCHEDULER_CPU_COST } from '../../../shared/schedulers/cpu-cost'
import type { FitPoint } from './fit-virtual'

/**
 * The schedulers' CPU on this machine, from the fingerprint's scheduler points: the QD32 4 KiB
 * random reads run again under each of the kernel's schedulers.
 *  - `schedCpuScale` (host): fio's own CPU per I/O grows under a scheduler by its insert and
 *    dispatch work, which runs in the submitting process. The growth over none, against the
 *    ICPE 2024 per-request costs (schedulers/cpu-cost.ts), fitted by least squares through 0:
 *    one factor for this CPU (a VM's vCPUs with steal time are several times slower at it than
 *    the study's bare-metal core).
 *  - `pathUs` (virtual device): on a device with one serial host path (a loop device's hardware
 *    queue), the scheduler's work lies on that path, so each scheduler's QD32 rate gives the
 *    path's own time per request: 1 / IOPS less the scheduler's scaled cost. The shortest of
 *    those is kept: where the device and not the path bounds a point, that point's figure
 *    overstates the path.
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
}

export interface SchedulerCostFit {
  /** null when the points do not determine it (no fio CPU figures, no scheduler ran). */
  schedCpuScale: number | null
  /** The serial path's own time per request, µs; null when not determined. */
  pathUs: number | null
  sources: Record<string, string>
}

const r3 = (x: number): number => Math.round(x * 1000) / 1000
const costUs = (s: CostScheduler): number => SCHEDULER_CPU_COST[s].default as number

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
  if (scale !== null && none.iops > 0) {
    const each = [
      { s: 'none', us: 1e6 / none.iops },
      ...points
        .filter((p) => p.point.iops > 0)
        .map((p) => ({ s: p.scheduler, us: 1e6 / p.point.iops - costUs(p.scheduler) * scale! })),
    ]
    const least = each.reduce((a, b) => (b.us < a.us ? b : a))
    pathUs = r3(Math.max(0, least.us))
    sources.pathUs =
      `fitted: the QD32 4 KiB random reads' time per request under each scheduler less its scaled cost ` +
      `(${each.map((e) => `${e.s} ${r3(e.us)} µs`).join(', ')}): the shortest, ${least.s}'s`
  }
  return { schedCpuScale: scale, pathUs, sources }
}
