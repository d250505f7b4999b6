import { Timer } from '../sim/engine'
import type { Engine, Handler } from '../sim/engine'
import type { SimTime } from '../sim/time'
import { jiffiesToNs, msToJiffies } from '../sim/time'

/** BLK_MQ_BUDGET_DELAY (block/blk-mq-sched.c, 4.19–6.18): ms before a declined queue runs again. */
export const BLK_MQ_BUDGET_DELAY_MS = 3

/**
 * When blk-mq runs a hardware queue again by itself, for a scheduler that may hold requests back
 * (Linux 6.18, block/blk-mq.c and block/blk-mq-sched.c):
 *  - A completion does not run the queue, unless a dispatch earlier found the driver out of tags
 *    and marked the queue for a restart (blk_mq_mark_tag_wait → blk_mq_sched_mark_restart_hctx;
 *    __blk_mq_free_request → blk_mq_sched_restart). What a scheduler runs from its own completion
 *    hook (kyber's token wake-up, BFQ's bfq_schedule_dispatch) is the scheduler's business:
 *    `IoScheduler.completionRuns`.
 *  - A scheduler that has work but hands out nothing (`has_work` true, `dispatch_request` NULL: a
 *    lower I/O priority class held back behind a higher one in flight, kyber out of tokens) makes
 *    __blk_mq_do_dispatch_sched re-run the queue BLK_MQ_BUDGET_DELAY later through kblockd
 *    (blk_mq_delay_run_hw_queues) — once the loop's next pass dispatched nothing, which follows any
 *    pass that did. A run already pending keeps its time (blk_mq_delay_run_hw_queues: "If there is
 *    already a run_work pending, leave the pending delay untouched").
 *  - The delay is a timer: msecs_to_jiffies(3) jiffies from the current jiffy, so it fires on a
 *    tick — at HZ 250 the next tick, 0–4 ms later.
 * So a request the scheduler holds back leaves only at a run: when another request is inserted,
 * or on the next tick. An idle-class reader beside a busy best-effort one gets through on the
 * ticks that find the best-effort requests all completed.
 */
export class MqRuns implements Handler {
  /** BLK_MQ_S_SCHED_RESTART: the next completion runs the queue. */
  restart = false
  private readonly timer: Timer
  private readonly delay: number
  private readonly jiffy: SimTime
  /** When the pending delayed run was armed (the decline that asked for it). */
  private armedAt: SimTime = 0

  constructor(
    private readonly engine: Engine,
    hz: number,
    /** Run the queue: a delayed run, armed at `armedAt`. */
    private readonly run: (armedAt: SimTime) => void,
  ) {
    this.timer = new Timer(engine, this, 0)
    this.delay = msToJiffies(BLK_MQ_BUDGET_DELAY_MS, hz)
    this.jiffy = jiffiesToNs(1, hz)
  }

  /**
   * Whether a completion runs the queue: where the scheduler's completion hook does (`hooked`), or
   * after a restart mark, which the run clears.
   */
  completionRuns(hooked: boolean): boolean {
    if (!hooked && !this.restart) return false
    this.restart = false
    return true
  }

  /** A run handed out nothing though the scheduler holds requests: run again on a later tick. */
  declined(now: SimTime): void {
    if (this.timer.pending) return
    this.armedAt = now
    this.timer.set((Math.floor(now / this.jiffy) + this.delay) * this.jiffy)
  }

  /** Time of the pending delayed run, or −1. */
  get pendingAt(): SimTime {
    return this.timer.when
  }

  onEvent(): void {
    this.timer.fired()
    this.run(this.armedAt)
  }
}
