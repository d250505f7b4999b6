import type { Engine, Handler } from '../sim/engine'
import { Timer } from '../sim/engine'
import type { SimTime } from '../sim/time'
import type { CpuParams, CpuTask } from './cpu-params'
import { EevdfLag } from './eevdf-lag'
import { LagPreemptions } from './lag-preemptions'
import { CpuUtil } from './pelt-util'
import { PREEMPTED, RunQueue } from './run-queue'

const EV_RR = -1

/**
 * The CPUs and the tasks on them, whatever the policy (cpu.ts CpuScheduler adds where a woken
 * task goes): a running task's burst and its end, the CPU time charged to it (vruntime, the
 * EEVDF lag, PELT utilization), the pick of the next runnable task when a CPU is given up or
 * preempted, and the timers that take a CPU from a task that keeps it — the round-robin
 * boundaries under `tick`, the time slices while tasks compete under `preemptive` and `eevdf`.
 */
export abstract class CpuCore implements Handler {
  readonly current: (CpuTask | null)[]
  protected readonly burstStart: SimTime[]
  protected readonly burstTimers: Timer[]
  protected readonly sliceTimers: Timer[]
  protected readonly sliceStart: SimTime[]
  protected readonly rrTimer: Timer
  /** Runnable tasks: woken from sleep (served first under `tick`), then preempted ones (run-queue.ts). */
  protected readonly queue: RunQueue
  protected minVruntime = 0
  /** `eevdf`: the tasks' lag and the running ones' eligibility (null under the other policies). */
  protected readonly lag: EevdfLag | null
  /** `eevdf`: the wake-ups that preempted by their lag, per task (null under the other policies). */
  readonly lagPreemptions: LagPreemptions | null
  /** Per CPU: the last `preempts` check found its task ineligible within its slice (by the woken one's lag). */
  protected readonly byLag: boolean[]
  /** Per CPU: the pid of the woken task whose lag marked it for a switch at its next preemption point (−1: none). */
  protected readonly reschedBy: number[]
  /**
   * The task whose continuation is running (between its burst ending and its next call): a wake-up
   * that should preempt it only marks its CPU, and the switch happens when it next asks for the
   * CPU or gives it up — as the kernel preempts on return to user mode, not in the middle of
   * kernel code.
   */
  protected continuing: CpuTask | null = null
  protected readonly resched: boolean[]
  /** `pack`: runnable tasks waiting for each CPU. */
  protected readonly wanting: number[]
  /** `pack`: the CPUs' and tasks' utilization, for where an interrupt's wake-ups go (null: no pack). */
  protected readonly util: CpuUtil | null
  /** CPU time used by all tasks, ns (utilisation). */
  busyTime = 0
  /** The policy as flags, read on every burst (a string compared there costs a call each time). */
  protected readonly tick: boolean
  protected readonly eevdf: boolean
  protected readonly preemptive: boolean
  protected readonly pack: boolean

  constructor(
    protected readonly engine: Engine,
    protected readonly p: CpuParams,
  ) {
    const n = p.cpus
    this.tick = p.policy === 'tick'
    this.eevdf = p.policy === 'eevdf'
    this.preemptive = p.policy === 'preemptive'
    this.pack = (p.pack ?? false) && !this.tick
    this.current = new Array<CpuTask | null>(n).fill(null)
    this.burstStart = new Array<number>(n).fill(0)
    this.sliceStart = new Array<number>(n).fill(0)
    this.burstTimers = []
    this.sliceTimers = []
    for (let i = 0; i < n; i++) {
      this.burstTimers.push(new Timer(engine, this, i))
      this.sliceTimers.push(new Timer(engine, this, n + i))
    }
    this.rrTimer = new Timer(engine, this, EV_RR)
    this.resched = new Array<boolean>(n).fill(false)
    this.wanting = new Array<number>(n).fill(0)
    this.util = this.pack ? new CpuUtil(n) : null
    this.queue = new RunQueue(p.policy !== 'tick')
    this.lag = this.eevdf ? new EevdfLag(2 * p.minGranularity) : null
    this.lagPreemptions = this.eevdf ? new LagPreemptions() : null
    this.byLag = new Array<boolean>(n).fill(false)
    this.reschedBy = new Array<number>(n).fill(-1)
  }

  get runnable(): number {
    return this.queue.size
  }

  /** The running task gives up its CPU (it blocked or exited). */
  release(t: CpuTask): void {
    const c = t.onCpu
    if (c < 0) return
    this.account(c, t)
    this.lag?.leave(t, this.live())
    this.burstTimers[c].clear()
    this.current[c] = null
    this.resched[c] = false
    this.reschedBy[c] = -1
    t.onCpu = -1
    this.pickNext(c)
  }

  onEvent(kind: number): void {
    const n = this.p.cpus
    if (kind === EV_RR) {
      this.rrTimer.fired()
      this.roundRobin()
    } else if (kind < n) {
      this.burstTimers[kind].fired()
      const t = this.current[kind]!
      this.account(kind, t)
      t.cpuWork = 0
      this.continuing = t
      t.cpuDone(this.engine.now)
      if (this.continuing === t) this.continuing = null
    } else {
      const c = kind - n
      this.sliceTimers[c].fired()
      this.sliceEnd(c)
    }
  }

  /** The running tasks' progress since their bursts began, load-weighted (EevdfLag's `live`). */
  protected live(): number {
    let wv = 0
    const now = this.engine.now
    for (let c = 0; c < this.current.length; c++)
      if (this.current[c] !== null) wv += (now - this.burstStart[c]) * 1024
    return wv
  }

  protected dispatchOn(c: number, t: CpuTask): void {
    this.lagPreemptions?.ran(t.pid, this.engine.now)
    this.current[c] = t
    t.onCpu = c
    if (this.util !== null && t.justForked === true) {
      t.justForked = false
      this.util.forked(c, t, this.engine.now)
    }
    t.lastCpu = c
    if (t.wantCpu >= 0) {
      this.wanting[t.wantCpu]--
      t.wantCpu = -1
    }
    this.sliceStart[c] = this.engine.now
    this.startBurst(c, t)
    if (!this.tick && this.runnable > 0) this.armSlices()
  }

  protected startBurst(c: number, t: CpuTask): void {
    this.burstStart[c] = this.engine.now
    this.burstTimers[c].set(this.engine.now + t.cpuWork)
  }

  /** Charge the CPU time used since the burst started. */
  protected account(c: number, t: CpuTask): void {
    const ran = this.engine.now - this.burstStart[c]
    if (ran > 0) {
      t.cpuWork = Math.max(0, t.cpuWork - ran)
      t.cpuTime += ran
      this.busyTime += ran
      t.vruntime += (ran * 1024) / t.weight
      this.lag?.ran(ran)
      this.util?.ran(c, t, ran, this.engine.now)
      if (t.vruntime > this.minVruntime && this.runnable === 0) this.minVruntime = t.vruntime
    }
    this.burstStart[c] = this.engine.now
  }

  protected preempt(c: number): void {
    const t = this.current[c]!
    this.account(c, t)
    this.burstTimers[c].clear()
    this.current[c] = null
    t.onCpu = -1
    this.requeue(t, c)
  }

  /**
   * A task taken off CPU `c` while runnable. With `pack` it stays in that CPU's run queue and waits
   * for it: the kernel keeps a run queue per CPU, and a preempted task moves to another only when
   * a load balance pulls it (on a tick, and not while it is cache-hot: task_hot, 0.5 ms of
   * sysctl_sched_migration_cost — kernel/sched/fair.c), not the moment another CPU is idle.
   */
  private requeue(t: CpuTask, c: number): void {
    if (this.pack) {
      t.wantCpu = c
      this.wanting[c]++
    }
    this.queue.push(t, PREEMPTED)
  }

  protected pickNext(c: number): void {
    const t = this.tick ? this.nextFifo() : this.nextFair(c)
    if (t) this.dispatchOn(c, t)
  }

  protected nextFifo(): CpuTask | undefined {
    return this.queue.shift()
  }

  /** The runnable task with the least vruntime that may run on CPU `c` (`pack`: not one waiting for another). */
  protected nextFair(c: number, draw?: () => number): CpuTask | undefined {
    const best = this.queue.takeFair(c, draw)
    if (best) this.minVruntime = Math.max(this.minVruntime, best.vruntime)
    return best
  }

  /** `tick`: at a round-robin boundary, every CPU switches to a waiting task if there is one. */
  protected roundRobin(): void {
    for (let c = 0; c < this.current.length && this.runnable > 0; c++) {
      if (this.current[c] !== null) this.preempt(c)
      this.pickNext(c)
    }
    if (this.runnable > 0) this.rrTimer.set(this.engine.now + this.p.quantum)
  }

  // --- preemptive: time slices while tasks compete ---

  protected armSlices(): void {
    let nr = this.runnable
    for (let c = 0; c < this.current.length; c++) if (this.current[c] !== null) nr++
    const slice = this.eevdf
      ? this.p.minGranularity
      : Math.max(this.p.minGranularity, Math.floor(this.p.latency / Math.max(1, nr)))
    for (let c = 0; c < this.current.length; c++) {
      if (this.current[c] !== null && !this.sliceTimers[c].pending)
        this.sliceTimers[c].set(Math.max(this.engine.now, this.sliceStart[c] + slice))
    }
  }

  protected sliceEnd(c: number): void {
    const cur = this.current[c]
    if (cur === null || this.runnable === 0) return
    this.account(c, cur)
    const next = this.nextFair(c)
    if (next !== undefined && next.vruntime < cur.vruntime) {
      this.burstTimers[c].clear()
      this.current[c] = null
      cur.onCpu = -1
      this.requeue(cur, c)
      this.dispatchOn(c, next)
    } else {
      // keep running; put the candidate back (none: every waiting task waits for another CPU)
      if (next !== undefined) this.queue.unshiftWoken(next)
      this.sliceStart[c] = this.engine.now
      this.burstTimers[c].set(this.engine.now + cur.cpuWork)
    }
    if (this.runnable > 0) this.armSlices()
  }
}
