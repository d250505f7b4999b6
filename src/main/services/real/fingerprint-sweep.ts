// The fingerprint's sweep as lab experiments: the points (fio workloads) and the same QD32 reads
// under each of the kernel's schedulers. The same specs run for real and simulated.
import type { ParamValues } from '../../../shared/util/params'
import type { SweepName } from './fingerprint-fit'

/**
 * The sweep: what each point does (fio workload parameters of the lab's spec). A point with
 * `after` starts `afterMs` after that point starts, in its time slot, instead of in a slot of its own.
 */
const SWEEP: { name: SweepName; params: ParamValues; after?: SweepName; afterMs?: number }[] = [
  { name: 'qd1-randread', params: { rw: 'randread', bs: '4k', iodepth: 1, ioengine: 'psync' } },
  { name: 'qd32-randread', params: { rw: 'randread', bs: '4k', iodepth: 32, ioengine: 'libaio' } },
  { name: 'qd1-randwrite', params: { rw: 'randwrite', bs: '4k', iodepth: 1, ioengine: 'psync' } },
  { name: 'qd32-randwrite', params: { rw: 'randwrite', bs: '4k', iodepth: 32, ioengine: 'libaio' } },
  { name: 'seq-read', params: { rw: 'read', bs: '1M', iodepth: 4, ioengine: 'libaio' } },
  { name: 'seq-write', params: { rw: 'write', bs: '1M', iodepth: 4, ioengine: 'libaio' } },
  { name: 'buffered-write', params: { rw: 'write', bs: '1M', iodepth: 1, ioengine: 'psync', direct: false } },
  // the same 64 MiB written again 1 s later, into the pages the first one's close freed: on a VM
  // that reports free memory to its hypervisor, those are still the guest's (page-reporting.ts)
  {
    name: 'buffered-rewrite',
    params: { rw: 'write', bs: '1M', iodepth: 1, ioengine: 'psync', direct: false },
    after: 'buffered-write',
    afterMs: 1000,
  },
]

/** Points whose rate says nothing of what they measure (PointResidual.medianOnly in fingerprint.ts). */
export const MEDIAN_ONLY: ReadonlySet<string> = new Set(['buffered-write', 'buffered-rewrite'])

/** A residual's size as the targets count it: the larger of rate and median, or the median alone. */
export function residualSize(r: { iops: number; p50: number; medianOnly?: boolean }): number {
  return r.medianOnly ? Math.abs(r.p50) : Math.max(Math.abs(r.iops), Math.abs(r.p50))
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
  const starts = new Map<SweepName, number>()
  let slots = 0
  for (const s of SWEEP)
    starts.set(s.name, s.after !== undefined ? starts.get(s.after)! + (s.afterMs ?? 0) : slots++ * step)
  return {
    name: 'fingerprint',
    description:
      'QD1 and QD32 4 KiB random reads and writes, 1 MiB sequential reads and writes, 1 MiB buffered writes',
    device,
    ...(host ? { host } : {}),
    workload: {
      processes: SWEEP.map((s) => ({
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
        startMs: starts.get(s.name)!,
      })),
      stop: { maxSeconds: (slots * step) / 1000 },
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
