import { ownerNamer } from '../../../shared/experiment/trace-owners'
import { TraceStages } from '../../../shared/experiment/trace-stages'
import type { TraceStagesResult } from '../../../shared/experiment/trace-stages'
import type { RequestRecord } from '../../../shared/experiment/request-tap'
import type { RunWhy } from '../../../shared/metrics/why'
import { BlktraceCapture, TRACE_START_MARK, blktraceUnavailable } from './blktrace-capture'
import type { CancelState, EnginePlan } from './engine-plan'
import { FtraceCapture, stagesLossProblem } from './ftrace-capture'
import type { Journal } from './journal'
import { availableParallelism } from 'node:os'
import { traceCostNote } from './trace-cost'

/** What a real run's trace gave: the stages and the rest, or why there are none. */
export interface RunTraceResult {
  why: RunWhy
  traced: TraceStagesResult | null
  /** The trace covers the whole run (not cut, not stopped early): its seeks are the run's. */
  complete: boolean
  /** What reading the trace cost the machine (trace-cost.ts), for the run's notes; null: nothing read live. */
  cost: string | null
}

/**
 * A real run's trace: blktrace when it can (blktrace-capture.ts), else the kernel's block
 * tracepoints through tracefs (ftrace-capture.ts: the same events, e.g. on a kernel in lockdown,
 * which refuses blktrace's relay files), else nothing and the reason — the run keeps its
 * /proc/diskstats figures. Started before the run's sampling, marked at its t = 0.
 */
export class RunTrace {
  /** The lab's CPU and the clock at the run's t = 0: what reading the trace took since. */
  private began: { cpu: NodeJS.CpuUsage; ms: number } | null = null

  private constructor(
    private readonly stages: TraceStages | null,
    private readonly blk: BlktraceCapture | null,
    private readonly ft: FtraceCapture | null,
    private readonly untraced: string[],
  ) {}

  static async start(
    device: string,
    o: {
      trace: { workDir: string } | false | undefined
      plan: EnginePlan
      journal: Journal
      cancel: CancelState
      phase?(what: string): void
      /** Each traced request's stages (TraceStagesOptions.requests). */
      requests?(r: RequestRecord): void
    },
  ): Promise<RunTrace> {
    if (!o.trace) return new RunTrace(null, null, null, ['tracing was switched off for this run'])
    const stages = new TraceStages({ anchor: TRACE_START_MARK, nameOf: namer(o.plan), requests: o.requests })
    const reasons: string[] = []
    const cannot = blktraceUnavailable()
    if (cannot === null) {
      o.phase?.(`starting blktrace on ${device}`)
      try {
        const blk = await BlktraceCapture.start(device, o.trace.workDir, {
          journal: o.journal,
          cancel: o.cancel,
        })
        return new RunTrace(stages, blk, null, [])
      } catch (e) {
        reasons.push(`blktrace could not trace ${device}: ${(e as Error).message}`)
      }
    } else reasons.push(cannot)
    const no = FtraceCapture.unavailable()
    if (no === null) {
      try {
        const ft = await FtraceCapture.start(device, stages, { journal: o.journal, cancel: o.cancel })
        return new RunTrace(stages, null, ft, reasons)
      } catch (e) {
        reasons.push(`nor could the kernel's block tracepoints (${(e as Error).message})`)
      }
    } else reasons.push(`nor can the kernel's block tracepoints be read (${no})`)
    reasons.push('the figures are /proc/diskstats’s')
    return new RunTrace(null, null, null, [reasons.join('; ')])
  }

  /** Mark the run's t = 0 in the trace. */
  markStart(): void {
    this.blk?.markStart()
    this.ft?.mark(TRACE_START_MARK)
    if (this.ft) this.began = { cpu: process.cpuUsage(), ms: performance.now() }
  }

  /** The note on what the live reading of the tracepoints cost (blktrace's files are read after the run). */
  private costNote(): string | null {
    if (!this.ft || !this.began) return null
    const used = process.cpuUsage(this.began.cpu)
    return traceCostNote({
      events: this.ft.read,
      lost: this.ft.lost,
      cpuSeconds: (used.user + used.system) / 1e6,
      seconds: (performance.now() - this.began.ms) / 1000,
      cpus: availableParallelism(),
    })
  }

  /** Stop tracing and read the trace (blkparse for blktrace's). */
  async finish(phase?: (what: string) => void): Promise<RunTraceResult> {
    if (!this.stages)
      return {
        why: { source: 'none', processes: [], missing: this.untraced },
        traced: null,
        complete: false,
        cost: null,
      }
    let notes: string[] = []
    if (this.blk) {
      phase?.('reading the trace (blkparse)')
      notes = await this.blk.parse(this.stages)
    } else if (this.ft) notes = [...this.untraced, ...(await this.ft.finish())]
    // (after the trace is read to its end: the events and the CPU of the whole reading)
    const cost = this.costNote()
    const traced = this.stages.finish(notes, this.ft ? 'tracefs' : 'blktrace')
    const early = this.blk?.stoppedEarly ?? false
    const lossy = this.ft ? stagesLossProblem(this.ft.lost, this.ft.read) : null
    if (lossy)
      return {
        why: { source: traced.why.source, processes: [], missing: [...(traced.why.missing ?? []), lossy] },
        traced,
        complete: false,
        cost,
      }
    return { why: traced.why, traced, complete: !traced.cut && !early, cost }
  }

  /** Stop what still runs (after an error or a cancel too) and remove the trace's files. */
  async dispose(): Promise<void> {
    await this.blk?.dispose()
    await this.ft?.dispose()
  }
}

/**
 * Names for a trace's pids: the engine's processes by where they do I/O (EnginePlan.traceOwners);
 * a run of one process gets all of the engine's pids.
 */
function namer(plan: EnginePlan): (pid: number, comm: string, sector: number, write: boolean) => string {
  const owners = plan.traceOwners ?? []
  return ownerNamer({
    owners,
    engineComm: plan.traceComm ?? plan.command[0]?.split('/').pop() ?? '',
    ...(owners.length === 1 ? { single: owners[0].process } : {}),
  })
}
