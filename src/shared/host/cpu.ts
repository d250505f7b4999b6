import type { Engine } from '../sim/engine'
import { Timer } from '../sim/engine'
import type { Rng } from '../sim/rng'
import type { SimTime } from '../sim/time'
import type { CpuParams, CpuTask } from './cpu-params'
import { IrqBatch } from './irq-batch'
import { CpuCore } from './cpu-core'
import { WOKEN } from './run-queue'

export type { CpuParams, CpuPolicy, CpuTask } from './cpu-params'
export { niceWeight } from './cpu-params'

/**
 * The CPUs and their scheduler. A task asks for a burst of CPU work with `run`; when the burst is
 * done the task's `cpuDone` decides what follows. Two policies:
 *  - `tick`: no wake-up preemption. A woken task waits until the running task blocks or the next
 *    round-robin boundary (every `quantum`, on a fixed clock), as 4.4BSD's roundrobin() and the
 *    pre-O(1) Linux schedulers behaved. Woken tasks queue ahead of preempted ones (their sleep
 *    priority is better), so an I/O-bound task next to a CPU hog completes about one I/O per quantum.
 *  - `preemptive`: CFS-like. Runtime is weighted by nice (vruntime); a waking task gets sleeper
 *    credit and preempts the running one when it lags by more than `wakeupGranularity`; running
 *    tasks share the CPU in slices of `latency / nr_running` (at least `minGranularity`).
 *  - `eevdf`: EEVDF as Linux 6.6+ schedules fair tasks (kernel/sched/fair.c). A waking task gets
 *    no sleeper credit but the lag it had when it slept (PLACE_LAG: the average vruntime less its
 *    own then, positive for a task that ran less than its share). Within its slice the running
 *    task keeps the CPU (RUN_TO_PARITY) while it is eligible — its vruntime at most the average
 *    with the woken task in it; a woken task ahead of it by its lag makes it ineligible and
 *    preempts at once. Past its slice, a woken task not behind it preempts. Running tasks share
 *    the CPU in slices of `minGranularity` (base_slice).
 * With `pack`, a woken task waits for its waker's CPU instead of taking an idle one (see CpuParams).
 * A task woken for an idle CPU gets there after the CPU's way out of idle (`idleWake` from another
 * CPU, `idleExit` on its own: cpu-idle-params.ts); meanwhile that CPU is not idle to other wake-ups,
 * as the kernel's idle_cpu() counts a queued wake-up (rq->ttwu_pending, nr_running).
 * This class is where a woken task goes (placed, preempting, queued, packed, held to the end of
 * an interrupt); the bursts, the accounting, the picks and the slices are CpuCore's (cpu-core.ts).
 */
export class CpuScheduler extends CpuCore {
  /** A queue run entered on a task's behalf (`within`): that task wakes what the run wakes. */
  private waker: CpuTask | null = null
  /** The interrupt handler under way (`interrupt`; irq-batch.ts). */
  private readonly irq: IrqBatch
  /** Per CPU: the task woken for it while it idled, on its way there (null: none). */
  private readonly arriving: (CpuTask | null)[]
  private readonly arrivals: Timer[] = []

  constructor(
    engine: Engine,
    p: CpuParams,
    /** Draws the order of tasks an interrupt woke that tie for its CPU (none: the first woken runs first). */
    ties?: Rng,
  ) {
    super(engine, p)
    this.irq = new IrqBatch(p.cpus, ties === undefined ? undefined : (): number => ties.next())
    this.arriving = new Array<CpuTask | null>(p.cpus).fill(null)
    for (let c = 0; c < p.cpus; c++) this.arrivals.push(new Timer(engine, this, 2 * p.cpus + c))
  }

  override onEvent(kind: number): void {
    const c = kind - 2 * this.p.cpus
    if (c < 0) return super.onEvent(kind)
    // the task woken for idle CPU c is there: it runs
    this.arrivals[c].fired()
    const t = this.arriving[c]!
    this.arriving[c] = null
    this.dispatchOn(c, t)
  }

  /** CPU `c` runs nothing and nothing is on its way to it. */
  private idle(c: number): boolean {
    return this.current[c] === null && !this.irq.owed[c] && this.arriving[c] === null
  }

  /**
   * `t`, woken by what runs on CPU `from` (−1: not known), goes to idle CPU `c`: it runs there
   * once `c` has left its idle state — at once when that costs nothing.
   */
  private arrive(c: number, t: CpuTask, from: number): void {
    const late = (from === c || from < 0 ? this.p.idleExit : this.p.idleWake) ?? 0
    if (late <= 0) return this.dispatchOn(c, t)
    this.arriving[c] = t
    this.arrivals[c].set(this.engine.now + late)
  }

  /**
   * The CPU the wake-up under way runs on: its waking task's, else the interrupt's (−1: not known,
   * as outside an interrupt without a waker).
   */
  private wakingCpu(): number {
    const w = this.waker ?? this.continuing
    if (w === null) return this.irq.cpu
    return w.onCpu >= 0 ? w.onCpu : w.lastCpu
  }

  /**
   * The task (running, or just woken) wants `work` ns of CPU. A running task keeps its CPU; a
   * task that is not on a CPU becomes runnable.
   */
  run(t: CpuTask, work: SimTime): void {
    t.cpuWork = work
    const c = t.onCpu
    if (c >= 0) {
      if (this.resched[c]) {
        // a waker was marked to preempt this task while its continuation ran: switch now
        this.resched[c] = false
        if (this.reschedBy[c] >= 0) this.lagPreemptions!.preempted(this.reschedBy[c], t.pid, this.engine.now)
        this.reschedBy[c] = -1
        this.preempt(c)
        this.pickNext(c)
        return
      }
      this.startBurst(c, t)
      return
    }
    this.wake(t)
  }

  /** The task whose work wakes now (a continuation running, or a run entered `within` one). */
  capture(): CpuTask | null {
    return this.waker ?? this.continuing
  }

  /** Run `fn` as `ctx`'s work: with `pack`, what it wakes goes to `ctx`'s CPU. */
  within(ctx: unknown, fn: () => void): void {
    const before = this.waker
    this.waker = ctx as CpuTask | null
    try {
      fn()
    } finally {
      this.waker = before
    }
  }

  /**
   * Run `fn` as an interrupt handler on CPU `cpu` (-1: not known): what it wakes onto an idle CPU
   * is picked among when it returns, ties drawn (irq-batch.ts).
   */
  interrupt(fn: () => void, cpu = -1): void {
    const irq = this.irq
    const before = irq.cpu
    irq.depth++
    if (cpu >= 0 && cpu < this.current.length) irq.cpu = cpu
    try {
      fn()
    } finally {
      const on = irq.cpu
      irq.cpu = before
      if (--irq.depth === 0) this.pickOwed(on)
    }
  }

  /**
   * The interrupt, on CPU `on` (−1: not known), has returned: each CPU a wake-up reached while it
   * was idle picks now.
   */
  private pickOwed(on: number): void {
    const owed = this.irq.owed
    for (let c = 0; c < owed.length; c++) {
      if (!owed[c]) continue
      owed[c] = false
      if (this.current[c] !== null || this.arriving[c] !== null) continue
      const t = this.tick ? this.nextFifo() : this.nextFair(c, this.irq.draw)
      if (t) this.arrive(c, t, on)
    }
  }

  /** `t` woke for idle CPU `c`: it runs there now, or — inside an interrupt — at its end. */
  private wakeOnIdle(c: number, t: CpuTask): void {
    this.place(t)
    if (this.irq.depth === 0) return this.arrive(c, t, this.wakingCpu())
    if (this.pack) {
      t.wantCpu = c
      this.wanting[c]++
    }
    this.irq.owed[c] = true
    this.queue.push(t, WOKEN)
  }

  private wake(t: CpuTask): void {
    const now = this.engine.now
    if (this.pack && this.packed(t)) return
    for (let c = 0; c < this.current.length; c++) {
      if (this.idle(c)) return this.wakeOnIdle(c, t)
    }
    this.lagPreemptions?.woke(t.pid)
    if (this.tick) {
      this.queue.push(t, WOKEN)
      if (!this.rrTimer.pending) {
        const q = this.p.quantum
        this.rrTimer.set((Math.floor(now / q) + 1) * q)
      }
      return
    }
    this.place(t)
    // Preempt the CPU whose task has run furthest ahead, if the waking task may.
    let victim = -1
    let worst = -Infinity
    for (let c = 0; c < this.current.length; c++) {
      const v = this.preempts(c, t)
      if (v > worst) {
        worst = v
        victim = c
      }
    }
    this.queueOrPreempt(t, victim)
  }

  /**
   * `pack`: the waking task goes to the CPU of what woke it — the task whose continuation is
   * running, or the interrupt's CPU when known — when it fits there (`fitsOn`); otherwise back to
   * the CPU it last ran on when that one is idle (`backToIdle`); otherwise to its waker's CPU (a
   * task's) or its own (an interrupt's). It runs there at once if that CPU is idle, else it waits
   * for it unless another task already does. False: no such CPU, or taken; the task goes anywhere.
   */
  private packed(t: CpuTask): boolean {
    const w = this.waker ?? this.continuing
    const from = this.wakingCpu()
    if (from >= 0 && from !== t.lastCpu && this.fitsOn(from, t)) return this.join(from, t)
    if (this.backToIdle(t)) return true
    const c = w !== null ? from : t.lastCpu
    return c >= 0 && this.join(c, t)
  }

  /** `pack`: `t` goes to CPU `c` — at once if idle, else waiting for it unless another task does. */
  private join(c: number, t: CpuTask): boolean {
    if (this.idle(c)) {
      this.wakeOnIdle(c, t)
      return true
    }
    // one task waits for a CPU besides the one it will run (owed a pick: the first woken for it)
    if (this.wanting[c] > (this.irq.owed[c] ? 1 : 0)) return false
    this.lagPreemptions?.woke(t.pid)
    this.place(t)
    t.wantCpu = c
    this.wanting[c]++
    this.queueOrPreempt(t, this.preempts(c, t) > -Infinity ? c : -1)
    return true
  }

  /**
   * `pack`, a task that does not fit its waker's CPU: back to the CPU it last ran on when that CPU
   * is idle, as kernel/sched/fair.c (6.18) picks: wake_affine_idle returns an idle prev_cpu, and
   * select_idle_sibling takes an idle prev when the target is not. Traced on this machine (ftrace
   * sched_wakeup and sched_switch, 2026-12-06; a QD1 and a QD32 fio reader on a loop device, none):
   * fio ran on the disk interrupt's CPU1 and woke the loop worker from there, and the worker ran
   * on CPU0, its own, 4 253 of 4 662 times (91 %), woken by IPI on the idle CPU0 — the two readers
   * and the worker's ~100 000 requests a second were more than CPU1 could take with a fifth spare.
   */
  private backToIdle(t: CpuTask): boolean {
    const p = t.lastCpu
    if (p < 0 || !this.idle(p)) return false
    this.wakeOnIdle(p, t)
    return true
  }

  /** `pack`: whether `t` fits on CPU `c`, its waker's (CpuUtil.fits). */
  private fitsOn(c: number, t: CpuTask): boolean {
    return this.util!.fits(c, t, this.engine.now, this.current[c] !== null ? this.burstStart[c] : null)
  }

  /** How far CPU `c`'s task has run ahead of waking `t`, if `t` may preempt it; else −∞. */
  private preempts(c: number, t: CpuTask): number {
    const cur = this.current[c]
    if (cur === null) return -Infinity
    const now = this.engine.now
    const v = cur.vruntime + ((now - this.burstStart[c]) * 1024) / cur.weight
    if (this.eevdf) {
      // within its slice (RUN_TO_PARITY) the running task keeps the CPU while it is eligible
      const expired = now - this.sliceStart[c] >= this.p.minGranularity
      this.byLag[c] = !expired
      return (expired ? v >= t.vruntime : !this.lag!.eligible(v, t)) ? v : -Infinity
    }
    return v - t.vruntime > this.p.wakeupGranularity ? v : -Infinity
  }

  /** The woken task preempts `victim` (≥ 0), or waits. */
  private queueOrPreempt(t: CpuTask, victim: number): void {
    // the waker itself (its continuation, or a queue run in its context) is switched at its next
    // preemption point, the end of its burst (as on return to user mode), not in the middle
    const cur = victim >= 0 ? this.current[victim] : null
    if (cur !== null && (cur === this.continuing || cur === this.waker)) {
      this.resched[victim] = true
      if (this.byLag[victim] && this.lagPreemptions !== null) this.reschedBy[victim] = t.pid
      this.queue.push(t, WOKEN)
    } else if (victim >= 0) {
      if (this.byLag[victim] && this.lagPreemptions !== null)
        this.lagPreemptions.preempted(t.pid, this.current[victim]!.pid, this.engine.now)
      this.preempt(victim)
      this.dispatchOn(victim, t)
    } else {
      this.queue.push(t, WOKEN)
      this.armSlices()
    }
  }

  /**
   * CFS sleeper credit: a waking task starts no further back than half a latency period; EEVDF
   * gives none (it keeps the lag it had when it slept, which the model takes as none).
   */
  private place(t: CpuTask): void {
    if (this.tick) return
    if (this.lag !== null) return this.lag.place(t, this.live(), this.minVruntime)
    const floor = this.minVruntime - (this.preemptive ? this.p.latency / 2 : 0)
    if (t.vruntime < floor) t.vruntime = floor
  }
}
