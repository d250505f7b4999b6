import type { SimTime } from '../../sim/time'
import { ms } from '../../sim/time'
import type { ParamSpec, ParamValues } from '../../util/params'

/**
 * Tunables of both generations, as data. Where v1 (2.6.10–2.6.12 sources) and v3 (2.6.23) share a
 * sysfs name and a default they share an entry; the v1-only entries keep the kernel's variable names
 * (`cfq_fifo_expire_r` …) so that one experiment can list `cfq` twice, once per version, without a
 * name meaning two different defaults. Each meaning says which version reads it.
 */
export const cfqTunables: readonly ParamSpec[] = [
  {
    name: 'version',
    kind: 'enum',
    default: 'v3',
    values: ['v1', 'v3'],
    unit: '',
    meaning:
      'v1 = round-robin CFQ without idling (2003; as in 2.6.10–2.6.12), v3 = time slices by I/O priority (2.6.13+, ≈2.6.23)',
  },
  {
    name: 'quantum',
    kind: 'int',
    default: 4,
    unit: 'requests',
    meaning:
      'v3: most requests the active queue keeps in flight (4× when it is the only busy queue); v1: requests gathered per dispatch round',
    min: 1,
    max: 1024,
    source: 'cfq_quantum = 4',
  },
  {
    name: 'back_seek_max',
    kind: 'int',
    default: 16384,
    unit: 'KiB',
    meaning: 'both: longest backward seek the next-request choice accepts (at a penalty)',
    min: 0,
    max: 1 << 30,
    source: 'cfq_back_max = 16 * 1024',
  },
  {
    name: 'back_seek_penalty',
    kind: 'int',
    default: 2,
    unit: '×',
    meaning: 'both: a backward seek counts this many times its distance',
    min: 1,
    max: 1000,
    source: 'cfq_back_penalty = 2',
  },
  {
    name: 'fifo_expire_sync',
    kind: 'int',
    default: 125,
    unit: 'ms',
    meaning: 'v3: age after which a sync request is served out of sector order (checked once per slice)',
    min: 1,
    max: 600_000,
    source: 'HZ / 8',
  },
  {
    name: 'fifo_expire_async',
    kind: 'int',
    default: 250,
    unit: 'ms',
    meaning: 'v3: ditto for async requests',
    min: 1,
    max: 600_000,
    source: 'HZ / 4',
  },
  {
    name: 'slice_sync',
    kind: 'int',
    default: 100,
    unit: 'ms',
    meaning: 'v3: base time slice of a sync queue; slice = base + base/5·(4 − prio)',
    min: 1,
    max: 600_000,
    source: 'HZ / 10',
  },
  {
    name: 'slice_async',
    kind: 'int',
    default: 40,
    unit: 'ms',
    meaning: 'v3: base time slice of an async queue',
    min: 1,
    max: 600_000,
    source: 'HZ / 25',
  },
  {
    name: 'slice_async_rq',
    kind: 'int',
    default: 2,
    unit: 'requests',
    meaning: 'v3: async requests per slice = 2·slice_async_rq·(8 − prio) when other queues wait',
    min: 1,
    max: 10_000,
    source: 'cfq_slice_async_rq = 2',
  },
  {
    name: 'slice_idle',
    kind: 'int',
    default: 8,
    unit: 'ms',
    meaning:
      'v3: how long an emptied sync queue keeps the disk waiting for its next request (0 = never idle)',
    min: 0,
    max: 10_000,
    source: 'HZ / 125 (10 ms in 2.6.13)',
  },
  {
    name: 'queued',
    kind: 'int',
    default: 8,
    unit: 'requests',
    meaning:
      'v1: request slots a process may always allocate (cfq_may_queue); shown for completeness, not enforced by the simulator',
    min: 1,
    max: 10_000,
    source: 'cfq_queued = 8',
  },
  {
    name: 'fifo_expire_r',
    kind: 'int',
    default: 500,
    unit: 'ms',
    meaning: 'v1: age after which a sync request is served first (sysfs fifo_expire_sync in 2.6.10–2.6.12)',
    min: 1,
    max: 600_000,
    source: 'cfq_fifo_expire_r = HZ / 2',
  },
  {
    name: 'fifo_expire_w',
    kind: 'int',
    default: 5000,
    unit: 'ms',
    meaning: 'v1: ditto for async requests (sysfs fifo_expire_async in 2.6.10–2.6.12)',
    min: 1,
    max: 600_000,
    source: 'cfq_fifo_expire_w = 5 * HZ',
  },
  {
    name: 'fifo_batch_expire',
    kind: 'int',
    default: 125,
    unit: 'ms',
    meaning: 'v1: a queue’s FIFOs are looked at no more often than this',
    min: 0,
    max: 600_000,
    source: 'cfq_fifo_rate = HZ / 8',
  },
]

// Constants (not tunable in the kernel): 2.6.23 unless marked v1.

/** Grace period after the last non-idle-class completion before the idle class may use the disk. */
export const IDLE_GRACE: SimTime = ms(100)
/** Below this think time a process counts as issuing at once; a seeky process idles at most this. */
export const MIN_TT: SimTime = ms(2)
export const SLICE_SCALE = 5
/** Decaying statistics are fixed point (256 = one sample) and valid above this weight (3 samples). */
export const SAMPLES_VALID = 80
/** A process whose mean seek distance exceeds this many sectors is seeky. */
export const SEEKY_SECTORS = 8192
/** The device is taken to queue commands itself (NCQ/TCQ) once more than this many were in flight. */
export const HW_TAG_DEPTH = 4
/** v1: period over which a queue's service is averaged (cfq_service = HZ). */
export const V1_SERVICE_PERIOD: SimTime = ms(1000)
/** v1: in-flight depth at which accounting switches from disk time to request counts (CFQ_MAX_TAG). */
export const V1_MAX_TAG = 4

/** The tunables of one instance in the units the code uses: nanoseconds and sectors. */
export interface CfqConfig {
  readonly version: 'v1' | 'v3'
  readonly quantum: number
  readonly backMaxSectors: number
  readonly backPenalty: number
  /** Indexed by sync (0 = async, 1 = sync), as the kernel's cfq_fifo_expire[] and cfq_slice[]. */
  readonly fifoExpire: readonly [SimTime, SimTime]
  readonly slice: readonly [SimTime, SimTime]
  readonly sliceAsyncRq: number
  readonly sliceIdle: SimTime
  readonly v1FifoExpire: readonly [SimTime, SimTime]
  readonly v1FifoBatch: SimTime
}

export function readConfig(t: ParamValues): CfqConfig {
  const n = (k: string): number => t[k] as number
  return {
    version: t.version === 'v1' ? 'v1' : 'v3',
    quantum: n('quantum'),
    backMaxSectors: n('back_seek_max') * 2,
    backPenalty: n('back_seek_penalty'),
    fifoExpire: [ms(n('fifo_expire_async')), ms(n('fifo_expire_sync'))],
    slice: [ms(n('slice_async')), ms(n('slice_sync'))],
    sliceAsyncRq: n('slice_async_rq'),
    sliceIdle: ms(n('slice_idle')),
    v1FifoExpire: [ms(n('fifo_expire_w')), ms(n('fifo_expire_r'))],
    v1FifoBatch: ms(n('fifo_batch_expire')),
  }
}
