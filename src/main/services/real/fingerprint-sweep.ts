// The fingerprint's sweep as lab experiments: the points (fio workloads) and the same QD32 reads
// under each of the kernel's schedulers. The same specs run for real and simulated.
import type { LatencyHistogramJSON } from '../../../shared/metrics/histogram'
import { LatencyHistogram } from '../../../shared/metrics/histogram'
import type { ParamValues } from '../../../shared/util/params'
import type { SweepName } from './fingerprint-fit'
import { freshWrites } from './fit-fresh-pages'

/** The sweep: what each point does (fio workload parameters of the lab's spec). */
const SWEEP: { name: SweepName; params: ParamValues }[] = [
  { name: 'qd1-randread', params: { rw: 'randread', bs: '4k', iodepth: 1, ioengine: 'psync' } },
  { name: 'qd32-randread', params: { rw: 'randread', bs: '4k', iodepth: 32, ioengine: 'libaio' } },
  // between the two: no fit uses it, so it judges how the model climbs from QD1 to QD32
  { name: 'qd8-randread', params: { rw: 'randread', bs: '4k', iodepth: 8, ioengine: 'libaio' } },
  { name: 'qd1-randwrite', params: { rw: 'randwrite', bs: '4k', iodepth: 1, ioengine: 'psync' } },
  { name: 'qd32-randwrite', params: { rw: 'randwrite', bs: '4k', iodepth: 32, ioengine: 'libaio' } },
  { name: 'seq-read', params: { rw: 'read', bs: '1M', iodepth: 4, ioengine: 'libaio' } },
  { name: 'seq-write', params: { rw: 'write', bs: '1M', iodepth: 4, ioengine: 'libaio' } },
  // two passes: the first into memory not used for a while, the second, at once, into the pages
  // the first pass's close freed — on a VM that reports free memory to its hypervisor the first
  // pays for touching reported pages again and the second does not (host/page-reporting.ts)
  {
    name: 'buffered-write',
    params: { rw: 'write', bs: '1M', iodepth: 1, ioengine: 'psync', direct: false, loops: 2 },
  },
  // small buffered writes: each call's own work, which the 1 MiB writes spread too thin to see
  // (a 4 KiB write() here: clat p50 1.7 µs, fio CPU 2.7 µs per I/O; 2026-12-06)
  {
    name: 'buffered-randwrite',
    params: { rw: 'randwrite', bs: '4k', iodepth: 1, ioengine: 'psync', direct: false, loops: 2 },
  },
  // each direct write followed by fsync: a block device's fsync flushes its write cache
  // (blkdev_fsync → blkdev_issue_flush), which a loop device serves with its backing file's fsync
  // in its worker — the point's rate is the write's time and the flush's (flushUs)
  {
    name: 'qd1-fsync-write',
    params: { rw: 'randwrite', bs: '4k', iodepth: 1, ioengine: 'psync', fsync: 1 },
  },
]

/** Points whose rate says nothing of what they measure (PointResidual.medianOnly in fingerprint.ts). */
export const MEDIAN_ONLY: ReadonlySet<string> = new Set(['buffered-write', 'buffered-randwrite'])

/** Points whose median says nothing of what they measure (PointResidual.rateOnly). */
export const RATE_ONLY: ReadonlySet<string> = new Set(['qd1-fsync-write'])

/** How a point is judged: `{ medianOnly }` or `{ rateOnly }` where it is one of those, else nothing. */
export const judgedBy = (name: string): { medianOnly?: true; rateOnly?: true } =>
  MEDIAN_ONLY.has(name) ? { medianOnly: true } : RATE_ONLY.has(name) ? { rateOnly: true } : {}

/**
 * The percentiles a point's medians are judged at: p50, or for the two-pass buffered point the
 * median of each of its two kinds of writes, as the measured point has them: those into warm
 * memory and those into memory the guest had reported (fit-fresh-pages.ts freshWrites). Which
 * pass a write belonged to does not say which kind it is — the warm pool takes part of the first
 * pass or all of it (fp35: 15 % of the writes fresh, so p25 and p75, the passes' medians when the
 * first pass was all fresh, both fell among the warm writes, p75 in their spread) — and with no
 * fresh write the point is one kind: p50.
 */
export function medianPercentiles(name: string, measured: LatencyHistogramJSON, freshExcessNs = 0): number[] {
  if (name !== 'buffered-write') return [50]
  const share = freshWrites(measured, freshExcessNs).share
  return share > 0 ? [50 * (1 - share), 100 - 50 * share] : [50]
}

/** The signed median residual of a point: at each of its medians, the largest in size. */
export function medianResidual(
  name: string,
  measured: LatencyHistogramJSON,
  simulated: LatencyHistogramJSON,
  /** The buffered point's fresh-page excess as the probe measured it (FitPoint.freshExcessNs). */
  freshExcessNs = 0,
): number {
  const m = LatencyHistogram.fromJSON(measured)
  const s = LatencyHistogram.fromJSON(simulated)
  let worst = 0
  for (const q of medianPercentiles(name, measured, freshExcessNs)) {
    const r = m.percentile(q) > 0 ? s.percentile(q) / m.percentile(q) - 1 : 0
    if (Math.abs(r) > Math.abs(worst)) worst = r
  }
  return worst
}

/** A residual's size as the targets count it: the larger of rate and median, or the one judged. */
export function residualSize(r: {
  iops: number
  p50: number
  medianOnly?: boolean
  rateOnly?: boolean
}): number {
  if (r.medianOnly) return Math.abs(r.p50)
  if (r.rateOnly) return Math.abs(r.iops)
  return Math.max(Math.abs(r.iops), Math.abs(r.p50))
}

/** The buffered point writes this much once (well under any dirty limit: no throttling). */
const BUFFERED_BYTES = 64 * 2 ** 20

const GAP_MS = 200

/** The preset a virtual device's fitted values override. */
export const VIRTUAL_BASE = 'loop-dio-virtio'

/**
 * The sweep as a lab experiment: one fio-like process per point, one after another (each starts
 * when the previous one's time is up), O_DIRECT on the raw device. The same spec runs for real
 * (fio) and in the simulator with the fitted model, so both sides do exactly the same I/O.
 */
export function sweepSpec(
  seconds: number,
  regionBytes: number,
  device: { preset: string; overrides?: ParamValues },
  host?: { preset: string; overrides?: ParamValues },
  repetitions = 1,
): object {
  const step = seconds * 1000 + GAP_MS
  return {
    name: 'fingerprint',
    description:
      'QD1 and QD32 4 KiB random reads and writes, 1 MiB sequential reads and writes, 1 MiB buffered writes, 4 KiB writes each with fsync',
    device,
    ...(host ? { host } : {}),
    workload: {
      processes: SWEEP.map((s, i) => ({
        name: s.name,
        type: 'fio',
        params:
          s.params.direct === false
            ? { ...s.params, filename: '/dev', size: Math.min(BUFFERED_BYTES, regionBytes) }
            : {
                ...s.params,
                direct: true,
                filename: '/dev',
                size: regionBytes,
                time_based: true,
                runtime: seconds,
              },
        startMs: i * step,
      })),
      stop: { maxSeconds: (SWEEP.length * step) / 1000 },
    },
    schedulers: ['none'],
    repetitions,
  }
}

/** The scheduler points as a lab experiment: the sweep's QD32 random reads under each scheduler. */
export function schedulerSweepSpec(
  seconds: number,
  regionBytes: number,
  device: { preset: string; overrides?: ParamValues },
  host: { preset: string; overrides?: ParamValues } | undefined,
  schedulers: readonly string[],
  repetitions = 1,
): object {
  const sweep = sweepSpec(seconds, regionBytes, device, host, repetitions) as {
    workload: { processes: { name: string; startMs?: number }[] }
  }
  const point = sweep.workload.processes.find((p) => p.name === 'qd32-randread')!
  const { startMs: _, ...alone } = point
  return {
    ...sweep,
    name: 'fingerprint-schedulers',
    description: 'QD32 4 KiB random reads under each of the kernel’s schedulers',
    workload: { processes: [alone], stop: { maxSeconds: seconds + GAP_MS / 1000 } },
    schedulers: [...schedulers],
  }
}
