import { parseQuantileTable, QuantileTable } from '../../../shared/devices/quantile-table'
import { LOOP_DIO_VIRTIO } from '../../../shared/devices/presets/loop-dio-virtio'
import { LatencyHistogram } from '../../../shared/metrics/histogram'
import type { ParamValues } from '../../../shared/util/params'
import type { FitPoint } from './fit-virtual'

/** The sweep point whose writes are each followed by fsync (fingerprint-sweep.ts). */
export const FLUSH_POINT = 'qd1-fsync-write'

/** The shape the fit keeps: this machine kind's measured flush times (loop-dio-virtio's flushUs). */
const SHAPE = parseQuantileTable(LOOP_DIO_VIRTIO.values.flushUs as string, 'flushUs', [])!

const r3 = (x: number): number => Math.round(x * 1000) / 1000

/** `t` scaled so that its mean is `meanUs` (at least a tenth of a µs). */
function scaled(t: QuantileTable, meanUs: number): string {
  const k = Math.max(0.1, meanUs) / t.mean()
  return new QuantileTable(Array.from(t.p, (p, i) => [p, r3(t.v[i] * k)] as const)).toString()
}

/**
 * A cache flush's time on a device with a write cache (devices/virtual.ts flushUs), from the point
 * whose direct 4 KiB writes are each followed by fsync: fio counts the writes, so the time per
 * write beyond the write's own latency is the fsync's — its system call, the flush, the wake-up.
 * The point does not show the flushes' spread (fio's clat is the write's), so the table keeps the
 * shape measured on this machine kind, scaled to the fitted mean; the re-simulated point then
 * corrects the mean (correctFlush). Null: no such point, or no write cache (a flush is free).
 */
export function initialFlush(
  points: readonly FitPoint[],
  writeCache: boolean | null,
): { values: ParamValues; sources: Record<string, string> } | null {
  const p = points.find((q) => q.name === FLUSH_POINT)
  if (!p || !(p.iops > 0)) return null
  if (writeCache === false)
    return {
      values: { flushUs: '' },
      sources: {
        flushUs: 'queue/write_cache is "write through": a flush is done at once (submit_bio_noacct)',
      },
    }
  const writeUs = LatencyHistogram.fromJSON(p.latency).mean / 1000
  const meanUs = 1e6 / p.iops - writeUs
  return {
    values: { flushUs: scaled(SHAPE, meanUs) },
    sources: {
      flushUs: `fitted: 4 KiB writes each with fsync at ${Math.round(p.iops)} a second, ${r3(writeUs)} µs of it the write: the flush's mean from the rest, re-simulated against the rate; its spread is this machine kind's (loop-dio-virtio), which the point does not show`,
    },
  }
}

/** One correction: the flush's mean moves by the time per write the re-simulated point is off. */
export function correctFlush(
  v: ParamValues,
  meas: readonly FitPoint[],
  sim: readonly FitPoint[],
): ParamValues {
  const text = (v.flushUs as string | undefined) ?? ''
  const m = meas.find((q) => q.name === FLUSH_POINT)
  const s = sim.find((q) => q.name === FLUSH_POINT)
  if (text.trim() === '' || !m || !s || !(m.iops > 0) || !(s.iops > 0)) return {}
  const t = parseQuantileTable(text, 'flushUs', [])
  if (!t) return {}
  return { flushUs: scaled(t, t.mean() + (1e6 / m.iops - 1e6 / s.iops)) }
}
