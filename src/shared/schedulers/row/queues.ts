import type { SimTime } from '../../sim/time'
import { RequestFifo } from '../../block/fifo'
import { IOPRIO_IDLE, IOPRIO_RT, READ } from '../../block/types'
import type { Request } from '../../block/types'

/**
 * ROW's seven queues. The ids follow the 2014 priority order (enum row_queue_prio), so a class
 * is a contiguous range of ids: HIGH (RT) = [HIGH_READ, REG_READ), REG (BE) = [REG_READ,
 * LOW_READ), LOW (IDLE) = [LOW_READ, QUEUES).
 */
export const HIGH_READ = 0
export const HIGH_SWRITE = 1
export const REG_READ = 2
export const REG_SWRITE = 3
export const REG_WRITE = 4
export const LOW_READ = 5
export const LOW_SWRITE = 6
export const QUEUES = 7

/** The 2012 first version's priority order, as queue ids. */
export const ORDER_2012: readonly number[] = [
  HIGH_READ,
  REG_READ,
  HIGH_SWRITE,
  REG_SWRITE,
  REG_WRITE,
  LOW_READ,
  LOW_SWRITE,
]

/** {idling, urgent} of each queue (row_queues_def[]; the quantum is a tunable). */
const IDLING: readonly boolean[] = [true, false, true, false, false, false, false]
const URGENT: readonly boolean[] = [true, false, true, false, false, false, false]
/** Class of each queue: 0 HIGH (RT), 1 REG (BE and none), 2 LOW (IDLE). */
const CLASS: readonly number[] = [0, 0, 1, 1, 1, 2, 2]
export const QUEUE_NAMES: readonly string[] = [
  'HIGH_READ',
  'HIGH_SWRITE',
  'REG_READ',
  'REG_SWRITE',
  'REG_WRITE',
  'LOW_READ',
  'LOW_SWRITE',
]

/** One ROW queue: a plain FIFO plus its round-robin and idling state. */
export class RowQueue {
  readonly fifo = new RequestFifo()
  readonly idling: boolean
  readonly urgent: boolean
  readonly cls: number
  /** Requests dispatched from it in the current cycle (nr_dispatched). */
  dispatched = 0
  /** Its last two requests arrived less than rd_idle_data_freq apart (read queues only). */
  beginIdling = false
  lastInsert: SimTime = -Infinity

  constructor(
    readonly id: number,
    readonly quantum: number,
  ) {
    this.idling = IDLING[id]
    this.urgent = URGENT[id]
    this.cls = CLASS[id]
  }

  /** Record a request's arrival: idle on this queue later only if requests come often. */
  noteArrival(now: SimTime, freq: SimTime): void {
    this.beginIdling = now - this.lastInsert < freq
    this.lastInsert = now
  }
}

/**
 * row_get_queue_prio (2014): the class picks HIGH, REG or LOW, the direction and sync flag pick
 * the queue. An async write is always REG_WRITE (the kernel logs "How???" for RT/IDLE ones).
 */
export function queueFor(rq: Request): number {
  const write = rq.op !== READ
  if (write && !rq.sync) return REG_WRITE
  const base = rq.ioClass === IOPRIO_RT ? HIGH_READ : rq.ioClass === IOPRIO_IDLE ? LOW_READ : REG_READ
  return write ? base + 1 : base
}

/** get_queue_type (2012 first version): the class is ignored, only the REG queues are used. */
export function queueFor2012(rq: Request): number {
  if (rq.op === READ) return REG_READ
  return rq.sync ? REG_SWRITE : REG_WRITE
}
