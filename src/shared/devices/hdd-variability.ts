import type { Rng } from '../sim/rng'

/**
 * How a rotating disk's service times vary beyond what seek distance and rotational position
 * already decide. Three mechanisms, each off unless its parameter is set, drawn from the device's
 * seeded stream:
 *
 *  - Seek time spread. A seek ends when the servo has the head inside the track's on-track window
 *    and keeps it there (settling); how long the residual vibration takes to die out differs from
 *    seek to seek. Each seek takes its nominal time (the fitted seek curve, the population's
 *    typical figure) scaled by a uniform factor in [1 − s, 1 + s], so the mean stays the curve's.
 *    Drive specifications give the bound: e.g. the Hitachi Deskstar 7K1000.C specification
 *    (§4.5.2.1) gives an average read seek of 8.5 ms typical and 9.2 ms max, "Max" being the
 *    largest value measured on any drive over the full range of environment and voltage: 8 %.
 *    Because the platter keeps turning, a seek that settles a little late can miss its sector and
 *    wait most of a revolution — the tail this produces is rotational, as on a real disk.
 *  - Seek errors. A positioning error found after the seek is recovered by seeking again (the
 *    drive re-settles: one more short seek) — specified as a rate per seek, e.g. "less than 1 in
 *    10^7 seeks" (Seagate Barracuda 9 product manual, §5.0), "no more than 10 times in 10^7 seek
 *    operations" (Fujitsu MHL/MHM product manual, §1.8).
 *  - Recovered read errors. A sector the on-the-fly ECC cannot correct is re-read on a later
 *    revolution (the drive's error-recovery procedure, with head offsets); each retry costs one
 *    revolution. Specified per bit read: e.g. "less than 10 errors in 10^11 bits transferred"
 *    (Seagate Barracuda 9), "less than 10 errors in 10^12 bits" (Seagate Cheetah 15K.5).
 */
export interface HddVariabilityConfig {
  /** ± share of each seek's nominal time, %. */
  readonly seekSpreadPct: number
  /** Seek errors per seek. */
  readonly seekErrorRate: number
  /** Recovered read errors per bit read. */
  readonly readRetryRate: number
}

export class HddVariability {
  readonly on: boolean
  private readonly spread: number
  private readonly seekErr: number
  private readonly bitErr: number

  constructor(
    cfg: HddVariabilityConfig,
    private readonly rng: Rng,
  ) {
    this.spread = cfg.seekSpreadPct / 100
    this.seekErr = cfg.seekErrorRate
    this.bitErr = cfg.readRetryRate
    this.on = this.spread > 0 || this.seekErr > 0 || this.bitErr > 0
  }

  /**
   * The time of one seek of nominal `seekNs` (> 0): spread, plus a re-seek of `reseekNs` for each
   * positioning error.
   */
  seekNs(seekNs: number, reseekNs: number): number {
    let t = seekNs
    if (this.spread > 0) t *= 1 + this.spread * (2 * this.rng.next() - 1)
    if (this.seekErr > 0) while (this.rng.next() < this.seekErr) t += reseekNs
    return t
  }

  /** Revolutions lost to recovered read errors while reading `sectors` sectors. */
  readRetries(sectors: number): number {
    if (this.bitErr <= 0) return 0
    // errors in this transfer: Poisson with mean bits × rate (drawn by inversion; almost always 0)
    const mean = sectors * 4096 * this.bitErr
    let u = this.rng.next()
    let p = Math.exp(-mean)
    let n = 0
    while (u > p && n < 16) {
      u -= p
      n++
      p *= mean / n
    }
    return n
  }
}
