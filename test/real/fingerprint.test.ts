import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { resolveSpec } from '../../src/shared/experiment/validate'
import { LatencyHistogram } from '../../src/shared/metrics/histogram'
import { rmsCdfDistance } from '../../src/shared/metrics/cdf-distance'
import type { SweepPoint } from '../../src/main/services/real/fingerprint-fit'
import { fitModel, meanSeekMs } from '../../src/main/services/real/fingerprint-fit'
import type { PresetDocument } from '../../src/main/services/real/fingerprint'
import { fingerprintDevice, sweepSpec } from '../../src/main/services/real/fingerprint'
import { refitFingerprint } from '../../src/main/services/real/fingerprint-refit'
import { FINGERPRINT_POINTS } from '../../src/shared/devices/fingerprint-points'
import { KERNEL_OFFERED, cleanupDir, describeReal, loopsUnder, tempDir } from './real-env'

const pt = (name: SweepPoint['name'], p50Ms: number, iops: number, MBps: number): SweepPoint => ({
  name,
  p50Ms,
  p99Ms: p50Ms * 3,
  meanMs: p50Ms * 1.1,
  iops,
  MBps,
})

describe('fitting a device model to a sweep', () => {
  it('fits flash: parallel units from the QD32/QD1 ratio, read time from QD1 latency, host rate from streaming', () => {
    const f = fitModel(
      [
        pt('qd1-randread', 0.1, 10_000, 40),
        pt('qd32-randread', 0.4, 80_000, 320),
        pt('qd1-randwrite', 0.05, 20_000, 80),
        pt('qd32-randwrite', 0.5, 60_000, 240),
        pt('seq-read', 2, 500, 520),
        pt('seq-write', 2.5, 400, 420),
      ],
      { sizeBytes: 2 ** 30, rotational: false, maxTransferKiB: 512 },
    )
    expect(f.model).toBe('flash')
    expect(f.basePreset).toBe('ssd-sata-mlc')
    expect(f.values).toMatchObject({
      channels: 8,
      diesPerChannel: 1,
      capacityGiB: 1,
      hostMBps: 546,
      writeBufferKiB: 4096,
      maxTransferKiB: 512,
    })
    expect(f.values.readUs as number).toBeGreaterThan(60)
    expect(f.values.readUs as number).toBeLessThan(80)
    expect(f.sources.channels).toContain('8× QD1')
    // the fitted values are valid overrides of the base preset: usable in a spec today
    expect(() =>
      resolveSpec(sweepSpec(1, 2 ** 28, { preset: f.basePreset, overrides: f.values })),
    ).not.toThrow()
  })

  it('fits a disk: the seek curve scaled to the measured mean seek, NCQ and write cache from the sweep', () => {
    const f = fitModel(
      [
        pt('qd1-randread', 12, 80, 0.3),
        pt('qd32-randread', 30, 160, 0.6),
        pt('qd1-randwrite', 0.3, 2000, 8),
        pt('qd32-randwrite', 5, 3000, 12),
        pt('seq-read', 16, 100, 100),
        pt('seq-write', 18, 90, 95),
      ],
      { sizeBytes: 500e9, rotational: true, maxTransferKiB: null },
    )
    expect(f.model).toBe('hdd')
    expect(f.values).toMatchObject({ queueDepth: 32, writeCacheKiB: 8192, rpm: 7200 })
    const v = f.values as Record<string, number>
    const seek = meanSeekMs(v.seekShortA, v.seekShortB, v.seekLongC, v.seekLongE, v.seekBoundary)
    expect(seek).toBeCloseTo(12 * 1.1 - 30_000 / 7200 - 0.5, 1)
    expect(v.outerSectorsPerTrack).toBe(Math.round((100e6 * 60) / (7200 * 512)))
    expect(() =>
      resolveSpec(sweepSpec(1, 2 ** 30, { preset: f.basePreset, overrides: f.values })),
    ).not.toThrow()
  })

  it('sweeps the points the app says it measures, in their order', () => {
    // the Devices panel counts FINGERPRINT_POINTS ("6 points" there had stayed while the sweep grew to 9)
    const spec = sweepSpec(1, 2 ** 28, { preset: 'ssd-sata-mlc' }) as {
      workload: { processes: { name: string }[] }
    }
    expect(spec.workload.processes.map((p) => p.name)).toEqual([...FINGERPRINT_POINTS])
  })

  it('measures the RMS horizontal distance between two latency CDFs', () => {
    const a = new LatencyHistogram()
    const b = new LatencyHistogram()
    for (let i = 1; i <= 1000; i++) {
      a.record(i * 10_000)
      b.record(i * 10_000 + 1_000_000)
    }
    expect(rmsCdfDistance(a.toJSON(), a.toJSON()).ms).toBe(0)
    const d = rmsCdfDistance(a.toJSON(), b.toJSON())
    // shifted by 1 ms everywhere (within the histogram's 1/64 bucket resolution)
    expect(d.ms).toBeGreaterThan(0.9)
    expect(d.ms).toBeLessThan(1.1)
    expect(d.relative).toBeCloseTo(d.ms / 5.005, 2)
    expect(Number.isNaN(rmsCdfDistance(a.toJSON(), new LatencyHistogram().toJSON()).ms)).toBe(true)
  })
})

describeReal('fingerprinting a scratch device (root)', () => {
  let dir = ''
  beforeAll(() => (dir = tempDir('iosched-fingerprint-')))
  afterAll(() => cleanupDir(dir))

  it('sweeps it, fits a model, simulates the same sweep on it and saves a preset file', async () => {
    const out = join(dir, 'presets', 'mine.json')
    const doc = await fingerprintDevice({
      target: { kind: 'scratch', parentDir: dir },
      seconds: 0.5,
      stateDir: join(dir, 'state'),
      name: 'mine',
      out,
    })
    expect(doc.measured.points.map((p) => p.name)).toEqual([...FINGERPRINT_POINTS])
    for (const p of doc.measured.points) expect(p.iops).toBeGreaterThan(0)
    expect(doc.simulated.points).toHaveLength(FINGERPRINT_POINTS.length)
    // where the VM reports its free memory, what touching it again costs is fitted
    if (doc.host?.pageReporting?.on) {
      expect(doc.host.overrides.freshPageUs).toBeGreaterThanOrEqual(0)
      // measured by touching memory beyond the warm (fresh-page-probe.ts), or fitted to the point
      expect(doc.host.sources.freshPageUs).toMatch(/^(measured|fitted)/)
    } else expect(doc.host?.overrides.freshPageUs).toBeUndefined()
    for (const f of Object.values(doc.fit)) expect(Number.isFinite(f.ms)).toBe(true)
    expect(existsSync(out)).toBe(true)
    const saved = JSON.parse(readFileSync(out, 'utf8')) as PresetDocument
    // a scratch loop device is a virtual device: fitted as one, saying what it is
    expect(doc.model).toBe('virtual')
    expect(saved.specDevice.overrides?.kind).toBe('loop')
    // the QD32 reads again under the kernel's other schedulers: their CPU on this machine
    // (those this kernel has: bfq is optional)
    expect(doc.schedulerPoints?.map((p) => p.scheduler)).toEqual(KERNEL_OFFERED.filter((k) => k !== 'none'))
    for (const p of doc.schedulerPoints!) {
      expect(p.measured.iops).toBeGreaterThan(0)
      expect(p.simulated.iops).toBeGreaterThan(0)
      expect(doc.residuals?.[`qd32-randread@${p.scheduler}`]).toBeDefined()
    }
    expect(doc.host?.overrides.schedCpuScale).toBeGreaterThanOrEqual(0)
    // the host as captured, before the fit: what a fit again starts from
    expect(saved.capturedHost?.overrides.cpus).toBe(doc.host?.overrides.cpus)
    expect(saved.capturedHost?.overrides.schedCpuScale).toBeUndefined()
    expect(saved.capturedHost?.sources.wakeUs ?? '').not.toMatch(/^fitted/)
    // the dispatch probe's trace: how long a task woken for an idle CPU waits for it, as measured
    // (a figure it saw too few wake-ups for stays out: 0)
    for (const k of ['idleWakeUs', 'idleExitUs']) {
      const v = saved.capturedHost?.overrides[k]
      if (v === undefined) continue
      expect(v).toBeGreaterThan(0)
      expect(saved.capturedHost?.sources[k]).toMatch(/^measured: .*ftrace sched_waking/)
      expect(doc.host?.overrides[k]).toBe(v)
    }
    // where the probe traced, the wake-ups by the disk's interrupts on an idle CPU are thousands
    if (doc.queue?.dispatch) expect(saved.capturedHost?.overrides.idleExitUs).toBeGreaterThan(0)
    // a buffered write()'s CPU per KiB on this machine (copy and page allocation: a memory
    // bandwidth between ~100 MB/s and ~50 GB/s), and the queue's segment bound from sysfs
    expect(doc.host?.overrides.copyUsPerKiB).toBeGreaterThan(0.02)
    expect(doc.host?.overrides.copyUsPerKiB).toBeLessThan(10)
    expect(doc.host?.sources.copyUsPerKiB).toMatch(/buffered write/)
    expect(saved.specDevice.overrides?.maxSegments).toBeGreaterThan(0)
    expect(doc.host?.sources.schedCpuScale).toMatch(/fio's own CPU per I\/O at QD32/)
    expect(saved.schema).toBe('iosched-lab/device-preset@1')
    expect(saved.name).toBe('mine')
    expect(() => resolveSpec({ ...sweepSpec(1, 2 ** 26, saved.specDevice) })).not.toThrow()
    expect(loopsUnder(dir)).toEqual([])
    // fitted again from what the file kept, with the same code: the same fit
    const again = refitFingerprint(saved, out)
    expect(again.values).toEqual(saved.values)
    expect(again.host).toEqual(saved.host)
    expect(again.description).toBe(saved.description)
  }, 180_000)
})
