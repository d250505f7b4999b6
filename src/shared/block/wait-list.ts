import type { Bio } from './types'
import type { SlotWaiter } from './queue-params'

/**
 * (bio, waiter) pairs waiting (for a request slot, for writeback throttling), in arrival order.
 * A ring (capacity a power of two), as the kernel's wait queue is a list: a thousand processes
 * waiting for a slot cost nothing when the first of them is granted one — an array's shift would
 * move every one behind it. Removing from the middle (a waiter its depth limit let pass others)
 * moves the waiters before it, which are few.
 */
export class WaitList {
  private bios: (Bio | null)[] = new Array<Bio | null>(8).fill(null)
  private ws: (SlotWaiter | null)[] = new Array<SlotWaiter | null>(8).fill(null)
  private head = 0
  private count = 0

  get size(): number {
    return this.count
  }
  push(b: Bio, w: SlotWaiter): void {
    if (this.count === this.bios.length) this.grow()
    const j = (this.head + this.count++) & (this.bios.length - 1)
    this.bios[j] = b
    this.ws[j] = w
  }
  bioAt(i: number): Bio {
    return this.bios[(this.head + i) & (this.bios.length - 1)]!
  }
  waiterAt(i: number): SlotWaiter {
    return this.ws[(this.head + i) & (this.ws.length - 1)]!
  }
  removeAt(i: number): void {
    const mask = this.bios.length - 1
    const { bios, ws } = this
    // close the gap from the front: entries 0 … i − 1 move one place back
    for (let k = i; k > 0; k--) {
      const to = (this.head + k) & mask
      const from = (this.head + k - 1) & mask
      bios[to] = bios[from]
      ws[to] = ws[from]
    }
    bios[this.head] = null
    ws[this.head] = null
    this.head = (this.head + 1) & mask
    this.count--
  }

  private grow(): void {
    const n = this.bios.length
    const bios = new Array<Bio | null>(2 * n).fill(null)
    const ws = new Array<SlotWaiter | null>(2 * n).fill(null)
    for (let k = 0; k < this.count; k++) {
      bios[k] = this.bios[(this.head + k) & (n - 1)]
      ws[k] = this.ws[(this.head + k) & (n - 1)]
    }
    this.bios = bios
    this.ws = ws
    this.head = 0
  }
}
