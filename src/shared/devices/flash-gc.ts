import type { FlashConfig } from './flash'

/**
 * Garbage collection in a flash device's FTL (flash.ts, `gc`): once free space falls below the
 * threshold, each programmed page also pays for moving valid pages and erasing, collected back as
 * fast as it is consumed (the steady state). The cost follows the greedy-GC approximation from the
 * over-provisioning (greedyVictimValidFraction), discounted for sequential writes, whose victim
 * blocks hold little valid data. State in pages.
 */
export class FlashGc {
  private freePages: number
  private readonly thresholdPages: number
  /** Valid fraction of a GC victim under uniformly random overwrites (greedy GC). */
  private readonly valid: number
  /** Share of recent writes that continued the previous one (their victims hold little valid data). */
  private seqShare = 0
  private lastWriteEnd = -1
  /** Extra ns of GC work per programmed page while collecting (exposed for tests). */
  perPageNs = 0
  private readonly pagesPerBlock: number

  constructor(
    cfg: FlashConfig,
    userPages: number,
    /** Page read, program and block erase times, ns. */
    private readonly tR: number,
    private readonly tProg: number,
    private readonly tErase: number,
  ) {
    const physPages = userPages * (1 + cfg.overProvisioningPct / 100)
    this.freePages = (physPages * cfg.initialFreePct) / 100
    this.thresholdPages = (physPages * cfg.gcThresholdPct) / 100
    this.valid = greedyVictimValidFraction(cfg.overProvisioningPct / 100)
    this.pagesPerBlock = cfg.pagesPerBlock
  }

  /** A write of `np` pages over sectors [s, e): the GC work each of its pages pays, ns (0: none). */
  workNs(np: number, s: number, e: number): number {
    this.seqShare = 0.9 * this.seqShare + (s === this.lastWriteEnd ? 0.1 : 0)
    this.lastWriteEnd = e
    this.freePages -= np
    if (this.freePages >= this.thresholdPages) return 0
    this.freePages += np // collected back as fast as it is consumed: the steady state
    const v = this.valid * (1 - this.seqShare)
    this.perPageNs = (v / (1 - v)) * (this.tR + this.tProg) + this.tErase / ((1 - v) * this.pagesPerBlock)
    return this.perPageNs
  }
}

/**
 * Valid fraction of the victim block under greedy garbage collection with uniformly random
 * overwrites, from the common approximation write amplification ≈ (1 + op) / (2·op)
 * (op = over-provisioning as a fraction of user space): v = 1 − 1/WA.
 */
export function greedyVictimValidFraction(op: number): number {
  if (op <= 0) return 0.99
  const wa = (1 + op) / (2 * op)
  return Math.min(0.99, Math.max(0, 1 - 1 / wa))
}
