import type { Bio } from './types'
import type { SlotWaiter } from './queue'

/** (bio, waiter) pairs waiting (for a request slot, for writeback throttling), in arrival order. */
export class WaitList {
  private readonly bios: Bio[] = []
  private readonly ws: SlotWaiter[] = []

  get size(): number {
    return this.bios.length
  }
  push(b: Bio, w: SlotWaiter): void {
    this.bios.push(b)
    this.ws.push(w)
  }
  bioAt(i: number): Bio {
    return this.bios[i]
  }
  waiterAt(i: number): SlotWaiter {
    return this.ws[i]
  }
  removeAt(i: number): void {
    if (i === 0) {
      this.bios.shift()
      this.ws.shift()
    } else {
      this.bios.splice(i, 1)
      this.ws.splice(i, 1)
    }
  }
}
