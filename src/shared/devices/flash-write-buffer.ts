import type { SimTime } from '../sim/time'

/**
 * A flash device's DRAM write buffer (flash.ts, `writeBufferKiB`): a write is acknowledged once
 * buffered, and programmed behind its completion. A FIFO ring of (program end, pages) for the
 * writes not yet on the flash; no allocation per write.
 */
export class FlashWriteBuffer {
  private readonly end: Float64Array
  private readonly pages: Float64Array
  private head = 0
  private len = 0
  private used = 0

  constructor(
    /** Capacity in pages (0: no buffer). */
    readonly cap: number,
    /** Pages per FTL mapping unit (< 1 when units are smaller than pages). */
    pagesPerMap: number,
  ) {
    // Ring entries: one per buffered write, each at least one mapping unit.
    const ring = cap > 0 ? Math.ceil(cap / Math.min(1, pagesPerMap)) + 1 : 0
    this.end = new Float64Array(ring)
    this.pages = new Float64Array(ring)
  }

  /**
   * A write of `np` pages placed at `t`: it is acknowledged when its data is in (`dataIn`) and there
   * is room, i.e. once enough older buffered writes are on the flash; it leaves the buffer at
   * `programmed`. Returns the acknowledgement.
   */
  admit(t: SimTime, dataIn: number, programmed: number, np: number): number {
    const cap = this.end.length
    while (this.len > 0 && this.end[this.head] <= t) this.pop(cap)
    let ack = dataIn
    while (this.len > 0 && (this.used + np > this.cap || this.len === cap)) {
      ack = Math.max(ack, this.end[this.head])
      this.pop(cap)
    }
    const tail = (this.head + this.len) % cap
    this.end[tail] = programmed
    this.pages[tail] = np
    this.len++
    this.used += np
    return ack
  }

  private pop(cap: number): void {
    this.used -= this.pages[this.head]
    this.head = (this.head + 1) % cap
    if (--this.len === 0) this.used = 0 // no float residue
  }
}
