import type { SimTime } from '../../sim/time'
import { IOPRIO_BE, IOPRIO_IDLE } from '../../block/types'
import type { IoContext, Request } from '../../block/types'
import { SAMPLES_VALID, SEEKY_SECTORS } from './tunables'
import { CfqQueue } from './queue'
import { DoubleRuns } from '../../util/double-runs'

// A context's statistics, in its run of STATS doubles.
const LAST_END = 0
const LAST_POS = 1
const TTIME_SAMPLES = 2
const TTIME_TOTAL = 3
const TTIME_MEAN = 4
const SEEK_SAMPLES = 5
const SEEK_TOTAL = 6
const SEEK_MEAN = 7
const STATS = 8

/**
 * cfq_io_context (v3): what CFQ remembers about one process — its sync queue and two decaying
 * averages, think time and seek distance, that decide whether idling for it pays. The averages are
 * the kernel's fixed point: a sample weighs 256, old weight decays by 7/8, so `samples` climbs
 * 32, 60, 84 … and the statistics count as valid above 80, i.e. from the third request on.
 *
 * The context is its sync queue as well (one object, not two): each request of a process reads
 * both, and with a thousand processes each was a cold line of its own. The kernel creates the
 * queue at the process's first sync request, with the class of that moment (cfq_get_queue):
 * `openSyncQueue` does that here, and until then `syncQueue` is null and the queue's fields unused.
 * The statistics lie in a run of the scheduler's DoubleRuns (util/double-runs.ts), a line, not in
 * fields each boxed apart.
 */
export class CfqIoContext extends CfqQueue {
  /** The sync queue exists (`openSyncQueue` ran). */
  private hasSyncQueue = false
  /** Where its statistics start in `stats.data` (STATS doubles). */
  private readonly statsAt: number

  constructor(
    readonly ctx: IoContext,
    now: SimTime,
    private readonly stats: DoubleRuns,
  ) {
    super(true, IOPRIO_BE, 4, null)
    this.cic = this
    this.statsAt = stats.open()
    stats.data[this.statsAt + LAST_END] = now
  }

  /** Its sync queue, or null before its first sync request. */
  get syncQueue(): CfqQueue | null {
    return this.hasSyncQueue ? this : null
  }

  /** The sync queue comes into being, in class `cls` at level `lvl` (as `new CfqQueue` would). */
  openSyncQueue(cls: number, lvl: number): CfqQueue {
    this.hasSyncQueue = true
    this.ioClass = cls
    this.prio = lvl
    this.idleWindow = cls !== IOPRIO_IDLE
    return this
  }

  /** Last completion of one of its sync requests (the kernel starts it at allocation). */
  get lastEndRequest(): SimTime {
    return this.stats.data[this.statsAt + LAST_END]
  }

  set lastEndRequest(t: SimTime) {
    this.stats.data[this.statsAt + LAST_END] = t
  }

  /** End sector of its last request, where its next one would start if sequential. */
  set lastRequestPos(sector: number) {
    this.stats.data[this.statsAt + LAST_POS] = sector
  }

  get ttimeMean(): SimTime {
    return this.stats.data[this.statsAt + TTIME_MEAN]
  }

  get seekMean(): number {
    return this.stats.data[this.statsAt + SEEK_MEAN]
  }

  /** cfq_update_io_thinktime: time since its last sync completion, capped at twice slice_idle. */
  updateThinkTime(now: SimTime, sliceIdle: SimTime): void {
    const d = this.stats.data
    const at = this.statsAt
    const ttime = Math.min(now - d[at + LAST_END], 2 * sliceIdle)
    const samples = Math.floor((7 * d[at + TTIME_SAMPLES] + 256) / 8)
    const total = Math.floor((7 * d[at + TTIME_TOTAL] + 256 * ttime) / 8)
    d[at + TTIME_SAMPLES] = samples
    d[at + TTIME_TOTAL] = total
    d[at + TTIME_MEAN] = Math.floor((total + 128) / samples)
  }

  /**
   * cfq_update_io_seektime: distance from its last request's end, clipped so one odd far request
   * does not make a sequential reader look seeky (looser while the average is young).
   */
  updateSeek(rq: Request): void {
    const d = this.stats.data
    const at = this.statsAt
    const samples0 = d[at + SEEK_SAMPLES]
    let dist = Math.abs(rq.sector - d[at + LAST_POS])
    const slack = samples0 <= 60 ? 2 * 1024 * 1024 : 2 * 1024 * 64
    dist = Math.min(dist, d[at + SEEK_MEAN] * 4 + slack)
    const samples = Math.floor((7 * samples0 + 256) / 8)
    const total = Math.floor((7 * d[at + SEEK_TOTAL] + 256 * dist) / 8)
    d[at + SEEK_SAMPLES] = samples
    d[at + SEEK_TOTAL] = total
    d[at + SEEK_MEAN] = Math.floor((total + Math.floor(samples / 2)) / samples)
  }

  get thinkTimeValid(): boolean {
    return this.stats.data[this.statsAt + TTIME_SAMPLES] > SAMPLES_VALID
  }

  get seekValid(): boolean {
    return this.stats.data[this.statsAt + SEEK_SAMPLES] > SAMPLES_VALID
  }

  /** CIC_SEEKY: the kernel tests the mean without asking whether it is valid yet. */
  get seeky(): boolean {
    return this.seekMean > SEEKY_SECTORS
  }
}

/** Every context's statistics (STATS doubles each). */
export const contextStats = (): DoubleRuns => new DoubleRuns(STATS)
