import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type { ProcessResult } from '../../../shared/experiment/result'
import { simulate } from '../../../shared/experiment/runner'
import { resolveSpec } from '../../../shared/experiment/validate'
import type { ParamValues } from '../../../shared/util/params'
import { rmsCdfDistance } from './cdf-distance'
import type { DeviceFacts, FittedModel, SweepName, SweepPoint } from './fingerprint-fit'
import { fitModel } from './fingerprint-fit'
import type { RealExperimentEvents } from './real-experiment'
import { RealExperimentRunner } from './real-experiment'
import type { RealRunResult, RealTargetInfo } from './real-result'
import { readSys, sysBlockDir } from './sysfs'
import type { TargetRequest } from './target'
import { DEFAULT_SCRATCH_BYTES } from './target'

/** The sweep: what each point does (fio workload parameters of the lab's spec). */
const SWEEP: { name: SweepName; params: ParamValues }[] = [
  { name: 'qd1-randread', params: { rw: 'randread', bs: '4k', iodepth: 1, ioengine: 'psync' } },
  { name: 'qd32-randread', params: { rw: 'randread', bs: '4k', iodepth: 32, ioengine: 'libaio' } },
  { name: 'qd1-randwrite', params: { rw: 'randwrite', bs: '4k', iodepth: 1, ioengine: 'psync' } },
  { name: 'qd32-randwrite', params: { rw: 'randwrite', bs: '4k', iodepth: 32, ioengine: 'libaio' } },
  { name: 'seq-read', params: { rw: 'read', bs: '1M', iodepth: 4, ioengine: 'libaio' } },
  { name: 'seq-write', params: { rw: 'write', bs: '1M', iodepth: 4, ioengine: 'libaio' } },
]

const GAP_MS = 200

/**
 * The sweep as a lab experiment: one fio-like process per point, one after another (each starts
 * when the previous one's time is up), O_DIRECT on the raw device. The same spec runs for real
 * (fio) and in the simulator with the fitted model, so both sides do exactly the same I/O.
 */
export function sweepSpec(
  seconds: number,
  regionBytes: number,
  device: { preset: string; overrides?: ParamValues },
): object {
  const step = seconds * 1000 + GAP_MS
  return {
    name: 'fingerprint',
    description: 'QD1 and QD32 4 KiB random reads and writes, 1 MiB sequential reads and writes',
    device,
    workload: {
      processes: SWEEP.map((s, i) => ({
        name: s.name,
        type: 'fio',
        params: {
          ...s.params,
          direct: true,
          filename: '/dev',
          size: regionBytes,
          time_based: true,
          runtime: seconds,
        },
        startMs: i * step,
      })),
      stop: { maxSeconds: (SWEEP.length * step) / 1000 },
    },
    schedulers: ['noop'],
  }
}

const pointOf = (p: ProcessResult): SweepPoint => ({
  name: p.name as SweepName,
  p50Ms: p.latencyMs.p50,
  p99Ms: p.latencyMs.p99,
  meanMs: p.latencyMs.mean,
  iops: p.seconds > 0 ? p.ops / p.seconds : 0,
  MBps: p.MBps,
})

/** A custom device preset file: the fitted model, how it was measured, and how well it fits. */
export interface PresetDocument {
  schema: 'iosched-lab/device-preset@1'
  name: string
  model: 'flash' | 'hdd'
  /** A built-in preset of the same model the values override. */
  basePreset: string
  description: string
  values: ParamValues
  sources: Record<string, string>
  measured: { target: RealTargetInfo; seconds: number; points: SweepPoint[] }
  simulated: { points: SweepPoint[] }
  /** RMS horizontal distance between measured and simulated latency CDFs, per point. */
  fit: Record<string, { ms: number; relative: number }>
  /** Paste into a spec to simulate this device today (no registration needed). */
  specDevice: { preset: string; overrides: ParamValues }
}

export interface FingerprintOptions {
  target?: TargetRequest
  /** Seconds per sweep point (default 3). */
  seconds?: number
  /** Bytes of the device the random points spread over (default: all of it, at most 8 GiB). */
  regionBytes?: number
  name?: string
  stateDir?: string
  /** Where to save the preset file (nothing saved when absent). */
  out?: string
  /** Pass one to be able to cancel (its `cancel()` restores the device). */
  runner?: RealExperimentRunner
}

/**
 * Fingerprint a device: run the sweep for real (scheduler `none`, page cache dropped), fit the
 * flash or HDD model to it, run the same sweep in the simulator on the fitted model, and report
 * the CDF distance per point. Writes to the target: a scratch loop device or a confirmed free one.
 */
export async function fingerprintDevice(
  o: FingerprintOptions = {},
  ev: RealExperimentEvents = {},
): Promise<PresetDocument> {
  const seconds = o.seconds ?? 3
  const req: TargetRequest = o.target ?? { kind: 'scratch' }
  // the device size decides the region the random points spread over
  const size =
    req.kind === 'scratch'
      ? (req.sizeBytes ?? DEFAULT_SCRATCH_BYTES)
      : Number(readSys(`${sysBlockDir(req.name.replace(/^\/dev\//, ''))}/size`) ?? 0) * 512
  const region = o.regionBytes ?? Math.min(size || DEFAULT_SCRATCH_BYTES, 8 * 2 ** 30)
  const spec = resolveSpec(sweepSpec(seconds, region, { preset: 'ssd-sata-mlc' }))
  let target: RealTargetInfo | null = null
  const r = await (o.runner ?? new RealExperimentRunner()).run(
    spec,
    { target: req.kind === 'scratch' ? { ...req, sizeBytes: size } : req, stateDir: o.stateDir },
    {
      ...ev,
      targetReady: (t) => {
        target = t
        ev.targetReady?.(t)
      },
    },
  )
  const run = r.runs[0] as RealRunResult | undefined
  if (!run) throw new Error('the sweep did not run (see the messages above)')
  const t = target ?? run.real.target
  const points = run.processes.map(pointOf)
  const facts: DeviceFacts = {
    sizeBytes: t.sizeBytes,
    rotational: t.rotational,
    maxTransferKiB: Number(readSys(`${sysBlockDir(t.name)}/queue/max_sectors_kb`)) || null,
  }
  const fitted: FittedModel = fitModel(points, facts)
  const simSpec = resolveSpec(
    sweepSpec(seconds, region, { preset: fitted.basePreset, overrides: fitted.values }),
  )
  const sim = simulate(simSpec, 0, 0)
  const simPoints = sim.processes.map(pointOf)
  const fit: PresetDocument['fit'] = {}
  for (const p of run.processes) {
    const s = sim.processes.find((x) => x.name === p.name)
    if (s) fit[p.name] = rmsCdfDistance(p.latency, s.latency)
  }
  const name = o.name ?? `fingerprint-${t.name}-${new Date().toISOString().slice(0, 10)}`
  const doc: PresetDocument = {
    schema: 'iosched-lab/device-preset@1',
    name,
    model: fitted.model,
    basePreset: fitted.basePreset,
    description: `${fitted.model === 'hdd' ? 'Disk' : 'Flash device'} fitted to ${t.description} (${fitted.reason})`,
    values: fitted.values,
    sources: fitted.sources,
    measured: { target: t, seconds, points },
    simulated: { points: simPoints },
    fit,
    specDevice: { preset: fitted.basePreset, overrides: fitted.values },
  }
  if (o.out) {
    mkdirSync(dirname(o.out), { recursive: true })
    writeFileSync(o.out, JSON.stringify(doc, null, 2) + '\n')
  }
  return doc
}
