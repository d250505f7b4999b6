import type { LatencyHistogramJSON } from '../../../shared/metrics/histogram'
import { LatencyHistogram } from '../../../shared/metrics/histogram'
import { parseQuantileTable, QuantileTable } from '../../../shared/devices/quantile-table'
import type { ParamValues } from '../../../shared/util/params'

/**
 * The host's stalls under load (devices/host-stalls.ts) read off a deep queue's latency
 * histogram: a stall holds back every request in flight at once, so at QD32 the stalled requests
 * stand apart from the rest — beyond twice the median, where the per-request service times drawn
 * at QD1 put hardly any. Their share gives how often the host stalls, their distance from the
 * median how long.
 */

/** The requests that waited for a stall: their share, and their latency beyond the median (ms). */
export interface StallTail {
  share: number
  /** Quantiles (TAIL_KNOTS) of the excess over the median, ms. */
  excessMs: number[]
}

const TAIL_KNOTS = [0, 25, 50, 75, 90, 95, 99, 100]
/** Below this share of a deep queue's requests there is no stall to speak of. */
const NO_STALLS = 0.001

/** The tail of a deep queue's histogram: requests beyond twice its median. */
export function stallTail(latency: LatencyHistogramJSON): StallTail {
  const h = LatencyHistogram.fromJSON(latency)
  if (h.count === 0) return { share: 0, excessMs: TAIL_KNOTS.map(() => 0) }
  const p50 = h.percentile(50)
  const share = 1 - h.fractionAtMost(2 * p50)
  const excessMs = TAIL_KNOTS.map((q) =>
    share > 0 ? Math.max(0, h.percentile(100 * (1 - share + (share * q) / 100)) - p50) / 1e6 : 0,
  )
  return { share, excessMs }
}

const r3 = (x: number): number => Math.round(x * 1000) / 1000

function tableMs(excess: readonly number[]): string {
  let last = 0.05
  return new QuantileTable(
    TAIL_KNOTS.map((p, i) => {
      last = Math.max(last, r3(excess[i]))
      return [p, last] as const
    }),
  ).toString()
}

/**
 * First values from the QD32 random reads: each stall holds back about a queue's worth of
 * requests, so stalls come share × IOPS / depth times a second; at that depth the host thread is
 * busy throughout, so its busy time between stalls is the interval less a stall.
 */
export function initialStalls(
  p: { iops: number; latency: LatencyHistogramJSON },
  depth: number,
): { values: ParamValues; sources: Record<string, string> } {
  const t = stallTail(p.latency)
  if (t.share < NO_STALLS || !(p.iops > 0))
    return {
      values: { stallEveryMs: 0 },
      sources: {
        stallEveryMs: `fitted: at QD32 random reads ${(t.share * 100).toFixed(2)} % of the requests took over twice the median — no stalls of the host`,
      },
    }
  const perSecond = (t.share * p.iops) / depth
  const every = Math.max(0.1, 1000 / perSecond - t.excessMs[2])
  return {
    values: { stallEveryMs: r3(every), stallMs: tableMs(t.excessMs) },
    sources: {
      stallEveryMs: `fitted: at QD32 random reads ${(t.share * 100).toFixed(2)} % of the requests took over twice the median (${r3(perSecond)} stalls a second of a ${depth}-deep queue), then re-simulated against that share`,
      stallMs:
        'fitted: how far beyond the median the QD32 random reads over twice the median were (quantiles), then re-simulated',
    },
  }
}

/** One correction: the stall interval by the tail's share, the durations by its excess. */
export function correctStalls(
  v: ParamValues,
  measured: LatencyHistogramJSON,
  simulated: LatencyHistogramJSON,
  /** The deep reads' measured rate (per second): what bounds how often the host can have stalled. */
  measuredIops = 0,
): ParamValues {
  const every = (v.stallEveryMs as number | undefined) ?? 0
  if (every <= 0) return {}
  const m = stallTail(measured)
  const s = stallTail(simulated)
  const out: ParamValues = {}
  // more stalled requests simulated than measured: longer between stalls (damped) — but never
  // more stalls than stalled requests: each held at least one of those measured beyond twice the
  // median, so at most share × IOPS a second. Where the simulated median rose with the stalls the
  // steps made them ever more often (fp63: every 0.1 ms, the floor, with a contention of 0.7 µs)
  const soonest = m.share > 0 && measuredIops > 0 ? 1000 / (m.share * measuredIops) : 0.1
  if (m.share > 0 && s.share > 0)
    out.stallEveryMs = r3(Math.min(1e6, Math.max(0.1, soonest, every * (s.share / m.share) ** 0.8)))
  const t = parseQuantileTable(v.stallMs as string, 'stallMs', [])
  // no stall longer than the longest measured wait beyond the median: a request it held would
  // show a latency the device never had. The steps add the measured excess over the simulated,
  // which a simulated tail that does not answer (its median moving with the stalls) kept short,
  // so they grew without bound — fp62 fitted over its span: stalls to 126 ms where its reads
  // never waited over 20 ms beyond the median, and its buffered writer's writeback at 50 MB/s
  const longest = m.excessMs[TAIL_KNOTS.length - 1]
  if (t && s.share > 0 && t.v.length === TAIL_KNOTS.length)
    out.stallMs = tableMs(
      TAIL_KNOTS.map((_, i) => Math.min(longest, t.v[i] + (m.excessMs[i] - s.excessMs[i]))),
    )
  return out
}
