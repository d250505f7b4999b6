/**
 * An interrupt handler under way on the CPU scheduler (cpu.ts `interrupt`): a device signalling a
 * batch of completions at once (a virtio disk's one interrupt per pass, signal-pass.ts). A task it
 * wakes onto an idle CPU does not take that CPU there and then: the wake-up only enqueues it and
 * marks the idle task for a reschedule (kernel/sched/core.c ttwu_do_activate → wakeup_preempt →
 * resched_curr), and the CPU switches when the handler has returned (kernel/sched/idle.c do_idle:
 * `while (!need_resched())`, then schedule_idle). By then every task the batch woke is queued,
 * and the pick is among all of them — the least vruntime first (pick_eevdf: the earliest eligible
 * deadline, which with equal slices and weights is the least vruntime) — not the first woken.
 *
 * Tasks that tie — woken together, each placed at the average with no lag of its own, as two
 * readers that each sleep on their own I/O are — are ordered by nanoseconds the model does not
 * keep (the interrupt's time charged to whichever task it arrived in, the rounding of
 * avg_vruntime), so their order is drawn. Measured on this machine (Linux 6.18 guest,
 * /work/runs/s08/real traces): after a pass that completed an idle-class QD1 reader's read and a
 * QD8 reader's reads, both fio threads woken on the interrupt's CPU, the one woken second ran
 * first 94 times of 189.
 */
export class IrqBatch {
  /** Handlers under way (nested calls count). */
  depth = 0
  /** The CPU the handler runs on (-1: none, or not known). */
  cpu = -1
  /** Per CPU: idle, and owed a pick when the handler returns (a task was woken for it). */
  readonly owed: boolean[]

  constructor(
    cpus: number,
    /** Draws among tied tasks at the pick (none: the first woken runs first). */
    readonly draw: (() => number) | undefined,
  ) {
    this.owed = new Array<boolean>(cpus).fill(false)
  }
}
