import type { ParamSpec } from '../util/params'

/**
 * The CPU time a scheduler's own work takes per request — its insert, dispatch and completion
 * hooks under its lock, beyond what the block layer does without a scheduler ("none") — charged to
 * the process that submits the request. On a fast device with few cores this, not the device,
 * bounds the IOPS.
 *
 * Measured, not guessed: the ICPE 2024 study "BFQ, Multiqueue-Deadline, or Kyber? Performance
 * Characterization of Linux Storage Schedulers in the NVMe Era" (Ren, Doekemeijer, Tehrany,
 * Trivedi; artifact stonet-research/icpe24_io_scheduler_study_artifact, Fig. 3): Linux 6.3.8, one
 * Samsung 980 PRO, all fio jobs pinned to one core, 16 processes of 4 KiB random reads at QD1
 * (io_uring, direct; dispatch in the submitting context). The core is saturated there (16 × the
 * 14.6 k IOPS of one process would be 233 k), so 1 / IOPS is the CPU time per I/O: none 162 149
 * IOPS = 6.17 µs, mq-deadline 146 792 = 6.81 µs, kyber 144 088 = 6.94 µs, bfq 125 865 = 7.95 µs.
 * The differences are the schedulers' costs. (With 256 processes they are 0.73, 0.88 and 2.20 µs:
 * BFQ's grows with its number of queues; the 16-process figures are used.) The measurement gives
 * only the sum of the three hooks, so it is one number, charged when the request is made: with
 * synchronous dispatch the submitter runs insert and dispatch, and blk-mq completes a request on
 * the CPU that submitted it (QUEUE_FLAG_SAME_COMP). It is charged before the submitter's own run
 * of the queue hands the request to the driver (BlockQueue.plug), as insert and dispatch come
 * before queue_rq; the completion hook's share runs before the submitter is woken, so at QD1 it
 * too lies between one request and the next. The host's `schedCpuScale` scales it for another
 * CPU. The legacy and textbook schedulers have no such measurement: 0.
 */
const cost = (us: number, derivation: string): ParamSpec => ({
  name: 'cpu_per_request',
  kind: 'number',
  default: us,
  unit: 'µs',
  meaning: 'CPU time of the scheduler’s insert, dispatch and completion work per request, beyond none’s',
  min: 0,
  max: 1000,
  source: `ICPE 2024 scheduler study, artifact Fig. 3 (one core, 16 × QD1 4 KiB randread, Linux 6.3.8): ${derivation}`,
})

export const SCHEDULER_CPU_COST = {
  'mq-deadline': cost(0.65, '1/146 792 − 1/162 149 IOPS = 6.81 − 6.17 µs'),
  kyber: cost(0.77, '1/144 088 − 1/162 149 IOPS = 6.94 − 6.17 µs'),
  bfq: cost(1.78, '1/125 865 − 1/162 149 IOPS = 7.95 − 6.17 µs'),
} as const
