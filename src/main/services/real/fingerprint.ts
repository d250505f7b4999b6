import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type { ProcessResult } from '../../../shared/experiment/result'
import { resolveSpec } from '../../../shared/experiment/validate'
import { median, pairedT } from '../../../shared/metrics/stats'
import { fitSweep } from './fingerprint-document'
import { fitPointOf, mergePasses, noiseOf } from './fingerprint-passes'
import type { SchedulerPoint } from './fit-scheduler-cost'
import { COST_SCHEDULERS } from './fit-scheduler-cost'
import { captureHost } from './host-capture'
import type { QueueFacts } from './queue-facts'
import { readQueueFacts } from './queue-facts'
import { interruptCpu, perInterrupt, signalCounts } from './virtio-signal'
import type { RealExperimentEvents } from './real-experiment'
import { MEASURING, RealExperimentRunner } from './real-experiment'
import type { RealRunResult, RealTargetInfo } from './real-result'
import { deviceName, sysBlockDir, readSys } from './sysfs'
import { offeredOf } from './kernel-offers'
import type { TargetRequest } from './target'
import { DEFAULT_SCRATCH_BYTES } from './target'
import { dispatchFacts, measureDispatch, runDispatchProbe } from './dispatch-probe'
import { idleWakeHost } from './idle-wake-trace'
import { measureFreshPages } from './fresh-page-probe'
import { Journal } from './journal'
import { labStateDir } from './state-dir'
import { schedulerSweepSpec, sweepSpec } from './fingerprint-sweep'

export { VIRTUAL_BASE, residualSize, schedulerSweepSpec, sweepSpec } from './fingerprint-sweep'

import type { FingerprintOptions, PresetDocument } from './fingerprint-types'

export type { FingerprintOptions, PointResidual, PresetDocument } from './fingerprint-types'

/**
 * The CPUs the sweep kept busy over a process's own time in a run (from the sampled /proc/stat),
 * less the machine's background (other programs, the lab itself): at most what its quietest
 * sample of the run had busy. (Not the samples before fio's first I/O: fio's start-up is busy —
 * measured here 0.82 CPUs in the first quarter second, more than the QD32 reads' 0.66 — which
 * took the whole path time away.)
 */
export function busyDuring(run: RealRunResult, p: ProcessResult): number | null {
  const v = run.real.vmstat
  if (!v.busyCpus || v.busyCpus.length === 0 || run.real.ioStartMs === null) return null
  const from = run.real.ioStartMs + p.startSeconds * 1000
  const to = from + p.seconds * 1000
  const step = v.tMs.length > 1 ? v.tMs[1] - v.tMs[0] : 500
  let sum = 0
  let n = 0
  let quietest = Infinity
  for (let i = 0; i < v.tMs.length; i++) {
    if (v.tMs[i] >= run.real.ioStartMs) quietest = Math.min(quietest, v.busyCpus[i])
    if (v.tMs[i] >= from && v.tMs[i] + step <= to) {
      sum += v.busyCpus[i]
      n++
    }
  }
  if (n === 0) return null
  return Math.max(0, sum / n - (Number.isFinite(quietest) ? quietest : 0))
}

/** The bytes a sweep's random points spread over by default: the whole device, at most 8 GiB. */
export function sweepRegion(sizeBytes: number): number {
  return Math.min(sizeBytes || DEFAULT_SCRATCH_BYTES, 8 * 2 ** 30)
}

/**
 * Fingerprint a device: run the sweep for real (scheduler `none`, page cache dropped), fit the
 * model of its kind (a virtual device — loop, virtio, device-mapper — the virtual model, fitted by
 * re-simulating the sweep; a disk or flash device their own models), run the same sweep in the
 * simulator on the fitted model, and report per point how far it is and whether that is within
 * the point's noise. Writes to the target: a scratch loop device or a confirmed free one.
 */
export async function fingerprintDevice(
  o: FingerprintOptions = {},
  ev: RealExperimentEvents = {},
): Promise<PresetDocument> {
  const seconds = o.seconds ?? 3
  const passes = Math.max(1, Math.round(o.passes ?? 3))
  const req: TargetRequest = o.target ?? { kind: 'scratch' }
  if (req.kind === 'dir')
    throw new Error(
      'a fingerprint measures a device, not a file on a file system: use a scratch loop device or a whole device',
    )
  // the device size decides the region the random points spread over
  const size =
    req.kind === 'scratch'
      ? (req.sizeBytes ?? DEFAULT_SCRATCH_BYTES)
      : Number(readSys(`${sysBlockDir(req.name.replace(/^\/dev\//, ''))}/size`) ?? 0) * 512
  const region = o.regionBytes ?? sweepRegion(size)
  const spec = resolveSpec(sweepSpec(seconds, region, { preset: 'ssd-sata-mlc' }, undefined, passes))
  let target: RealTargetInfo | null = null
  let queue: QueueFacts | null = null
  const runner = o.runner ?? new RealExperimentRunner()
  const targetReq: TargetRequest = req.kind === 'scratch' ? { ...req, sizeBytes: size } : req
  const r = await runner.run(
    spec,
    {
      ...MEASURING,
      target: targetReq,
      stateDir: o.stateDir,
      sampleMs: 250,
    },
    {
      ...ev,
      targetReady: (t) => {
        target = t
        // read while the device exists (a scratch device goes at the end)
        queue = readQueueFacts(t.name)
        ev.targetReady?.(t)
      },
    },
  )
  const runs = r.runs as RealRunResult[]
  if (runs.length === 0) throw new Error('the sweep did not run (see the messages above)')
  const t = target ?? runs[0].real.target
  const q = queue ?? readQueueFacts(t.name)
  const perPass = runs.map((run) => run.processes.map((p) => fitPointOf(p, busyDuring(run, p))))
  const names = perPass[0].map((p) => p.name)
  const measured = names.map((n) => mergePasses(perPass.map((ps) => ps.find((p) => p.name === n)!)))
  const noise = Object.fromEntries(
    names.map((n) => [n, noiseOf(perPass.map((ps) => ps.find((p) => p.name === n)!))]),
  )
  const host = captureHost({ readAheadKiB: q.readAheadKiB, nrRequests: q.nrRequests, device: t.name })
  // after the sweep, whose points it must not disturb: the cost of memory the guest reported
  const probed = await measureFreshPages(host, o.freshPageProbe, ev.notice)
  // the probe's price of a MiB of reported memory tells the buffered point's fresh writes from
  // writes slow for another reason (fit-fresh-pages.ts freshWrites)
  if (probed)
    for (const p of measured)
      if (p.name === 'buffered-write') p.freshExcessNs = 256 * (host.overrides.freshPageUs as number) * 1000
  // a loop device's worker: what handing a request to the disk under it costs; and in the same
  // trace, how long a task woken for an idle CPU waits for it — host values, kept as captured
  if (q.kind === 'loop' && o.dispatchProbe !== false) {
    const journal = new Journal(o.stateDir ?? labStateDir())
    const parentDir = req.kind === 'scratch' ? req.parentDir : undefined
    const traced = await runDispatchProbe(o.dispatchProbe ?? (() => measureDispatch({ journal, parentDir })))
    const notice = ev.notice ?? (() => {})
    const d = dispatchFacts(q, traced, notice)
    if (d) q.dispatch = d
    idleWakeHost(host, typeof traced === 'string' ? traced : traced.wake, notice)
  }
  const virtual = q.kind === 'loop' || q.kind === 'virtio' || q.kind === 'device-mapper'
  const schedMeasured: SchedulerPoint[] = []
  // only the schedulers this kernel has (BFQ is optional): one it lacks would only fail each pass
  const costSchedulers = offeredOf(
    COST_SCHEDULERS,
    targetReq.kind === 'device' ? deviceName(targetReq.name) : undefined,
  ).offered
  if (virtual && (o.schedulerPoints ?? true) && costSchedulers.length > 0) {
    // none runs in each pass too, just before the others: each scheduler's cost is its rate
    // against none's of the same pass (the machine's rate drifts over minutes)
    const sspec = resolveSpec(
      schedulerSweepSpec(
        seconds,
        region,
        { preset: 'ssd-sata-mlc' },
        undefined,
        ['none', ...costSchedulers],
        passes,
      ),
    )
    // how the virtio disk that serves the requests signals them, over these deep queues
    const serving = q.kind === 'virtio' ? q.device : (q.loop?.disk?.device ?? null)
    const before = signalCounts(serving)
    const sr = await runner.run(
      sspec,
      { ...MEASURING, target: targetReq, stateDir: o.stateDir, sampleMs: 250 },
      ev,
    )
    const after = signalCounts(serving)
    const ratio = perInterrupt(before, after)
    const irqCpu = interruptCpu(before, after)
    if (serving !== null && ratio !== null)
      q.signal = {
        disk: serving,
        perInterrupt: ratio,
        during: 'the QD32 4 KiB random reads of the scheduler points',
        ...(irqCpu !== null ? { irqCpu } : {}),
      }
    const runsOf = (label: string): RealRunResult[] =>
      (sr.runs as RealRunResult[]).filter((run) => run.label === label && run.processes.length > 0)
    const noneByPass = new Map(runsOf('none').map((run) => [run.repetition, run.processes[0]]))
    for (const sched of costSchedulers) {
      const runs = runsOf(sched)
      const ps = runs.map((run) => fitPointOf(run.processes[0], busyDuring(run, run.processes[0])))
      if (ps.length === 0) continue
      const point = { ...mergePasses(ps), name: 'qd32-randread' as const }
      const diffs = runs.flatMap((run) => {
        const n = noneByPass.get(run.repetition)
        const rate = (p: { ops: number; seconds: number }): number => p.ops / p.seconds
        return n && rate(n) > 0 && rate(run.processes[0]) > 0
          ? [1e6 / rate(run.processes[0]) - 1e6 / rate(n)]
          : []
      })
      const p = pairedT(diffs).p
      const paired =
        diffs.length > 0
          ? { pairedUs: median(diffs), pairs: diffs.length, ...(Number.isNaN(p) ? {} : { pairedP: p }) }
          : {}
      schedMeasured.push({ scheduler: sched, point, ...paired })
      noise[`qd32-randread@${sched}`] = noiseOf(ps)
    }
  }
  // the fit corrects a copy of the host: the document keeps it as captured and measured, what
  // fitting again starts from (fingerprint-refit.ts)
  const name = o.name ?? `fingerprint-${t.name}-${new Date().toISOString().slice(0, 10)}`
  const doc = fitSweep(
    {
      target: t,
      queue: q,
      seconds,
      passes,
      regionBytes: region,
      points: measured,
      noise,
      probed,
      capturedHost: host,
    },
    { kind: 'measured', points: schedMeasured },
    name,
  )
  if (o.out) {
    mkdirSync(dirname(o.out), { recursive: true })
    writeFileSync(o.out, JSON.stringify(doc, null, 2) + '\n')
  }
  return doc
}
