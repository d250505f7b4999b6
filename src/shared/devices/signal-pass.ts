import type { Request } from '../block/types'
import type { SimTime } from '../sim/time'

/**
 * A virtio disk whose host serves its queue in passes and signals the guest once per pass — as
 * Firecracker's block device does with its default (synchronous) file engine: on a notification
 * its one thread pops the ring's requests until the ring is empty, requests that arrive meanwhile
 * included, performs each in turn, and raises one interrupt after the last
 * (src/vmm/src/devices/virtio/block/virtio/device.rs, `VirtioBlock::process_queue`: the
 * `pop_or_enable_notification` loop, then `prepare_kick` and the interrupt). The guest sees none of
 * a pass's requests complete before all of them have: a 4 KiB read issued behind a burst of large
 * writes completes when the whole burst has been written.
 *
 * Measured on this machine (Linux 6.18 guest, loop device on the virtio disk, ftrace of the disk's
 * block_rq_issue/complete): 82 writes of 512 KiB issued over 6.5 ms completed together 10 ms after
 * the first (all within 0.1 ms), and a QD1 reader beside a buffered writer's flushes waited 1–10 ms
 * per read while writes were in flight, 35 µs otherwise; completions per interrupt
 * (/proc/interrupts, the disk's request queue) were 1.02 at QD1, 3.95 at QD4 and 19 at QD32.
 *
 * The model: a request's QD1 time (drawn) is its turn at the host's thread (its contention and
 * its data) and, split evenly around it (an assumption: the guest cannot tell them apart), the
 * way there (the kick) and back (the interrupt, the wake-up). A request the guest places in the
 * ring while the thread is still on a pass joins that pass and is taken up in its turn at once:
 * the thread pops until the ring is empty with notifications off, so it needs no kick and has no
 * way there of its own. One that finds the thread idle kicks it, and opens the next pass. A pass
 * is signalled once: it is delivered, all of it, one way back — the one drawn with the request
 * that opened it — after the thread finishes its last request.
 *
 * (Until 2026-12-05 every request paid its own way there and the pass waited for the longest way
 * back of its members. The QD1 times have a tail — 4 KiB writes on this machine: p99 1.1 ms
 * against a median of 58 µs — and a request drawn from it held the host's thread, in submission
 * order, for half of it: re-simulated, QD32 random writes made 27 k IOPS where the device made
 * 44.6 k, and no contention could raise them.)
 */
export class SignalPass {
  readonly held: Request[] = []
  /** When the host's thread finishes the pass's last request. */
  serverEnd: SimTime = 0
  /** When the guest sees the pass complete. */
  end: SimTime = 0
  /** The time its end event is set for (−1: none yet). */
  due: SimTime = -1
  /** The stall total when its end was last set (the host's pauses since move it). */
  mark = 0
  /** Its way back: the interrupt and the guest's wake-up, drawn with the request that opened it. */
  back = 0
  /** How many of its requests the guest has completed since it was signalled. */
  completed = 0
  /** How many it held when signalled: the softirq goes through these (the rest: deferred writes). */
  signalled = 0
  /** Writes the softirq left to the dio kworker, completed after it (virtual-depth-law.ts). */
  deferred: Request[] | null = null
}

/** The host's one thread and the pass it is on. */
export class PassServer {
  private open: SignalPass | null = null
  /** When the thread is free. */
  private free: SimTime = 0
  /** The stall total the thread's schedule has been moved by. */
  private moved = 0
  /** The last request started: when it reached the host, and when the thread took it up. */
  arrived: SimTime = 0
  begun: SimTime = 0

  /**
   * A request reaches the device at `now`: `drawn` its QD1 time, `own` its turn at the thread,
   * `extra` its data's; `stall` how long a stall under way holds it, `mark` the stall total.
   * Returns its pass, whose end event the caller sets if `due` < 0.
   */
  start(
    rq: Request,
    now: SimTime,
    drawn: number,
    own: number,
    extra: number,
    stall = 0,
    mark = 0,
  ): SignalPass {
    const away = Math.max(0, drawn - own)
    // a thread still busy now was busy through the stalls since its schedule was set
    if (this.free > now) this.free += mark - this.moved
    this.moved = mark
    let pass = this.open
    let arrive = now + stall
    if (pass === null || arrive > pass.serverEnd) {
      // the thread had finished its pass (and signalled it): this request kicks it, opening the next
      pass = new SignalPass()
      pass.back = away / 2
      this.open = pass
      arrive += away / 2
    }
    this.arrived = arrive
    this.begun = Math.max(this.free, arrive)
    this.free = this.begun + own + extra
    pass.held.push(rq)
    pass.serverEnd = this.free
    pass.end = Math.max(pass.end, Math.round(this.free + pass.back))
    pass.mark = mark
    return pass
  }

  /**
   * A pass's end event at `now`, `owed` the stall time since its end was set: true if it is done
   * (deliver its requests), false if its end moved on (set the event again for `pass.end`).
   */
  ended(pass: SignalPass, now: SimTime, owed: number): boolean {
    pass.end += owed
    pass.serverEnd += owed
    pass.mark += owed
    if (pass.end > now) return false
    if (this.open === pass) this.open = null
    return true
  }
}
