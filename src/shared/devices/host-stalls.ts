import type { Engine, Handler } from '../sim/engine'
import type { Rng } from '../sim/rng'
import type { SimTime } from '../sim/time'
import type { QuantileTable } from './quantile-table'

/**
 * Pauses of a virtual device's host side under load: the host thread that serves a virtual disk
 * (a hypervisor's I/O thread, a loop worker) shares its CPU with other threads of the host, and
 * while it is kept busy its scheduler takes the CPU away from it now and then — for that time no
 * request of the device completes, whichever request it is and however deep the queue.
 *
 * Measured on this machine (Linux 6.18 Firecracker guest, file-backed loop device with direct
 * I/O, fio 4 KiB random reads with a per-I/O latency log, `bench/real-probes.sh stalls`): at QD32
 * the completions stop for 1–5 ms (no completion in a whole millisecond, then the queue's worth
 * at once), 10–18 times a second, often every 40 ms; 3 a second for QD32 writes, 10 at QD8, 2 at
 * QD4 and none at QD1. The stalled requests are the tail: at QD32 about 1 % of them, 1.5–3.3 ms
 * beyond the median, where the per-request service times drawn at QD1 have hardly any.
 *
 * The work is counted per request, not per byte: a stream of 1 MiB direct reads or writes that
 * keeps the link busy showed no such tail (QD4 writes at 4.3 GB/s: p99 1.4× the mean; reads
 * at 1.9 GB/s: 1.6×), where counting their transfers as the thread's work stalled them as
 * often as a deep queue of small ones and doubled their p99 (validate, seqread and
 * reader-vs-direct-writer).
 *
 * The model: the device's serial work (what each request adds, `workNs` — its contention) is a
 * fluid queue drained at one nanosecond per nanosecond. While it is not empty the host thread
 * runs and runs up a debt; while it is empty the thread sleeps and the debt is paid back at the
 * same rate (a thread idle as long as it ran is owed nothing more — the fair share of a sleeper).
 * When the debt reaches `everyNs` the device stops for a duration drawn from `duration`, and
 * every request in flight, and every one started meanwhile, completes that much later.
 */
export class HostStalls implements Handler {
  /** Serial work not yet done, ns, as of `updated`. */
  private work = 0
  /** Busy time not yet paid back by idle time, ns, as of `updated`. */
  private debt = 0
  private updated: SimTime = 0
  /** The end of the current (or last) stall. */
  private stallEnd: SimTime = 0
  /** All stall time so far, ns: a request notes it at its start, and owes what it grew by since (`owed`). */
  total = 0
  /** A stall check is pending at this time (−1: none). */
  private due: SimTime = -1

  constructor(
    private readonly engine: Engine,
    private readonly rng: Rng,
    private readonly everyNs: number,
    private readonly duration: QuantileTable,
  ) {}

  /**
   * A request starts now, adding `workNs` of serial work. Returns the time its service waits for
   * a stall under way to end (0 when none).
   */
  start(now: SimTime, workNs: number): number {
    this.advance(now)
    this.work += workNs
    this.arm(now)
    return now < this.stallEnd ? this.stallEnd - now : 0
  }

  /** What a request that noted `mark` at its start still owes to stalls since (ns). */
  owed(mark: number): number {
    return this.total - mark
  }

  /** The stall check: the debt reached its bound while the thread still had work. */
  onEvent(): void {
    const now = this.engine.now
    this.due = -1
    this.advance(now)
    if (this.work > 0 && this.debt >= this.everyNs - 1) {
      const d = Math.max(0, Math.round(this.duration.draw(this.rng.next()) * 1e6))
      this.stallEnd = now + d
      this.total += d
      this.debt = 0
      this.updated = this.stallEnd
    }
    this.arm(now)
  }

  /** Bring work and debt up to `now` (nothing moves during a stall). */
  private advance(now: SimTime): void {
    const dt = now - this.updated
    if (dt <= 0) return
    this.updated = now
    if (this.work >= dt) {
      this.work -= dt
      this.debt += dt
      return
    }
    this.debt = Math.max(0, this.debt + this.work - (dt - this.work))
    this.work = 0
  }

  /** Check again when the debt would reach its bound, if the work at hand lasts that long. */
  private arm(now: SimTime): void {
    if (this.due >= 0 || this.work <= 0) return
    const from = Math.max(now, this.updated)
    const left = this.everyNs - this.debt
    if (left > this.work) return
    this.due = from + Math.max(0, left)
    this.engine.at(this.due, this, 0)
  }
}
