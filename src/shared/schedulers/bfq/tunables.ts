import type { ParamSpec } from '../../util/params'
import { MS, SECOND } from '../../sim/time'

/**
 * BFQ's sysfs attributes (block/bfq-iosched.c, `bfq_attrs`), with the kernel's defaults. The kernel
 * also has `slice_idle_us`, a second view of the same variable: here `slice_idle` takes fractions
 * of a millisecond instead (0.5 = 500 µs).
 */
export const bfqTunables: readonly ParamSpec[] = [
  {
    name: 'fifo_expire_sync',
    kind: 'int',
    default: 125,
    unit: 'ms',
    meaning: 'age after which a sync request is served out of sector order (checked once per service slot)',
    min: 1,
    max: 600_000,
    source: 'bfq_fifo_expire[1] = NSEC_PER_SEC / 8',
  },
  {
    name: 'fifo_expire_async',
    kind: 'int',
    default: 250,
    unit: 'ms',
    meaning: 'ditto for async requests',
    min: 1,
    max: 600_000,
    source: 'bfq_fifo_expire[0] = NSEC_PER_SEC / 4',
  },
  {
    name: 'back_seek_max',
    kind: 'int',
    default: 16384,
    unit: 'KiB',
    meaning: 'longest backward seek still considered when choosing a queue’s next request',
    min: 0,
    max: 1 << 30,
    source: 'bfq_back_max = 16 * 1024 (lifted from CFQ)',
  },
  {
    name: 'back_seek_penalty',
    kind: 'int',
    default: 2,
    unit: '×',
    meaning: 'a backward seek counts as this many times the same forward distance',
    min: 1,
    max: 1000,
    source: 'bfq_back_penalty = 2',
  },
  {
    name: 'slice_idle',
    kind: 'number',
    default: 8,
    unit: 'ms',
    meaning:
      'how long the device is kept idle waiting for the next request of an emptied sync queue (0 = never idle)',
    min: 0,
    max: 10_000,
    source: 'bfq_slice_idle = NSEC_PER_SEC / 125',
  },
  {
    name: 'timeout_sync',
    kind: 'int',
    default: 125,
    unit: 'ms',
    meaning: 'budget timeout: longest service slot of a queue (×30 while weight-raised)',
    min: 1,
    max: 600_000,
    source: 'bfq_timeout = HZ / 8',
  },
  {
    name: 'max_budget',
    kind: 'int',
    default: 0,
    unit: 'sectors',
    meaning:
      'largest budget of a queue; 0 = automatic: sectors the device moves in timeout_sync at its estimated peak rate',
    min: 0,
    max: 1 << 30,
    source: 'bfq_user_max_budget = 0',
  },
  {
    name: 'strict_guarantees',
    kind: 'bool',
    default: false,
    unit: '',
    meaning:
      'always idle for an emptied sync queue and keep one request at a time in the device (raises slice_idle to ≥ 8 ms)',
  },
  {
    name: 'low_latency',
    kind: 'bool',
    default: true,
    unit: '',
    meaning:
      'weight-raise interactive and soft real-time queues (and cap tags for async I/O harder meanwhile)',
  },
]

/**
 * Fixed parameters of block/bfq-iosched.c and bfq-iosched.h (not in sysfs). Times in ns, sizes
 * in 512-byte sectors, rates in sectors per second.
 */
export const K = {
  /** bfq_default_max_budget: max budget until enough budgets were assigned for statistics. */
  defaultMaxBudget: 16 * 1024,
  /** bfq_stats_min_budgets: budgets assigned (filtered count) before the auto max budget is used. */
  statsMinBudgets: 194,
  /** bfq_async_charge_factor: async service is charged this many times. */
  asyncChargeFactor: 3,
  /** BFQ_MIN_TT: think time below this is "immediate"; also the short idle of seeky queues. */
  minTt: 2 * MS,
  /** bfq_arm_slice_timer: a weight-raised queue is idled for at least this long. */
  wrMinIdle: 20 * MS,
  /** BFQQ_SEEK_THR: a request farther than this from the previous one is seeky. */
  seekThr: 8 * 100,
  /** BFQQ_SECT_THR_NONROT: on non-rotational devices only requests smaller than this are seeky. */
  sectThrNonrot: 2 * 32,
  /** BFQQ_SEEKY: more than this many seeky requests among the last 32. */
  seekyCount: 19,
  /** BFQ_HW_QUEUE_THRESHOLD / BFQ_HW_QUEUE_SAMPLES: detection of command queueing (hw_tag). */
  hwQueueThreshold: 3,
  hwQueueSamples: 32,
  /** BFQ_RATE_MIN_SAMPLES / BFQ_RATE_MIN_INTERVAL / BFQ_RATE_REF_INTERVAL: peak-rate estimator. */
  rateMinSamples: 32,
  rateMinInterval: 300 * MS,
  rateRefInterval: SECOND,
  /** Rates above this (20 sectors/µs) are rejected as measurement errors. */
  rateMax: 20e6,
  /** A dispatch after the device sat empty this long closes the observation interval. */
  rateIdleReset: 100 * MS,
  /**
   * ref_rate[2] = {14000, 33000} in (sectors/µs) << 16: the reference peak rates of a rotational
   * and a non-rotational device (≈ 104 and 246 MiB/s), slightly under the measured ones.
   */
  refRate: [(14000 / 65536) * 1e6, (33000 / 65536) * 1e6] as const,
  /** ref_wr_duration[2]: interactive raising on the reference devices (7 s and 2.5 s; "actually 8 and 3"). */
  refWrDuration: [7000 * MS, 2500 * MS] as const,
  /** Clamp of the interactive weight-raising duration. */
  wrDurationMin: 3000 * MS,
  wrDurationMax: 25000 * MS,
  /** max_service_from_wr: interactive raising ends after this much service. */
  maxServiceFromWr: 120_000,
  /** bfq_wr_coeff, BFQ_SOFTRT_WEIGHT_FACTOR. */
  wrCoeff: 30,
  softrtWeightFactor: 100,
  /** bfq_wr_rt_max_time: soft real-time raising period. */
  wrRtMaxTime: 300 * MS,
  /** bfq_wr_min_idle_time: a queue idle for longer than this becomes busy as interactive. */
  wrMinIdleTime: 2000 * MS,
  /** bfq_wr_min_inter_arr_async: an async request after this long a pause raises a busy async queue. */
  wrMinInterArrAsync: 500 * MS,
  /** bfq_wr_max_softrt_rate: highest rate of a soft real-time application, sectors/s. */
  wrMaxSoftrtRate: 7000,
  /** bfq_update_io_intensity: the observation window of idle against I/O time (halved beyond it). */
  ioIntensityWindow: 200 * MS,
  /** bfq_add_request: the inject limit is reset this long after its last decrease or reset. */
  injectResetInterval: 1000 * MS,
  /** bfq_add_request: a first request is timed only this long after the last decrease. */
  injectSampleDelay: 10 * MS,
  /** bfq_update_has_short_ttime: a change to a short think time resets the limit only after this. */
  injectShortResetDelay: 100 * MS,
  /** bfq_check_waker: a completion of another queue this recent may have woken the queue. */
  wakerMaxDelay: 4 * MS,
  /** bfq_check_waker: sightings needed to confirm a waker, within this many slice_idle of the first. */
  wakerDetections: 3,
  wakerDetectionSlices: 128,
  /** bfq_large_burst_thresh / bfq_burst_interval: queues created this close are a large burst. */
  largeBurstThresh: 8,
  burstInterval: 180 * MS,
  /** A queue idle this much longer than an interactive one leaves its burst. */
  burstForget: 10 * SECOND,
  /** BFQ_CL_IDLE_TIMEOUT: the idle class is served at least this often. */
  classIdleTimeout: 200 * MS,
  /** Think-time samples needed before the mean is trusted (bfq_sample_valid). */
  ttimeValidSamples: 80,
  /** Weight of BE/4 … (IOPRIO_BE_NR − ioprio) × BFQ_WEIGHT_CONVERSION_COEFF. */
  weightCoeff: 10,
  /** The default weight (BE/4): only queues at it are weight-raised (entity.new_weight == 40). */
  defaultWeight: 40,
  /** bfq_timeout as a constant: bfq_bfqq_charge_time scales by it, not by the tunable. */
  chargeTimeout: 125 * MS,
  /** WFQ_SERVICE_SHIFT: virtual time is service << 22 / weight (integer, as the kernel). */
  serviceScale: 1 << 22,
} as const

/** B-WF2Q+ weight of an I/O priority level (0 = highest). */
export const ioprioToWeight = (level: number): number => (8 - level) * K.weightCoeff
