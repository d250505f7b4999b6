import type { SimTime } from '../../sim/time'
import type { IoContext, Request } from '../../block/types'
import { SAMPLES_VALID, SEEKY_SECTORS } from './tunables'
import type { CfqQueue } from './queue'

/**
 * cfq_io_context (v3): what CFQ remembers about one process — its sync queue and two decaying
 * averages, think time and seek distance, that decide whether idling for it pays. The averages are
 * the kernel's fixed point: a sample weighs 256, old weight decays by 7/8, so `samples` climbs
 * 32, 60, 84 … and the statistics count as valid above 80, i.e. from the third request on.
 */
export class CfqIoContext {
  syncQueue: CfqQueue | null = null
  /** Last completion of one of its sync requests (the kernel starts it at allocation). */
  lastEndRequest: SimTime
  /** End sector of its last request, where its next one would start if sequential. */
  lastRequestPos = 0
  ttimeSamples = 0
  ttimeTotal = 0
  ttimeMean = 0
  seekSamples = 0
  seekTotal = 0
  seekMean = 0

  constructor(
    readonly ctx: IoContext,
    now: SimTime,
  ) {
    this.lastEndRequest = now
  }

  /** cfq_update_io_thinktime: time since its last sync completion, capped at twice slice_idle. */
  updateThinkTime(now: SimTime, sliceIdle: SimTime): void {
    const ttime = Math.min(now - this.lastEndRequest, 2 * sliceIdle)
    this.ttimeSamples = Math.floor((7 * this.ttimeSamples + 256) / 8)
    this.ttimeTotal = Math.floor((7 * this.ttimeTotal + 256 * ttime) / 8)
    this.ttimeMean = Math.floor((this.ttimeTotal + 128) / this.ttimeSamples)
  }

  /**
   * cfq_update_io_seektime: distance from its last request's end, clipped so one odd far request
   * does not make a sequential reader look seeky (looser while the average is young).
   */
  updateSeek(rq: Request): void {
    let d = Math.abs(rq.sector - this.lastRequestPos)
    const slack = this.seekSamples <= 60 ? 2 * 1024 * 1024 : 2 * 1024 * 64
    d = Math.min(d, this.seekMean * 4 + slack)
    this.seekSamples = Math.floor((7 * this.seekSamples + 256) / 8)
    this.seekTotal = Math.floor((7 * this.seekTotal + 256 * d) / 8)
    this.seekMean = Math.floor((this.seekTotal + Math.floor(this.seekSamples / 2)) / this.seekSamples)
  }

  get thinkTimeValid(): boolean {
    return this.ttimeSamples > SAMPLES_VALID
  }

  get seekValid(): boolean {
    return this.seekSamples > SAMPLES_VALID
  }

  /** CIC_SEEKY: the kernel tests the mean without asking whether it is valid yet. */
  get seeky(): boolean {
    return this.seekMean > SEEKY_SECTORS
  }
}
