import { Engine } from '../sim/engine'
import type { Handler } from '../sim/engine'
import { Rng } from '../sim/rng'
import { MS, SECOND, US } from '../sim/time'
import { BlockQueue } from '../block/queue'
import { createDevice } from '../devices/registry'
import { Kernel } from '../host/kernel'
import type { Task } from '../host/task'
import { findScheduler } from '../schedulers/registry'
import type { SchedulerType } from '../schedulers/scheduler'
import { findWorkload } from '../workloads/registry'
import { withProcessMemory } from '../workloads/process-memory'
import { LatencyHistogram, summarizeLatency } from '../metrics/histogram'
import type { LatencyHistogramJSON } from '../metrics/histogram'
import { RunCollector } from './collector'
import { ProgressTracker } from './progress-tracker'
import { RequestTap } from './request-tap'
import type { RequestRecord } from './request-tap'
import type { ResolvedSpec } from './resolved'
import type { ProcessResult, RunResult } from './result'
import type { RunWhy } from '../metrics/why'

export interface RunHooks {
  /** Called every so often with the fraction done (0…1) and the simulated seconds so far. */
  progress?(fraction: number, simSeconds: number): void
  /**
   * Keep the run's "why" (RunResult.why: stages and decisions per process). Default true; false
   * saves its bookkeeping on the hot path. The rest of the result is the same either way.
   */
  why?: boolean
  /**
   * Each completed request's stages and D2C parts, as the why accounted them (tests: the run keeps
   * histograms only). Needs the why. A run without it collects through RunCollector alone.
   */
  requests?(r: RequestRecord): void
}

/**
 * Events between calls of the progress hook: about 0.1 s of CPU time on the heaviest models, so a
 * hook that must act soon — a simulation child checking that its parent is still there — can.
 */
const SLICE_EVENTS = 25_000

/** The seed of one repetition: every scheduler sees the same workload randomness. */
export const runSeed = (spec: ResolvedSpec, repetition: number): number =>
  (spec.seed * 1_000_003 + repetition * 7919) % Number.MAX_SAFE_INTEGER

/**
 * Run one scheduler entry of an experiment, one repetition: a pure function of the spec, the
 * entry and the repetition number — the same inputs give the same result, byte for byte, in any
 * process.
 */
export function simulate(
  spec: ResolvedSpec,
  schedIndex: number,
  repetition = 0,
  hooks: RunHooks = {},
): RunResult {
  const entry = spec.schedulers[schedIndex]
  if (!entry) throw new Error(`no scheduler entry ${schedIndex} in this experiment`)
  const type = findScheduler(entry.name)!
  const seed = runSeed(spec, repetition)
  const rng = new Rng(seed)
  const engine = new Engine()
  const hv = spec.host.values
  const queue = new BlockQueue(
    engine,
    {
      nrRequests: nrRequestsOf(spec),
      layer: type.layer,
      hz: hv.hz as number,
      cpuPerRequest: Math.round(((type.cpuCost?.default as number) ?? 0) * US * (hv.schedCpuScale as number)),
      scheduler: type.name,
      driverTags: type.driverTags ?? false,
      wbtLatNs: wbtLatNsOf(spec, type),
    },
    rng.fork('block'),
  )
  const device = createDevice(
    spec.device.model,
    spec.device.values,
    {
      engine,
      sink: queue,
      rng: rng.fork('device'),
      hz: hv.hz as number,
      folioKiB: hv.largeFolioKiB as number,
    },
    spec.device.preset,
  )
  queue.setDevice(device)
  queue.setScheduler(type.create(entry.tunables, queue))
  if (hooks.requests && hooks.why === false) throw new Error('a run without the why has no request records')
  const collector = hooks.requests ? new RequestTap(hooks.requests) : new RunCollector(hooks.why ?? true)
  collector.stages?.useParts(device.parts ?? [], device.takeParts)
  queue.observer = collector
  // the machinery's waits (block/waits.ts), kept with the why
  if (collector.stages !== null) queue.waits = collector
  // a device splits its service time into parts only for a run that keeps them
  queue.wantsParts = collector.stages !== null && (device.parts?.length ?? 0) > 0
  const kernel = new Kernel(engine, queue, hv, rng.fork('host'), spec.host.filesystem)
  // a device whose own I/O path runs on the host's CPUs (a loop device's worker) gets them now
  queue.dev.attachCpu?.(kernel.cpu)

  for (const f of spec.files)
    kernel.addFile({
      name: f.name,
      size: f.size,
      at: f.atSector,
      extentBytes: f.extentBytes,
      gapBytes: f.gapBytes,
    })

  // Spawn every process; each starts with an event at its start time.
  const tasks: Task[] = []
  const specName = new Map<Task, string>()
  const starter: Handler = { onEvent: (_k, t) => (t as Task).start() }
  for (const p of spec.processes) {
    const w = findWorkload(p.type)!
    const env = {
      name: p.name,
      deviceBytes: queue.deviceInfo.capacitySectors * 512,
      file: (n: string) => (n === '/dev' ? kernel.rawDevice() : kernel.file(n)!),
      bufferedDevice: (bytes: number) => kernel.bufferedDevice(bytes),
      rng: (label: string) => rng.fork(`setup:${p.name}:${label}`),
    }
    for (const inst of w.create(p.params, env)) {
      const program = withProcessMemory(inst.program, p.memory, hv, env.rng(`memory${inst.suffix}`))
      const t = kernel.spawn(p.name + inst.suffix, program, {
        ioClass: p.ioClass,
        ioLevel: p.ioLevel,
        nice: p.nice,
      })
      specName.set(t, p.name)
      tasks.push(t)
      engine.at(Math.round(p.startMs * MS), starter, 0, t)
    }
  }

  // Stop when every task of the named processes has exited, or at the time limit.
  const watched = tasks.filter((t) => spec.stop.processes.includes(specName.get(t)!))
  let remaining = watched.length
  let stoppedBy: RunResult['stoppedBy'] = 'time-limit'
  // a set, not a search of the list at each exit (n exits × n processes)
  const isWatched = new Set(watched)
  kernel.onExit = (t) => {
    if (isWatched.has(t) && --remaining === 0) {
      stoppedBy = 'processes'
      engine.stop()
    }
  }
  kernel.start()
  const limit = Math.round(spec.stop.maxSeconds * SECOND)
  const progress = new ProgressTracker(watched)
  while (!engine.isStopped && engine.pending > 0 && engine.peekTime() <= limit) {
    engine.run(limit, SLICE_EVENTS)
    hooks.progress?.(progress.fraction(engine.now, limit), engine.now / SECOND)
  }
  if (!engine.isStopped) {
    if (engine.pending === 0 || engine.peekTime() > limit) {
      if (engine.pending === 0) stoppedBy = 'idle'
      engine.run(limit)
    }
  }
  const end = engine.now
  // each process's preemptions by lag (EEVDF hosts), into its account: the why's
  const lags = kernel.cpu.lagPreemptions
  if (lags !== null && collector.stages !== null)
    for (const t of tasks) {
      const l = lags.of(t.pid, end)
      const a = collector.stages.named(t.name)
      if (l === undefined || a === undefined) continue
      const into = (a.lag ??= { busyWakeups: 0, preempts: 0, preempted: 0, waitedNs: 0 })
      into.busyWakeups += l.busyWakeups
      into.preempts += l.preempts
      into.preempted += l.preempted
      into.waitedNs += l.waitedNs
    }

  const processes: ProcessResult[] = tasks.map((t) => {
    const start = Math.max(0, t.startedAt)
    const stopAt = t.clockStoppedAt >= 0 ? t.clockStoppedAt : t.finishedAt >= 0 ? t.finishedAt : end
    const secs = Math.max(0, stopAt - start) / SECOND
    const bytes = t.bytesRead + t.bytesWritten
    return {
      name: t.name,
      pid: t.pid,
      bytes,
      readBytes: t.bytesRead,
      writeBytes: t.bytesWritten,
      seconds: secs,
      MBps: secs > 0 ? bytes / 1e6 / secs : 0,
      ops: t.ops,
      finished: t.finishedAt >= 0,
      startSeconds: t.startedAt >= 0 ? t.startedAt / SECOND : -1,
      cpuSeconds: (t.cpuTime + t.childCpuTime) / SECOND,
      latencyMs: summarizeLatency(t.latency),
      latency: t.latency.toJSON(),
      time: t.stoppedTime ?? t.timeAt(stopAt, t.cpuTime),
      ...(t.program.phases ? { phases: t.program.phases() } : {}),
    }
  })
  return {
    schema: 'iosched-lab/run@1',
    label: entry.label,
    scheduler: entry.name,
    tunables: entry.tunables,
    source: 'simulated',
    repetition,
    seed,
    device: spec.device.preset,
    seconds: end / SECOND,
    stoppedBy,
    processes,
    totals: {
      ...collector.totals(end),
      ...(device.seekCylinders !== undefined ? { seekCylinders: device.seekCylinders } : {}),
    },
    timeSeries: collector.series.finish(end),
    processSeries: collector.processSeries(end, new Map(processes.map((p) => [p.pid, p.name]))),
    dispatches: collector.sample.toJSON(),
    ...collector.latencies(),
    ...measured(spec),
    ...whyOf(collector),
    sim: { events: engine.executed, requests: queue.completedCount },
  }
}

function whyOf(c: RunCollector): { why?: RunWhy } {
  const why = c.why()
  return why ? { why } : {}
}

/** queue/nr_requests: the device's own when its preset carries one (a fingerprint read it), else the host's. */
/**
 * Writeback throttling's target, ns (BlockParams.wbtLatNs): blk-mq elevators that leave it on, the
 * device's own wbt_lat_usec where it carries one, else the host's (−1: the kernel's default).
 */
function wbtLatNsOf(spec: ResolvedSpec, type: SchedulerType): number {
  if (type.layer !== 'mq' || type.disablesWbt) return 0
  const own = spec.device.values.wbtLatUs
  const us = typeof own === 'number' && own >= 0 ? own : (spec.host.values.wbtLatUs as number)
  return us < 0 ? -1 : Math.round(us * US)
}

function nrRequestsOf(spec: ResolvedSpec): number {
  const own = spec.device.values.nrRequests
  return typeof own === 'number' && own > 0 ? own : (spec.host.values.nrRequests as number)
}

/** A replayed trace's measured D→C times, kept beside the simulated ones. */
function measured(spec: ResolvedSpec): { measuredServiceLatency?: LatencyHistogramJSON } {
  const h = new LatencyHistogram()
  for (const p of spec.processes)
    for (const ns of findWorkload(p.type)!.measuredServiceNs?.(p.params) ?? []) h.record(ns)
  return h.count > 0 ? { measuredServiceLatency: h.toJSON() } : {}
}
