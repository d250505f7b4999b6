import type { ResolvedSpec } from '../../../shared/experiment/resolved'
import { LatencyHistogram } from '../../../shared/metrics/histogram'
import { DiskSampler } from './disk-sampler'
import { RunTrace } from './run-trace'
import type { RequestRecord } from '../../../shared/experiment/request-tap'
import type { CancelState, EnginePlan } from './engine-plan'
import { CancelledError } from './engine-plan'
import type { Journal } from './journal'
import type { TunableWrite } from './kernel-schedulers'
import { allocatesAsItRuns, dropPageCache, settleFreePageReporting } from './page-cache'
import type { RealRunResult, RealTargetInfo } from './real-result'
import {
  readSchedulers,
  restoreScheduler,
  snapshotScheduler,
  switchScheduler,
  writeTunable,
} from './scheduler-control'
import { readSys, sysBlockDir } from './sysfs'
import { captureSystemInfo } from './system-info'
import type { RealSystemInfo } from '../../../shared/experiment/real-system'

export interface RunOnceInput {
  spec: ResolvedSpec
  schedIndex: number
  repetition: number
  kernel: string
  writes: readonly TunableWrite[]
  mappingNotes: readonly string[]
  target: RealTargetInfo
  journal: Journal
  plan: EnginePlan
  engineVersion: string
  sampleMs: number
  /** The run's time limit, s (the spec's, or the override). */
  maxSeconds: number
  dropCaches: boolean
  /**
   * Trace the run with blktrace (when installed) for its request stages, dispatches and
   * per-process throughput, into a directory under `workDir`; false: switched off.
   */
  trace?: { workDir: string } | false
  cancel: CancelState
  progress?(fraction: number | null, etaSeconds: number | null, line: string): void
  /** What the run is doing before the engine's first progress (dropping caches, switching …). */
  phase?(what: string): void
  /** Each traced request's stages, as the run recorded them (tests check they add up). */
  requests?(r: RequestRecord): void
}

/**
 * One real run — one scheduler entry, one repetition: drop the page cache, note the device's
 * scheduler and tunables in the journal, switch and verify, write the tunables, run the engine
 * while sampling /proc, then restore (always: on success, error and cancel) and read the results
 * into the shared RunResult shape.
 */
export async function runOnce(i: RunOnceInput): Promise<RealRunResult> {
  const dev = i.target.name
  const entry = i.spec.schedulers[i.schedIndex]
  let settled: string | null = null
  if (i.dropCaches) {
    i.phase?.('dropping the page cache (sync, drop_caches)')
    await dropPageCache()
    // (only where the run allocates memory as it goes: what touching fresh memory costs matters there)
    if (allocatesAsItRuns(i.spec))
      settled = await settleFreePageReporting({
        cancelled: () => i.cancel.cancelled,
        phase: i.phase,
      })
  }
  if (i.cancel.cancelled) throw new CancelledError()
  const original = snapshotScheduler(dev)
  const dir = sysBlockDir(dev)
  i.journal.addDevice({
    name: dev,
    majMin: readSys(`${dir}/dev`) ?? '',
    loopBackingFile: readSys(`${dir}/loop/backing_file`),
    original,
    switchedTo: i.kernel,
  })
  let sampler: DiskSampler | null = null
  let trace: RunTrace | null = null
  let result: RealRunResult | undefined
  let failure: { error: unknown } | null = null
  try {
    result = await measure()
  } catch (e) {
    failure = { error: e }
  }
  // a sampler that never started has nothing to stop (its stop would summarise no samples);
  // nothing here may keep the device from being put back
  if (sampler)
    try {
      ;(sampler as DiskSampler).stop()
    } catch {
      // its figures are not needed after a failure
    }
  // a tracer that cannot be removed must not keep the device from being put back
  let traceProblem: string | null = null
  if (trace)
    try {
      await (trace as RunTrace).dispose()
    } catch (e) {
      traceProblem = `${(e as Error).message} — \`iosched-lab doctor\` removes it`
    }
  // always put the device back: after success, error and cancel alike
  const r = restoreScheduler(dev, original)
  let restoreProblem: string | null = traceProblem
  if (r.problems.length === 0) i.journal.removeDevice(dev)
  else
    restoreProblem =
      `could not restore ${dev} to ${original.scheduler}: ${r.problems.join('; ')} — ` +
      `the journal (${i.journal.path}) keeps it: run \`iosched-lab doctor\`` +
      (traceProblem ? `; ${traceProblem}` : '')
  if (failure) {
    if (restoreProblem && failure.error instanceof Error) failure.error.message += `\nalso: ${restoreProblem}`
    throw failure.error
  }
  if (restoreProblem) throw new Error(restoreProblem)
  return result as RealRunResult

  async function measure(): Promise<RealRunResult> {
    i.phase?.(`switching ${dev} to ${i.kernel}`)
    switchScheduler(dev, i.kernel)
    const written: Record<string, string> = {}
    for (const w of i.writes) {
      // what the kernel holds (ms values are kept in jiffies and may come back rounded)
      written[w.file] = writeTunable(dev, w.file, w.text, w.unit === 'ms' ? 10 : 0)
    }
    // the machine and device as this run has them (the queue's nr_requests follows the scheduler)
    let system: RealSystemInfo | undefined
    try {
      const f = i.target.file
      system = captureSystemInfo(
        dev,
        undefined,
        f ? { path: i.target.path, blockDevice: f.blockDevice } : undefined,
      )
    } catch {
      // every read is guarded; should one still throw, the run goes on without the facts
    }
    let observed: string | null = null
    const observe = (): void => {
      if (observed === null) observed = readSchedulers(dev).active
    }
    const disk = new DiskSampler(dev, i.sampleMs, 50, observe)
    // tracing starts before the sampling, and marks the sampling's start as its t = 0
    trace = await RunTrace.start(dev, {
      trace: i.trace,
      plan: i.plan,
      journal: i.journal,
      cancel: i.cancel,
      phase: i.phase,
      requests: i.requests,
    })
    if (i.cancel.cancelled) throw new CancelledError()
    i.phase?.(i.plan.engine === 'fio' ? 'starting fio: laying out its jobs' : `starting ${i.plan.engine}`)
    sampler = disk
    disk.start()
    trace.markStart()
    const out = await i.plan.execute({
      journal: i.journal,
      cancel: i.cancel,
      progress: (f, e, l) => i.progress?.(f, e, l),
    })
    observe()
    // the workload's own duration: fio spends most of a second setting up before any I/O
    const duration = Math.max(0, ...out.processes.map((p) => p.startSeconds + p.seconds))
    const samples = sampler.stop(duration > 0 ? duration : undefined)
    sampler = null
    const { why, traced, complete, cost } = await trace.finish(i.phase)
    if (i.cancel.cancelled) throw new CancelledError()
    const ioStartMs =
      out.endWallMs !== undefined && duration > 0
        ? Math.max(0, out.endWallMs - duration * 1000 - samples.startWallMs)
        : null
    const stopFinished = out.processes.filter((p) =>
      i.spec.stop.processes.includes(p.name.replace(/\/\d+$/, '')),
    )
    return {
      schema: 'iosched-lab/run@1',
      label: entry.label,
      scheduler: entry.name,
      tunables: entry.tunables,
      source: 'real',
      repetition: i.repetition,
      seed: i.spec.seed,
      device: i.target.path,
      seconds: samples.seconds,
      stoppedBy:
        stopFinished.length > 0 && stopFinished.every((p) => p.finished) ? 'processes' : 'time-limit',
      processes: out.processes,
      totals:
        traced && complete
          ? { ...samples.totals, seeks: traced.seeks, meanSeekSectors: traced.meanSeekSectors }
          : samples.totals,
      timeSeries: samples.timeSeries,
      ...(traced
        ? { processSeries: traced.processSeries(samples.timeSeries.tMs, samples.timeSeries.intervalMs) }
        : {}),
      dispatches: traced?.dispatches ?? { stride: 1, tMs: [], sector: [], nsect: [], op: [], pid: [] },
      why,
      // per-request latencies are not observable from /proc (the trace's are in `why`)
      requestLatency: new LatencyHistogram().toJSON(),
      serviceLatency: new LatencyHistogram().toJSON(),
      real: {
        engine: i.plan.engine,
        engineVersion: i.engineVersion,
        target: i.target,
        kernelScheduler: i.kernel,
        observedScheduler: observed,
        tunablesWritten: written,
        command: i.plan.command,
        jobFile: i.plan.jobFile,
        notes: [...i.mappingNotes, ...i.plan.notes, ...(settled ? [settled] : []), ...(cost ? [cost] : [])],
        maxSeconds: i.maxSeconds,
        vmstat: samples.vmstat,
        ioStartMs,
        diskUtil: out.diskUtil,
        ...(system ? { system } : {}),
      },
    }
  }
}
