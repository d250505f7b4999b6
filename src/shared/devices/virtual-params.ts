import { SECTOR } from '../block/types'
import type { ParamIssue, ParamSpec, ParamValues } from '../util/params'
import { parseQuantileTable, QuantileTable } from './quantile-table'
import { BACKING_PARAMS, backingConfig } from './backing-params'
import { SIGNAL_PARAMS } from './signal-params'
import { parseSchedulerPath, PATH_PARAMS } from './virtual-path-params'
import type { BackingConfig } from './backing-params'

/**
 * The virtual device model's parameters as data: a device whose service the host cannot see into
 * — a loop device over a file, a virtio disk over a hypervisor, a device-mapper target — described
 * by what can be measured at its block interface (the queue attributes in sysfs, the service-time
 * distributions of reads and writes, their parallelism and bandwidth, and the CPU its own I/O path
 * takes on the host). `iosched-lab fingerprint` fits them; the defaults describe this lab machine's
 * scratch loop device (see the `loop-dio-virtio` preset for the measurement).
 */
export const VIRTUAL_PARAMS: readonly ParamSpec[] = [
  {
    name: 'kind',
    kind: 'enum',
    default: 'loop',
    unit: '',
    meaning:
      'What the device is (reported, not modelled): a loop device, a virtio disk, a device-mapper target, or another block device',
    values: ['loop', 'virtio', 'device-mapper', 'nvme', 'scsi', 'other'],
  },
  { name: 'capacityGiB', kind: 'number', default: 1, unit: 'GiB', meaning: 'Size of the device', min: 0.001 },
  {
    name: 'rotational',
    kind: 'bool',
    default: true,
    unit: '',
    meaning:
      'queue/rotational as the kernel reports it (a loop device reports 1 whatever its backing); BFQ and CFQ decide idling from it',
  },
  {
    name: 'queueDepth',
    kind: 'int',
    default: 128,
    unit: 'commands',
    meaning: 'Commands the driver takes at once (blk-mq hardware tags, /sys/block/X/mq/0/nr_tags)',
    min: 1,
    max: 65535,
  },
  {
    name: 'nrRequests',
    kind: 'int',
    default: 0,
    unit: 'requests',
    meaning: "queue/nr_requests of the device (scheduler tags); 0 = the host's default",
    min: 0,
    max: 65535,
  },
  {
    name: 'maxTransferKiB',
    kind: 'int',
    default: 1280,
    unit: 'KiB',
    meaning: "queue/max_sectors_kb: the driver's largest transfer",
    min: 4,
    max: 65536,
  },
  {
    name: 'writeCache',
    kind: 'bool',
    default: true,
    unit: '',
    meaning:
      'queue/write_cache reads "write back": the device may hold writes in a volatile cache (writeback throttling then lets a burst drain before the next: block/blk-wbt.c wbt_rqw_done)',
    source:
      'drivers/block/loop.c (6.x) loop_update_limits: BLK_FEAT_WRITE_CACHE for a backing file with fsync, i.e. always for a regular file; virtio_blk.c with VIRTIO_BLK_F_FLUSH',
  },
  {
    name: 'wbtLatUs',
    kind: 'int',
    default: -1,
    unit: 'µs',
    meaning:
      "queue/wbt_lat_usec: writeback throttling's read-latency target (0 = off, −1 = the host's setting)",
    min: -1,
    max: 1e8,
  },
  {
    name: 'maxSegments',
    kind: 'int',
    default: 0,
    unit: 'segments',
    meaning:
      'queue/max_segments: the most memory segments one request may carry, each a 4 KiB page here — a request holds at most this many pages (0 = only maxTransferKiB bounds it)',
    min: 0,
    max: 65535,
    source:
      'block/blk-merge.c (6.x): ll_new_hw_segment refuses a merge past blk_rq_get_max_segments and bio_split_rw splits a bio there; segments of different bios are not joined, so the one-block bios of a block device’s buffer-head writeback and the pages of a process’s buffer are a segment each',
  },
  {
    name: 'segmentKiB',
    kind: 'string',
    default: '0:4, 100:4',
    unit: 'KiB',
    meaning:
      "Length of a request's physically contiguous memory segments as percent:KiB quantiles, drawn once per run (4 = one page each; longer where the pages of a process's buffer happen to be adjacent, which its allocation decides): with maxSegments it bounds a request's size, and each segment takes a descriptor of a virtio ring (ringSlots)",
    source:
      'block/blk-merge.c (6.x): physically contiguous pages of a bio join one segment (biovec_phys_mergeable) up to max_segment_size; how many are adjacent depends on the memory a buffer got, so it is measured',
  },
  {
    name: 'readServiceUs',
    kind: 'string',
    default: '0:40, 10:55, 50:70, 90:95, 99:600, 99.9:2500, 100:6000',
    unit: 'µs',
    meaning:
      'Service time of a 4 KiB read as percent:µs quantiles (the device part of a QD1 read, path CPU excluded)',
  },
  {
    name: 'writeServiceUs',
    kind: 'string',
    default: '0:45, 10:60, 50:80, 90:110, 99:1500, 99.9:4000, 100:8000',
    unit: 'µs',
    meaning:
      'Service time of a 4 KiB write as percent:µs quantiles (an early-acknowledging write cache shows here)',
  },
  {
    name: 'flushUs',
    kind: 'string',
    default: '',
    unit: 'µs',
    meaning:
      "How long a cache flush (fsync's REQ_PREFLUSH) keeps the device's path thread waiting, as percent:µs quantiles — a loop device's worker calls vfs_fsync on its backing file, which commits the file system's journal and flushes the disk under it, and serves nothing else meanwhile ('' = a flush costs nothing)",
    source:
      'drivers/block/loop.c (6.x): do_req_filebacked → lo_req_flush → vfs_fsync, synchronous in the worker (loop_process_work serves its commands in turn); the time is measured: fio 4 KiB O_DIRECT random writes with fsync=1 on a loop device give the flush alone (fio’s sync latency)',
  },
  {
    name: 'readParallel',
    kind: 'number',
    default: 3,
    unit: 'commands',
    meaning:
      'Reads the device serves at once (a real number: the fitted concurrency, e.g. 3.4 = three lanes and one at 0.4 speed)',
    min: 0.05,
    max: 4096,
  },
  {
    name: 'writeParallel',
    kind: 'number',
    default: 3,
    unit: 'commands',
    meaning: 'Writes the device serves at once',
    min: 0.05,
    max: 4096,
  },
  {
    name: 'readContentionUs',
    kind: 'number',
    default: 0,
    unit: 'µs',
    meaning:
      'Time each read in flight at the device adds to every request started beside it (0 = the lane model: readParallel, writeParallel and the serial path instead)',
    min: 0,
    max: 1e6,
    source:
      'measured on this machine (6.18 Firecracker guest, loop device on virtio, fio 4 KiB randread/randwrite at QD 1, 4, 8, 32): the mean latency grows linearly with depth, by 14 µs per read and 9–17 µs per write in flight, and a read beside QD8 and QD32 writers takes its QD1 time plus the writers’ share — see devices/virtual-depth-law.ts',
  },
  {
    name: 'writeContentionUs',
    kind: 'number',
    default: 0,
    unit: 'µs',
    meaning: 'Time each write in flight at the device adds to every request started beside it',
    min: 0,
    max: 1e6,
  },
  {
    name: 'stallEveryMs',
    kind: 'number',
    default: 0,
    unit: 'ms',
    meaning:
      "Busy time of the device's host thread, not paid back by idle time, after which the host takes its CPU away for a stall (0 = no stalls)",
    min: 0,
    max: 1e6,
    source:
      'measured on this machine (fio per-I/O latency logs on the scratch loop device): completions stop for 1–5 ms 10–18 times a second at QD32, none at QD1 — see devices/host-stalls.ts',
  },
  {
    name: 'stallMs',
    kind: 'string',
    default: '0:1.5, 25:2, 50:2.5, 75:2.8, 100:3.5',
    unit: 'ms',
    meaning: 'How long a stall of the host lasts, as percent:ms quantiles',
  },
  ...SIGNAL_PARAMS,
  {
    name: 'sharedLanes',
    kind: 'bool',
    default: true,
    unit: '',
    meaning:
      'Reads and writes wait for the same lanes in arrival order (a read queues behind writes, as at a virtio ring or one backing disk); off: separate paths',
  },
  {
    name: 'readMBps',
    kind: 'number',
    default: 900,
    unit: 'MB/s',
    meaning: 'Bandwidth of reads beyond their first 4 KiB (the sequential rate with large requests)',
    min: 0.001,
  },
  {
    name: 'writeMBps',
    kind: 'number',
    default: 450,
    unit: 'MB/s',
    meaning: 'Bandwidth of writes beyond their first 4 KiB',
    min: 0.001,
  },
  {
    name: 'cacheWriteMBps',
    kind: 'number',
    default: 0,
    unit: 'MB/s',
    meaning:
      "Bandwidth of page-cache writes (writeback) beyond their first 4 KiB, where it differs from a process's direct writes (0 = writeMBps)",
    min: 0,
    source:
      "measured on this machine (Linux 6.18 Firecracker guest, ftrace block_rq_issue/complete on the virtio disk under a loop device, 2026-12-05): a pass of 85 writeback writes of 512 KiB completed 20 ms after the first was issued (2.2 GB/s), where a direct writer's 512 KiB writes, one at a time, completed every 208 µs (2.5 GB/s with each one's round trip); the fingerprint fits it from its buffered point's rate, whose time includes writing back 64 MiB",
  },
  ...PATH_PARAMS,
  ...BACKING_PARAMS,
]

/** The virtual device's configuration in simulator units. */
export interface VirtualConfig {
  readonly name: string
  readonly kind: string
  readonly capacitySectors: number
  readonly rotational: boolean
  readonly queueDepth: number
  /** max_sectors_kb in sectors. */
  readonly maxSectors: number
  /** queue/max_segments (0: no segment bound). */
  readonly maxSegments: number
  /** A request's contiguous segment length, KiB: drawn once per run. */
  readonly segmentKiB: QuantileTable
  /** queue/write_cache is "write back". */
  readonly writeCache: boolean
  /** Service of a 4 KiB request, µs, per direction [read, write]. */
  readonly service: readonly [QuantileTable, QuantileTable]
  /** A cache flush's wait on the path thread, µs (null: a flush costs nothing). */
  readonly flush: QuantileTable | null
  readonly parallel: readonly [number, number]
  /** ns each request in flight adds to a request started beside it, per direction (0, 0: lanes). */
  readonly contentionNs: readonly [number, number]
  readonly sharedLanes: boolean
  /** The host signals once per pass over its queue (signal-pass.ts). */
  readonly signalPerPass: boolean
  /** The CPU that takes the completion interrupts (-1: not known). */
  readonly irqCpu: number
  /** ns of the guest's completion work per request of a signalled pass (0: the pass at once). */
  readonly irqCompleteNs: number
  /** ns of a kworker per write of the backing file completed (0: completed in place). */
  readonly dioDoneNs: number
  /** ns per byte beyond the first 4 KiB, per direction. */
  readonly nsPerByte: readonly [number, number]
  /** ns per byte beyond the first 4 KiB of a page-cache write (writeback). */
  readonly cacheWriteNsPerByte: number
  readonly pathThreads: number
  /** ns of host CPU per request. */
  readonly pathNs: number
  /** ns the handing thread spends notifying a device that had no request in hand (0: none). */
  readonly notifyNs: number
  /** ns the handing thread spends per memory segment of a request beyond its first. */
  readonly segmentNs: number
  /** ns each scheduler listed adds on the serial path per request (measured; else its CPU cost). */
  readonly schedulerPathNs: Readonly<Record<string, number>>
  /** Busy ns of the host thread between stalls (0: none), and a stall's length in ms. */
  readonly stallEveryNs: number
  readonly stallMs: QuantileTable
  /** The device under this one, with its own scheduler and ring (null: part of the service). */
  readonly backing: BackingConfig | null
}

/** Validated values → configuration; table problems go to `issues` (then the defaults stand in). */
export function virtualConfig(
  v: ParamValues,
  name: string,
  issues: ParamIssue[] = [],
  path = '',
): VirtualConfig {
  const table = (k: string): QuantileTable =>
    parseQuantileTable(v[k] as string, path ? `${path}.${k}` : k, issues) ??
    new QuantileTable([
      [0, 0],
      [100, 0],
    ])
  const service: [QuantileTable, QuantileTable] = [table('readServiceUs'), table('writeServiceUs')]
  const segmentKiB = table('segmentKiB')
  const maxSegments = (v.maxSegments as number | undefined) ?? 0
  const maxSectors = Math.round(((v.maxTransferKiB as number) * 1024) / SECTOR)
  return {
    name,
    kind: v.kind as string,
    capacitySectors: Math.floor(((v.capacityGiB as number) * 1024 ** 3) / SECTOR),
    rotational: v.rotational as boolean,
    queueDepth: v.queueDepth as number,
    maxSectors,
    maxSegments,
    segmentKiB,
    writeCache: (v.writeCache as boolean | undefined) ?? true,
    service,
    flush: ((v.flushUs as string | undefined) ?? '').trim() === '' ? null : table('flushUs'),
    parallel: [v.readParallel as number, v.writeParallel as number],
    contentionNs: [
      Math.round(((v.readContentionUs as number | undefined) ?? 0) * 1000),
      Math.round(((v.writeContentionUs as number | undefined) ?? 0) * 1000),
    ],
    sharedLanes: v.sharedLanes as boolean,
    signalPerPass: (v.signalPerPass as boolean | undefined) ?? false,
    irqCpu: (v.irqCpu as number | undefined) ?? -1,
    irqCompleteNs: Math.round(((v.irqCompleteUs as number | undefined) ?? 0) * 1000),
    dioDoneNs: Math.round(((v.dioDoneUs as number | undefined) ?? 0) * 1000),
    nsPerByte: [1000 / (v.readMBps as number), 1000 / (v.writeMBps as number)],
    cacheWriteNsPerByte:
      1000 /
      (((v.cacheWriteMBps as number | undefined) ?? 0) > 0
        ? (v.cacheWriteMBps as number)
        : (v.writeMBps as number)),
    pathThreads: v.pathThreads as number,
    pathNs: Math.round((v.pathUs as number) * 1000),
    notifyNs: Math.round(((v.notifyUs as number | undefined) ?? 0) * 1000),
    segmentNs: Math.round(((v.segmentUs as number | undefined) ?? 0) * 1000),
    stallEveryNs: Math.round(((v.stallEveryMs as number | undefined) ?? 0) * 1e6),
    stallMs: table('stallMs'),
    schedulerPathNs: parseSchedulerPath(
      (v.schedulerPathUs as string | undefined) ?? '',
      path ? `${path}.schedulerPathUs` : 'schedulerPathUs',
      issues,
    ),
    backing: backingConfig(v, issues, path),
  }
}

/**
 * The largest request: max_sectors_kb, and at most max_segments segments of `segmentKiB` each
 * (maxSegments 0: no segment bound), in sectors. A request of page-cache pages: `segmentKiB` 4.
 */
export function largestTransferSectors(c: VirtualConfig, segmentKiB: number): number {
  if (c.maxSegments <= 0) return c.maxSectors
  return Math.min(c.maxSectors, Math.floor((c.maxSegments * segmentKiB * 1024) / SECTOR))
}
