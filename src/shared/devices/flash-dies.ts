import type { SimTime } from '../sim/time'
import type { FlashVariability } from './flash-variability'
import { readOffer, type FlashPath } from './flash-parts'

/**
 * Where a flash device's pages are read and programmed (flash.ts; reference §10: pages striped
 * over channels × dies, tR/tPROG/tBERS, the channel transfers): each die (unit) and each channel
 * is a resource with a busy-until time, and a die's share of a command is placed on it in closed
 * form — when the die is free, when its pages are sensed or programmed, when they cross its
 * channel. Unit u is on channel u mod channels. With a write buffer and `readsFirst`, buffered
 * writes' programs are background work that reads overtake (readFirst). All state is in typed
 * arrays: no allocation per command.
 */
export class FlashDies {
  readonly units: number
  private readonly channels: number
  private readonly unitFree: Float64Array
  private readonly chanFree: Float64Array
  /** The read being placed: its `devParts`, where its path's times go (null: the run keeps none). */
  readTimes: Float64Array | null = null
  /** End of the latest die's work offered for the read being placed (readOffer). */
  dieEnd = -Infinity
  /** The write being placed is split into parts along this path (null: the run keeps none). */
  tracing: FlashPath | null = null
  /** Native (not SLC-mode) program time of the write being placed, without GC work; 0 in SLC mode. */
  nativeProg = 0
  /** GC work per programmed page of the write being placed (0: not collecting). */
  gcNs = 0
  private readonly varyPrograms: boolean
  /** Each unit's write frontier, in pages programmed (page types cycle along it). */
  private readonly frontier: Float64Array
  // Reads first: with a write buffer, buffered writes' programs are background work that reads
  // overtake (see readFirst).
  private readonly readsFirst: boolean
  /** End of the reads on each unit. */
  private readonly fgFree: Float64Array
  /** Start of the background program in progress on each unit (programs run back to back from it). */
  private readonly bgPhase: Float64Array
  /** Duration of one background page program on each unit (the latest). */
  private readonly bgOp: Float64Array
  /** End of the reads' transfers on each channel. */
  private readonly chanFg: Float64Array

  constructor(
    channels: number,
    diesPerChannel: number,
    /** Page read (sensing) time, ns. */
    private readonly tR: number,
    /** Block erase time, ns. */
    private readonly tErase: number,
    /** Channel time for one full page, ns. */
    private readonly tXPage: number,
    readsFirst: boolean,
    private readonly vary: FlashVariability,
  ) {
    this.units = channels * diesPerChannel
    this.channels = channels
    this.unitFree = new Float64Array(this.units)
    this.chanFree = new Float64Array(this.channels)
    this.readsFirst = readsFirst
    const n = this.readsFirst ? this.units : 0
    this.fgFree = new Float64Array(n)
    this.bgPhase = new Float64Array(n)
    this.bgOp = new Float64Array(n)
    this.chanFg = new Float64Array(this.readsFirst ? this.channels : 0)
    this.varyPrograms = vary.typedPrograms
    this.frontier = new Float64Array(this.varyPrograms ? this.units : 0)
  }

  /** Unit u reads k pages from time t; returns when its last page has crossed the channel. */
  readOn(u: number, k: number, t: SimTime, tX: number): number {
    const c = u % this.channels
    if (this.readsFirst) return this.readFirst(u, c, t, tX, k, this.tR, k * this.tR, 0, 0)
    const s = Math.max(t, this.unitFree[u])
    const xs = Math.max(s + this.tR, this.chanFree[c])
    this.chanFree[c] = xs + k * tX
    const end = Math.max(xs + k * tX, s + k * this.tR + tX)
    this.unitFree[u] = end
    if (this.readTimes !== null && end > this.dieEnd) this.offer(s, this.tR, xs, k * tX, end, end)
    return end
  }

  /**
   * As readOn, with variability: the pages (logical `page`, `page + units`, …) read by their page
   * types' times, and each read-retry step senses a page again and sends it over the channel again
   * for decoding.
   */
  readOnVaried(u: number, k: number, t: SimTime, tX: number, page: number): number {
    const v = this.vary
    const c = u % this.channels
    let first = this.tR
    let sensed = 0
    let again = 0
    let againX = 0
    for (let i = 0; i < k; i++) {
      const tr = v.typedReads ? v.readNs(page + i * this.units) : this.tR
      if (i === 0) first = tr
      sensed += tr
      if (v.retries) {
        const n = v.drawRetries()
        again += n * (tr + tX)
        againX += n * tX
      }
    }
    if (this.readsFirst) return this.readFirst(u, c, t, tX, k, first, sensed, again, againX)
    const s = Math.max(t, this.unitFree[u])
    const xs = Math.max(s + first, this.chanFree[c])
    this.chanFree[c] = xs + k * tX + againX
    const end = Math.max(xs + k * tX, s + sensed + tX) + again
    this.unitFree[u] = end
    if (this.readTimes !== null && end > this.dieEnd) this.offer(s, first, xs, k * tX, end - again, end)
    return end
  }

  /** A die's work for the read being placed that ends after all offered before it (readOffer). */
  private offer(s: number, first: number, xs: number, kX: number, sensed: number, end: number): void {
    this.dieEnd = end
    readOffer(this.readTimes!, s, first, xs, kX, sensed, end)
  }

  /**
   * A read on a unit whose buffered writes' programs are background work: it waits for the reads
   * before it and for the background program in progress (not for the backlog behind it), takes
   * the die, and the backlog resumes after it. Background page transfers on the channel are taken
   * to interleave with reads' transfers (reads keep their own channel reservation).
   */
  private readFirst(
    u: number,
    c: number,
    t: SimTime,
    tX: number,
    k: number,
    first: number,
    sensed: number,
    again: number,
    againX: number,
  ): number {
    const s0 = Math.max(t, this.fgFree[u])
    const backlogEnd = this.unitFree[u]
    const phase = this.bgPhase[u]
    let s = s0
    if (backlogEnd > s0 && s0 >= phase) {
      // background programs run back to back from `phase`: the one in progress ends at a multiple
      const op = this.bgOp[u]
      s = Math.min(backlogEnd, op > 0 ? phase + Math.ceil((s0 - phase) / op) * op : backlogEnd)
    }
    const xs = Math.max(s + first, this.chanFg[c])
    this.chanFg[c] = xs + k * tX + againX
    const end = Math.max(xs + k * tX, s + sensed + tX) + again
    if (this.readTimes !== null && end > this.dieEnd) this.offer(s, first, xs, k * tX, end - again, end)
    this.fgFree[u] = end
    if (backlogEnd > s) {
      // the backlog not yet begun moves back by the time the read holds the die
      const resume = Math.max(phase, s)
      const shift = Math.max(0, end - resume)
      this.unitFree[u] = backlogEnd + shift
      this.bgPhase[u] = resume + shift
    } else this.unitFree[u] = Math.max(backlogEnd, end)
    return end
  }

  /**
   * Unit u programs k pages, the first in the controller at `ready`, the next every `gap`: read
   * back `rb` old pages (on-die), take each page over the channel, program it (cache-program
   * overlaps the next page's transfer), plus `er` block erases. `tProgAll`: a page's program time
   * (`gcNs` of it garbage collection's), whose native share (`nativeProg`) page types vary.
   */
  programOn(
    u: number,
    k: number,
    rb: number,
    er: number,
    ready: number,
    gap: number,
    tProgAll: number,
  ): number {
    const c = u % this.channels
    const tX = this.tXPage
    let tProg = tProgAll
    if (this.varyPrograms) {
      // this unit's next pages along its frontier: their page types' mean program time
      tProg += this.nativeProg * (this.vary.programFactor(this.frontier[u], k) - 1)
      this.frontier[u] += k
    }
    let s0 = Math.max(ready, this.unitFree[u])
    if (this.readsFirst) {
      s0 = Math.max(s0, this.fgFree[u])
      if (s0 > this.unitFree[u]) this.bgPhase[u] = s0 // the unit was idle: a new busy period
      this.bgOp[u] = tProg + (rb * this.tR + er * this.tErase) / Math.max(1, k)
    }
    const s = s0 + rb * this.tR
    const xs = Math.max(s, this.chanFree[c])
    this.chanFree[c] = xs + k * tX
    const step = Math.max(tProg, tX, gap)
    const end = xs + tX + (k - 1) * step + tProg + er * this.tErase
    this.unitFree[u] = end
    if (this.tracing !== null && end > this.tracing.end)
      this.tracing.program(ready, s0, s, xs, tX, k, step, tProg, this.gcNs, er * this.tErase, end)
    return end
  }
}
