// What the browser host holds of request bodies: the heavy slots taken (body-limits.ts) and the
// bytes read, now and at most, across every request being read or handled.

export interface BodyStats {
  /** Heavy requests being read or handled now. */
  heavy: number
  /** Body bytes read by requests not answered yet (their bodies, or what those parse to, are in memory). */
  held: number
  /** The most `held` has been since the server started. */
  peak: number
}

/** One request's share: its heavy slot, if it takes one, and its buffered bytes. */
export interface BodyTicket {
  /** Take a heavy slot; false when every slot is taken. */
  takeHeavy(): boolean
  onBytes(n: number): void
  /** The response is done: free the slot and the bytes (again is a no-op). */
  release(): void
}

export class BodyGate {
  private heavy = 0
  private held = 0
  private peak = 0

  constructor(readonly maxHeavy: number) {}

  open(): BodyTicket {
    let slot = false
    let bytes = 0
    let released = false
    return {
      takeHeavy: () => {
        if (slot) return true
        if (released || this.heavy >= this.maxHeavy) return false
        this.heavy++
        return (slot = true)
      },
      onBytes: (n) => {
        if (released) return
        bytes += n
        this.held += n
        this.peak = Math.max(this.peak, this.held)
      },
      release: () => {
        if (released) return
        released = true
        this.held -= bytes
        if (slot) this.heavy--
      },
    }
  }

  stats(): BodyStats {
    return { heavy: this.heavy, held: this.held, peak: this.peak }
  }
}
