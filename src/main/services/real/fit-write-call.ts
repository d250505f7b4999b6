// The spread of a buffered write()'s own work, fitted from the fingerprint's 4 KiB buffered writes.
import { parseQuantileTable } from '../../../shared/devices/quantile-table'
import { LatencyHistogram } from '../../../shared/metrics/histogram'
import type { LatencyHistogramJSON } from '../../../shared/metrics/histogram'
import type { ParamValues } from '../../../shared/util/params'

/**
 * The percents the call's work is fitted at: up to p99. Above it the measured writes include the
 * first touches of memory the guest had reported to its hypervisor (11 µs a page here, the host's
 * `freshPageUs`, modelled apart), so the table's top is its p99.
 */
export const WRITE_CALL_KNOTS = [0, 1, 5, 10, 25, 50, 75, 90, 95, 99] as const

const r3 = (x: number): number => Math.round(x * 1000) / 1000

/**
 * One correction step of the call's work (`writeCallQuantilesUs`): each quantile moves by the
 * measured 4 KiB write()'s latency beyond the simulated at that percent — the rest of the call
 * (its system call, one page's copy) is the same every time, so the difference is the work's. The
 * first step starts from `writeCallUs` every call. `writeCallUs` follows as the table's median,
 * which is what the constant stood for.
 */
export function correctWriteCall(
  host: ParamValues,
  measured: LatencyHistogramJSON,
  simulated: LatencyHistogramJSON,
): { writeCallUs: number; writeCallQuantilesUs: string } {
  const m = LatencyHistogram.fromJSON(measured)
  const s = LatencyHistogram.fromJSON(simulated)
  const text = (host.writeCallQuantilesUs as string | undefined) ?? ''
  const prev = text.trim() === '' ? null : parseQuantileTable(text, 'writeCallQuantilesUs', [])
  const constant = (host.writeCallUs as number | undefined) ?? 0
  let last = 0
  const knots = WRITE_CALL_KNOTS.map((q) => {
    const before = prev !== null ? prev.at(q) : constant
    last = Math.max(last, before + (m.percentile(q) - s.percentile(q)) / 1000)
    return [q, r3(Math.min(1000, last))] as const
  })
  const median = knots.find(([q]) => q === 50)![1]
  const table = [...knots, [100, knots[knots.length - 1][1]] as const]
  return {
    writeCallUs: median,
    writeCallQuantilesUs: table.map(([q, v]) => `${q}:${v}`).join(', '),
  }
}
