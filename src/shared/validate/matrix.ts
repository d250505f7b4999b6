import type { ParamValues } from '../util/params'

/**
 * The workloads `iosched-lab validate` runs on a device, for real and simulated, under each of the
 * kernel's schedulers — in the spirit of DiskSim's `runvalid`: a fixed matrix, so figures of two
 * devices or two versions of the lab compare. Each is fio on the raw device (the page cache and a
 * file system stay out of it, except where a buffered writer is the point), chosen so that the
 * schedulers' decisions show: alone at QD1 and QD32 (per-request cost, merging), sequential
 * (streaming, read-ahead at the device), writes alone, a reader next to a direct writer and next
 * to a buffered one (idling, depth limits, priorities of sync over async), and several readers
 * (fairness).
 */
export interface ValidateWorkload {
  id: string
  title: string
  /** In the quick matrix (CI, a first look). */
  quick: boolean
  /** The process whose throughput ranks the schedulers. */
  rankBy: string
  processes: ValidateProcess[]
}

/** A process of a workload: a fio job, and as in a spec its I/O priority, nice and start. */
export interface ValidateProcess {
  name: string
  params: ParamValues
  ioClass?: 'none' | 'rt' | 'be' | 'idle'
  ioLevel?: number
  nice?: number
  startMs?: number
}

/** The spec fields of a process a matrix may give beside its name and fio parameters. */
export const PROCESS_EXTRAS = ['ioClass', 'ioLevel', 'nice', 'startMs'] as const

/** A fio job of the matrix on the raw device: direct, libaio beyond QD1 (psync at it). */
export const job = (rw: string, bs: string, iodepth: number, extra: ParamValues = {}): ParamValues => ({
  rw,
  bs,
  iodepth,
  ioengine: iodepth > 1 ? 'libaio' : 'psync',
  direct: true,
  filename: '/dev',
  ...extra,
})

export const VALIDATE_MATRIX: readonly ValidateWorkload[] = [
  {
    id: 'randread-qd1',
    title: '4 KiB random reads, one at a time',
    quick: true,
    rankBy: 'reader',
    processes: [{ name: 'reader', params: job('randread', '4k', 1) }],
  },
  {
    id: 'randread-qd32',
    title: '4 KiB random reads, 32 in flight',
    quick: true,
    rankBy: 'reader',
    processes: [{ name: 'reader', params: job('randread', '4k', 32) }],
  },
  {
    id: 'seqread',
    title: '1 MiB sequential reads, 4 in flight',
    quick: false,
    rankBy: 'reader',
    processes: [{ name: 'reader', params: job('read', '1M', 4) }],
  },
  {
    id: 'randwrite',
    title: '4 KiB random writes, 16 in flight',
    quick: false,
    rankBy: 'writer',
    processes: [{ name: 'writer', params: job('randwrite', '4k', 16) }],
  },
  {
    id: 'reader-vs-direct-writer',
    title: 'a random reader next to a direct sequential writer',
    quick: true,
    rankBy: 'reader',
    processes: [
      { name: 'reader', params: job('randread', '4k', 1) },
      { name: 'writer', params: job('write', '1M', 4) },
    ],
  },
  {
    id: 'four-readers',
    title: 'four random readers at once',
    quick: false,
    rankBy: 'readers',
    processes: [{ name: 'readers', params: job('randread', '4k', 1, { numjobs: 4 }) }],
  },
  {
    id: 'reader-vs-buffered-writer',
    title: 'a random reader next to a buffered sequential writer',
    quick: true,
    rankBy: 'reader',
    processes: [
      { name: 'reader', params: job('randread', '4k', 1) },
      { name: 'writer', params: job('write', '1M', 1, { direct: false }) },
    ],
  },
]

export interface ValidateSpecOptions {
  device: { preset: string; overrides?: ParamValues }
  host?: { preset: string; overrides?: ParamValues }
  schedulers: readonly string[]
  /** Seconds each run's processes run (time-based). */
  seconds: number
  /** Bytes of the device the processes spread over. */
  regionBytes: number
  repetitions: number
  /** Repeat until every process's throughput varies ≤ this (%), or `maxRepetitions`. */
  cvPercent: number
  maxRepetitions: number
  seed?: number
}

/** A workload of the matrix as a lab spec: the same document runs for real and simulated. */
export function validateSpec(w: ValidateWorkload, o: ValidateSpecOptions): object {
  return {
    name: `validate-${w.id}`,
    description: w.title,
    device: o.device,
    ...(o.host ? { host: o.host } : {}),
    workload: {
      processes: w.processes.map(({ name, params, ...extras }) => ({
        name,
        type: 'fio',
        params: { ...params, size: o.regionBytes, time_based: true, runtime: o.seconds },
        ...extras,
      })),
      stop: { maxSeconds: o.seconds + 1 },
    },
    schedulers: [...o.schedulers],
    repetitions: o.repetitions,
    untilStable: { cvPercent: o.cvPercent, maxRepetitions: Math.max(o.repetitions, o.maxRepetitions) },
    seed: o.seed ?? 1,
  }
}
