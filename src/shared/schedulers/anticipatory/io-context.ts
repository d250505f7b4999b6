import type { Request } from '../../block/types'

/** Fixed point of the decaying averages: 1.0 = 256. Each update keeps 7/8 of the old value. */
const ONE = 256

/** x ← 7/8·x + 1/8·sample, in the kernel's integer arithmetic (sample already scaled). */
const decay = (x: number, sample: number): number => Math.floor((7 * x + sample) / 8)

/**
 * What AS knows of one process (`struct as_io_context`), kept across its requests. Times in jiffies,
 * distances in sectors; `*Total` and `*Samples` are fixed point (1.0 = 256).
 */
export class AsIoContext {
  /** AS_TASK_RUNNING: the process has not exited. */
  running = true
  /** AS_TASK_IOSTARTED: it has queued a sync request. */
  ioStarted = false
  /** AS_TASK_IORUNNING: a sync request of it has completed. */
  ioRunning = false
  /** Its requests inside the scheduler. */
  nrQueued = 0
  /**
   * Its requests on the kernel's dispatch list not yet started by the driver (as_activate_request
   * takes them off). Our block layer hands a dispatched request to the device at once, so this is
   * back to 0 before AS looks again; kept so the rules read as the kernel's.
   */
  nrDispatched = 0
  /** jiffies when its last sync request completed. */
  lastEndRequest = 0
  /** The sector just after its last sync request: where a sequential next one would start. */
  lastRequestPos = 0
  ttimeTotal = 0
  ttimeSamples = 0
  /** Mean think time, jiffies: from a completion to its next sync request, when it had none queued. */
  ttimeMean = 0
  seekTotal = 0
  seekSamples = 0
  /** Mean seek distance, sectors, between its consecutive sync requests. */
  seekMean = 0

  constructor(readonly pid: number) {}
}

/**
 * What AS learns about processes in general: estimates for a process without history yet (its
 * first think time and seek), and how often a process exits while being waited for.
 */
export class ProcessHistory {
  newTtimeTotal = 0
  /** Think time, jiffies, expected of a process with no samples yet. */
  newTtimeMean = 0
  newSeekTotal = 0
  /** Seek distance, sectors, expected of a process with no samples yet. */
  newSeekMean = 0
  /** Probability (of 256) that a task exits while being waited on. */
  exitProb = 0
  /** Probability (of 256) that an exited task is not followed by a cooperating request. */
  exitNoCoop = 0

  /** MAX_THINKTIME = HZ/50: think times count up to 20 ms. */
  constructor(private readonly maxThinktime: number) {}

  /**
   * as_update_iohist: a sync request is queued for `aic` (its own, or a close request of another
   * process that AS credits to it). Think time counts only when the process had nothing queued.
   */
  update(aic: AsIoContext, rq: Request, jiffies: number): void {
    if (!rq.sync) return
    if (aic.ioRunning || aic.ioStarted) {
      const inFlight = aic.nrQueued + aic.nrDispatched
      let think = 0
      if (aic.ioRunning && inFlight === 0)
        think = Math.min(jiffies - aic.lastEndRequest, this.maxThinktime - 1)
      this.updateThinktime(aic, think)
      this.updateSeekDistance(aic, Math.abs(rq.sector - aic.lastRequestPos))
    }
    aic.lastRequestPos = rq.sector + rq.nsect
    aic.ioStarted = true
  }

  /** as_update_thinktime; a first sample also feeds the new-process estimate. */
  private updateThinktime(aic: AsIoContext, ttime: number): void {
    if (aic.ttimeSamples === 0) {
      this.newTtimeTotal = decay(this.newTtimeTotal, ONE * ttime)
      this.newTtimeMean = Math.floor(this.newTtimeTotal / ONE)
      this.exitProb = decay(this.exitProb, 0)
    }
    aic.ttimeSamples = decay(aic.ttimeSamples, ONE)
    aic.ttimeTotal = decay(aic.ttimeTotal, ONE * ttime)
    aic.ttimeMean = Math.floor((aic.ttimeTotal + ONE / 2) / aic.ttimeSamples)
  }

  /**
   * as_update_seekdist: one odd far seek (a fragment, a page-in) must not blow up the mean, so a
   * sample is clipped to 4·mean + 2 Mi sectors while the history is young (≤ 60), 4·mean + 128 Ki after.
   */
  private updateSeekDistance(aic: AsIoContext, sdist: number): void {
    if (aic.seekSamples === 0) {
      this.newSeekTotal = decay(this.newSeekTotal, ONE * sdist)
      this.newSeekMean = Math.floor(this.newSeekTotal / ONE)
    }
    const slack = aic.seekSamples <= 60 ? 2 * 1024 * 1024 : 2 * 1024 * 64
    const clipped = Math.min(sdist, aic.seekMean * 4 + slack)
    aic.seekSamples = decay(aic.seekSamples, ONE)
    aic.seekTotal = decay(aic.seekTotal, ONE * clipped)
    aic.seekMean = Math.floor((aic.seekTotal + Math.floor(aic.seekSamples / 2)) / aic.seekSamples)
  }

  /** A waited-for process was found to have exited (or timed out with no history): exit_prob rises. */
  exitSeen(): void {
    this.exitProb = decay(this.exitProb, ONE)
  }

  /** An exited process was "saved" by a cooperating request (down) or was not (up). */
  cooperation(saved: boolean): void {
    this.exitNoCoop = decay(this.exitNoCoop, saved ? 0 : ONE)
  }
}
