import type { Rng } from '../sim/rng'

/**
 * How a flash device's timings vary from page to page and command to command — the physical
 * reasons a real device's latency CDF has a slope and a tail where a constant-time model draws a
 * spike. Four mechanisms, each off unless its parameter is set:
 *
 *  - Page types (read sensing). A multi-level cell stores its bits on pages of different types
 *    (MLC: LSB and MSB pages; TLC: LSB, CSB, MSB) that share a word line. Reading a page applies
 *    one or more read-reference voltages and senses the bit lines once per voltage: with Gray
 *    coding an MLC LSB page needs one sensing and an MSB page two; a TLC page needs 1, 2 or 4
 *    (the 1-2-4 code) or 2, 3 or 2 (the 2-3-2 code). So tR = fixed part + sensings × senseUs.
 *    The fixed part is set so that the mean over the page types is the configured `readUs`,
 *    keeping every mean calibrated against it. A page's type is fixed where it was programmed; the
 *    model takes it from a hash of the logical page number and the run's seed, so the same page
 *    reads in the same time throughout a run and the seed decides the layout.
 *  - Page types (programming). On planar MLC the LSB page programs in a fraction of the MSB
 *    page's time (reference §10: 500 vs 1300 µs). Page types are programmed in turn along each
 *    unit's write frontier; `programSpreadPct` spreads the first and last type ± that share
 *    around `programUs`, the types evenly between (mean kept). 3D TLC programs a word line's
 *    pages at once (one-shot), so its spread is 0.
 *  - Read retry. When a page's raw bit errors exceed what the ECC corrects at the default read
 *    voltages, the controller reads it again with shifted voltages (the chip's read-retry table),
 *    each step a further sensing and transfer for decoding. Each page read needs a retry with
 *    probability `readRetryPct`, and each retry a further one with the same probability, up to
 *    `readRetryMax` steps — drawn from the device's seeded stream.
 *  - Command jitter. The controller's firmware handles each command between its other work
 *    (interrupts, FTL housekeeping, other queues); the wait for it is modelled as an exponential
 *    delay with mean `commandJitterUs` on top of the fixed command overhead — the memoryless
 *    distribution of a wait whose only known property is its mean.
 *
 * Nothing here allocates after construction; draws come from the device's forked Rng.
 */

/** Read-reference voltages (sensings) per page type, by coding. */
export const READ_SENSING: Readonly<Record<string, readonly number[]>> = {
  uniform: [1],
  '1-2': [1, 2],
  '1-2-4': [1, 2, 4],
  '2-3-2': [2, 3, 2],
}

export interface FlashVariabilityConfig {
  readonly readUs: number
  readonly programUs: number
  readonly readSensing: string
  readonly senseUs: number
  readonly programSpreadPct: number
  readonly readRetryPct: number
  readonly readRetryMax: number
  readonly commandJitterUs: number
}

/** The shortest page read the sensing model gives (it must stay ≥ 0): for validation. */
export function fastestReadUs(readUs: number, coding: string, senseUs: number): number {
  const s = READ_SENSING[coding] ?? [1]
  const mean = s.reduce((a, b) => a + b, 0) / s.length
  return readUs + senseUs * (Math.min(...s) - mean)
}

export class FlashVariability {
  /** Page reads take different times by page type. */
  readonly typedReads: boolean
  /** Programs take different times by page type. */
  readonly typedPrograms: boolean
  /** Some read needs a retry now and then. */
  readonly retries: boolean
  /** Commands wait a random time for the firmware. */
  readonly jitter: boolean
  /** Any of the above. */
  readonly on: boolean
  private readonly readNsByType: Float64Array
  private readonly progFactorByType: Float64Array
  private readonly types: number
  private readonly progTypes: number
  private readonly salt: number
  private readonly retryThreshold: number
  private readonly retryMax: number
  private readonly jitterMeanNs: number
  private lastPage = -1
  private lastReadNs = 0

  constructor(
    cfg: FlashVariabilityConfig,
    private readonly rng: Rng,
  ) {
    const senses = READ_SENSING[cfg.readSensing] ?? READ_SENSING.uniform
    const mean = senses.reduce((a, b) => a + b, 0) / senses.length
    this.types = senses.length
    this.readNsByType = new Float64Array(this.types)
    for (let i = 0; i < this.types; i++)
      this.readNsByType[i] = Math.max(0, (cfg.readUs + cfg.senseUs * (senses[i] - mean)) * 1000)
    this.typedReads = this.types > 1 && cfg.senseUs > 0
    // Program spread: types evenly from −s to +s around programUs.
    const s = cfg.programSpreadPct / 100
    this.progTypes = this.types
    this.progFactorByType = new Float64Array(this.types)
    for (let i = 0; i < this.types; i++)
      this.progFactorByType[i] = this.types > 1 ? 1 + s * ((2 * i) / (this.types - 1) - 1) : 1
    this.typedPrograms = this.types > 1 && s > 0
    this.salt = rng.fork('page-types').u32()
    this.retryThreshold = Math.round((cfg.readRetryPct / 100) * 0x1_0000_0000)
    this.retryMax = cfg.readRetryMax
    this.retries = this.retryThreshold > 0 && this.retryMax > 0
    this.jitterMeanNs = cfg.commandJitterUs * 1000
    this.jitter = this.jitterMeanNs > 0
    this.on = this.typedReads || this.typedPrograms || this.retries || this.jitter
  }

  /** The page type of logical page `page` (0 … types−1): where it was programmed, fixed by the seed. */
  typeOf(page: number): number {
    let h = Math.imul((page >>> 0) ^ this.salt, 0x9e3779b1)
    if (page >= 0x1_0000_0000) h ^= Math.floor(page / 0x1_0000_0000)
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b)
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
    // the hash as an unsigned 32-bit number modulo the types: `u % types` compiles to a float
    // remainder, a library call, on every page read. Exact: u / n never rounds up to the next
    // integer below 2^32 (it stays at least 1/n away).
    const u = (h ^ (h >>> 16)) >>> 0
    const n = this.types
    return u - Math.floor(u / n) * n
  }

  /** tR of logical page `page`, ns (the last page's kept: a read asks for its first page twice). */
  readNs(page: number): number {
    if (page === this.lastPage) return this.lastReadNs
    this.lastPage = page
    return (this.lastReadNs = this.readNsByType[this.typeOf(page)])
  }

  /** Read-retry steps for one page read: 0 most of the time. */
  drawRetries(): number {
    let n = 0
    while (n < this.retryMax && this.rng.u32() < this.retryThreshold) n++
    return n
  }

  /** The firmware's extra delay for one command, ns. */
  drawJitterNs(): number {
    return -this.jitterMeanNs * Math.log(1 - this.rng.next())
  }

  /**
   * The mean program-time factor over `k` pages (possibly fractional: packed small writes)
   * starting at position `frontier` of a unit's write frontier, whose pages cycle through the
   * page types in order.
   */
  programFactor(frontier: number, k: number): number {
    if (!this.typedPrograms || k <= 0) return 1
    const n = this.progTypes
    let pos = frontier
    let left = k
    let acc = 0
    while (left > 1e-9) {
      const j = Math.floor(pos)
      const take = Math.min(left, j + 1 - pos)
      acc += take * this.progFactorByType[j % n]
      pos += take
      left -= take
    }
    return acc / k
  }
}
