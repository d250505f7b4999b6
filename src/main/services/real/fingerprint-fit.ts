import type { SweepName } from '../../../shared/devices/fingerprint-points'
import type { ParamValues } from '../../../shared/util/params'

/** What the sweep measured at one point: the latency (ms) percentiles and the rates. */
export interface SweepPoint {
  name: SweepName
  p50Ms: number
  p99Ms: number
  meanMs: number
  iops: number
  MBps: number
}

export type { SweepName } from '../../../shared/devices/fingerprint-points'

/** A fitted model: its family, the preset it starts from, the fitted values and why each. */
export interface FittedModel {
  model: 'flash' | 'hdd'
  basePreset: string
  values: ParamValues
  sources: Record<string, string>
  /** Why this family. */
  reason: string
}

export interface DeviceFacts {
  sizeBytes: number
  rotational: boolean
  /** queue/max_sectors_kb */
  maxTransferKiB: number | null
}

const r2 = (x: number): number => Math.round(x * 100) / 100
const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x))

/**
 * Choose the family: a QD1 4 KiB random read slower than 1.5 ms needs a seek and rotation (a disk);
 * faster is flash. The kernel's rotational flag is only a hint (loop devices report 1).
 */
export function fitModel(points: readonly SweepPoint[], dev: DeviceFacts): FittedModel {
  const p = (n: SweepName): SweepPoint => {
    const x = points.find((q) => q.name === n)
    if (!x) throw new Error(`the sweep has no "${n}" point`)
    return x
  }
  const rr1 = p('qd1-randread')
  if (rr1.p50Ms > 1.5)
    return fitHdd(p, dev, `QD1 4 KiB random reads take ${r2(rr1.p50Ms)} ms (p50): seeks and rotation, a disk`)
  return fitFlash(
    p,
    dev,
    `QD1 4 KiB random reads take ${r2(rr1.p50Ms)} ms (p50): no mechanics, flash${dev.rotational ? ' (though the kernel marks the device rotational)' : ''}`,
  )
}

function fitFlash(p: (n: SweepName) => SweepPoint, dev: DeviceFacts, reason: string): FittedModel {
  const rr1 = p('qd1-randread')
  const rr32 = p('qd32-randread')
  const rw1 = p('qd1-randwrite')
  const sr = p('seq-read')
  const sw = p('seq-write')
  const commandOverheadUs = 20
  const hostMBps = Math.max(1, sr.MBps * 1.05)
  // parallel units: how much QD32 multiplies QD1's random-read rate
  const units = clamp(Math.round(rr32.iops / Math.max(1, rr1.iops)), 1, 256)
  const channels = Math.min(8, units)
  const diesPerChannel = Math.max(1, Math.ceil(units / channels))
  // the channels together must carry the sequential rate
  const channelMBps = Math.max(400, hostMBps / channels)
  const transferUs = (4096 / (channelMBps * 1e6) + 4096 / (hostMBps * 1e6)) * 1e6
  const readUs = Math.max(1, rr1.p50Ms * 1000 - commandOverheadUs - transferUs)
  // a 4 KiB write acknowledged faster than a read is buffered in DRAM
  const writeBufferKiB = rw1.p50Ms < rr1.p50Ms * 0.8 ? 4096 : 0
  // unbuffered, a QD1 4 KiB write waits for its program; the page size then carries the sequential rate
  const programUs = writeBufferKiB
    ? Math.max(10, ((units * 8 * 1024) / Math.max(1, sw.MBps * 1e6)) * 1e6)
    : Math.max(10, rw1.p50Ms * 1000 - commandOverheadUs - transferUs)
  const pageKiB = writeBufferKiB
    ? 8
    : 2 ** clamp(Math.round(Math.log2((sw.MBps * 1e6 * programUs) / 1e6 / units / 1024)), 2, 6)
  const values: ParamValues = {
    capacityGiB: r2(dev.sizeBytes / 2 ** 30) || 0.25,
    channels,
    diesPerChannel,
    pageKiB,
    readUs: r2(readUs),
    programUs: r2(programUs),
    channelMBps,
    hostMBps: r2(hostMBps),
    commandOverheadUs,
    writeBufferKiB,
    initialFreePct: 100,
    ...(dev.maxTransferKiB ? { maxTransferKiB: dev.maxTransferKiB } : {}),
  }
  const src = (s: string): string => `fitted: ${s}`
  return {
    model: 'flash',
    basePreset: 'ssd-sata-mlc',
    values,
    reason,
    sources: {
      capacityGiB: 'the device size',
      channels: src(
        `QD32 random reads reach ${Math.round(rr32.iops)} IOPS, ${units}× QD1's ${Math.round(rr1.iops)}: ${units} parallel units`,
      ),
      diesPerChannel: src(`${units} parallel units over ${channels} channels`),
      readUs: src(
        `QD1 4 KiB random read p50 ${r2(rr1.p50Ms)} ms − ${commandOverheadUs} µs command overhead − the 4 KiB transfer`,
      ),
      programUs: src(
        `sequential 1 MiB writes at ${r2(sw.MBps)} MB/s over ${units} units of ${pageKiB} KiB pages`,
      ),
      hostMBps: src(`sequential 1 MiB reads at ${r2(sr.MBps)} MB/s (+5 %)`),
      writeBufferKiB: src(
        `QD1 4 KiB writes ${r2(rw1.p50Ms)} ms vs reads ${r2(rr1.p50Ms)} ms: ${writeBufferKiB ? 'buffered' : 'not buffered'}`,
      ),
      initialFreePct:
        '[assumed] a fresh (trimmed) device: the sweep is too short to reach garbage collection',
      commandOverheadUs: '[assumed] the model default',
      channelMBps: src(
        `at least the model default, and enough for ${channels} channels to carry the sequential reads`,
      ),
      pageKiB: writeBufferKiB
        ? '[assumed] the model default'
        : src(
            `the page that lets ${units} units programming in ${r2(programUs)} µs carry ${r2(sw.MBps)} MB/s`,
          ),
    },
  }
}

/** Mean seek time of the lab's two-piece curve over uniformly random start and end (fraction of the stroke). */
export function meanSeekMs(a: number, b: number, c: number, e: number, boundary: number): number {
  const n = 2000
  let sum = 0
  for (let i = 0; i < n; i++) {
    const x = (i + 0.5) / n
    // |U1 − U2| has density 2(1 − x) on [0, 1]
    const t = x <= boundary ? a + b * Math.sqrt(x) : c + e * x
    sum += t * 2 * (1 - x)
  }
  return sum / n
}

function fitHdd(p: (n: SweepName) => SweepPoint, dev: DeviceFacts, reason: string): FittedModel {
  const rr1 = p('qd1-randread')
  const rr32 = p('qd32-randread')
  const rw1 = p('qd1-randwrite')
  const sr = p('seq-read')
  const rpm = 7200
  const halfRotationMs = 30_000 / rpm
  const overheadMs = 0.5
  const seekMs = Math.max(0.5, rr1.meanMs - halfRotationMs - overheadMs)
  const base = { a: 1.0, b: 11.26, c: 2.85, e: 17.15, boundary: 0.108 }
  const k = seekMs / meanSeekMs(base.a, base.b, base.c, base.e, base.boundary)
  const outer = Math.round((sr.MBps * 1e6 * 60) / (rpm * 512))
  const inner = Math.round(outer * 0.55)
  const heads = 4
  const cylinders = Math.max(1, Math.round(dev.sizeBytes / 512 / (heads * ((outer + inner) / 2))))
  const ncq = rr32.iops > rr1.iops * 1.3
  const writeCache = rw1.p50Ms < rr1.p50Ms * 0.5
  const values: ParamValues = {
    rpm,
    heads,
    cylinders,
    outerSectorsPerTrack: outer,
    innerSectorsPerTrack: inner,
    seekModel: 'formula',
    seekUnit: 'fraction',
    seekBoundary: base.boundary,
    seekShortA: r2(base.a * k),
    seekShortB: r2(base.b * k),
    seekLongC: r2(base.c * k),
    seekLongE: r2(base.e * k),
    commandOverheadMs: overheadMs,
    queueDepth: ncq ? 32 : 1,
    writeCacheKiB: writeCache ? 8192 : 0,
    ...(dev.maxTransferKiB ? { maxTransferKiB: dev.maxTransferKiB } : {}),
  }
  return {
    model: 'hdd',
    basePreset: 'hdd-7200-sata',
    values,
    reason,
    sources: {
      rpm: '[assumed] 7200 rpm: the sweep cannot separate rotation from seeking',
      outerSectorsPerTrack: `fitted: sequential 1 MiB reads at ${r2(sr.MBps)} MB/s at the start of the disk`,
      innerSectorsPerTrack: '[assumed] 0.55 × outer, a typical zoning ratio',
      cylinders: 'fitted: the device size over heads × mean sectors per track',
      seekShortA: `fitted: the lab's 2005 seek curve scaled ×${r2(k)} so the mean seek is ${r2(seekMs)} ms (QD1 random read mean ${r2(rr1.meanMs)} ms − half a rotation − overhead)`,
      queueDepth: `fitted: QD32 random reads ${Math.round(rr32.iops)} IOPS vs QD1 ${Math.round(rr1.iops)}: ${ncq ? 'NCQ reorders' : 'no queueing'}`,
      writeCacheKiB: `fitted: QD1 4 KiB writes ${r2(rw1.p50Ms)} ms vs reads ${r2(rr1.p50Ms)} ms: ${writeCache ? 'write cache on' : 'write-through'}`,
    },
  }
}
