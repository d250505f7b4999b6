import { describe, expect, it } from 'vitest'
import { READ, WRITE } from '../../src/shared/block/types'
import type { Hdd } from '../../src/shared/devices/hdd'
import { DEVICE_PRESETS } from '../../src/shared/devices/presets'
import {
  DEVICE_MODELS,
  createDevice,
  findDeviceModel,
  resolveDevice,
} from '../../src/shared/devices/registry'
import type { ParamIssue } from '../../src/shared/util/params'
import { Driver, presetDriver, random, sequential, type Io } from './driver'

describe('device registry and presets', () => {
  it.each(DEVICE_PRESETS.map((p) => [p.name, p] as const))(
    '%s resolves, and every value has a source',
    (name, p) => {
      const model = findDeviceModel(p.model)
      expect(model).toBeDefined()
      const names = new Set(model!.params.map((s) => s.name))
      for (const k of Object.keys(p.values)) {
        expect(names.has(k), `${name}: unknown parameter ${k}`).toBe(true)
        expect(p.sources[k], `${name}: no source for ${k}`).toBeTruthy()
      }
      for (const k of Object.keys(p.sources))
        expect(k in p.values, `${name}: source for unset ${k}`).toBe(true)
      const issues: ParamIssue[] = []
      const r = resolveDevice(name, undefined, 'device', issues)
      expect(issues).toEqual([])
      expect(r?.model).toBe(p.model)
    },
  )

  it.each(DEVICE_PRESETS.map((p) => [p.name, p] as const))('%s fills DeviceInfo', (name, p) => {
    const d = presetDriver(name)
    const info = d.device.info
    expect(info.name).toBe(name)
    expect(info.capacitySectors).toBeGreaterThan(1_000_000)
    // disks, and the virtual devices that say so (a loop device reports rotational = 1)
    expect(info.rotational).toBe(p.model === 'hdd' || p.values.rotational === true)
    expect(info.queueDepth).toBe(p.values.queueDepth)
    // max_sectors_kb, and max_segments segments (of one page, or the shortest the preset draws)
    const shortest = Number(
      /^\s*[\d.]+\s*:\s*([\d.]+)/.exec(
        String(p.model === 'virtual' ? (p.values.segmentKiB ?? '0:4') : '0:4'),
      )![1],
    )
    const segKiB = ((p.values.maxSegments as number | undefined) ?? 0) * shortest || Infinity
    expect(info.maxTransferSectors).toBe((Math.min(p.values.maxTransferKiB as number, segKiB) * 1024) / 512)
    expect(d.device.inFlight).toBe(0)
  })

  it('every model parameter has a default, a unit field and a meaning', () => {
    for (const m of DEVICE_MODELS)
      for (const s of m.params) {
        expect(s.meaning.length, `${m.name}.${s.name}`).toBeGreaterThan(5)
        expect(typeof s.unit).toBe('string')
        expect(s.default).not.toBeUndefined()
      }
  })

  it('validates overrides and names the path', () => {
    const issues: ParamIssue[] = []
    const r = resolveDevice('hdd-7200-sata', { rpm: -3, bogus: 1, queueDepth: 4 }, 'device', issues)
    expect(issues).toContainEqual({
      path: 'device.overrides.rpm',
      message: 'expected a positive integer, got -3',
    })
    expect(issues.find((i) => i.path === 'device.overrides.bogus')?.message).toMatch(/unknown key/)
    expect(r?.values.queueDepth).toBe(4)
    expect(r?.values.rpm).toBe(7200)
  })

  it('reports table syntax errors under the overrides path', () => {
    const issues: ParamIssue[] = []
    resolveDevice('hdd-7200-sata', { seekModel: 'table', seekTable: 'fast' }, 'device', issues)
    expect(issues.map((i) => i.path)).toEqual(['device.overrides.seekTable'])
  })

  it('lists the known presets when one is unknown', () => {
    const issues: ParamIssue[] = []
    expect(resolveDevice('floppy', {}, 'device', issues)).toBeUndefined()
    expect(issues).toHaveLength(1)
    expect(issues[0].path).toBe('device.preset')
    for (const p of DEVICE_PRESETS) expect(issues[0].message).toContain(p.name)
  })

  it('createDevice refuses an unknown model', () => {
    const d = new Driver((ctx) => createDevice('hdd', resolveDevice('hdd-2003-ide', {}, '', [])!.values, ctx))
    expect(d.device.info.name).toBe('hdd')
    expect(() => new Driver((ctx) => createDevice('tape', {}, ctx))).toThrow(/unknown device model/)
  })
})

/** Sequential throughput of each preset against the figures in the brief/reference (±15 %). */
describe('preset sequential rates (±15 %)', () => {
  const within = (got: number, want: number) => {
    expect(got).toBeGreaterThan(want * 0.85)
    expect(got).toBeLessThan(want * 1.15)
  }
  it('hdd-2003-ide: ~29 MB/s reads, ~25 MB/s writes (published A)', () => {
    within(presetDriver('hdd-2003-ide').run(sequential(READ, 128), 600).mbps, 29)
    within(presetDriver('hdd-2003-ide').run(sequential(WRITE, 128), 1500).mbps, 25)
  })
  it('hdd-1997-scsi: ~10.7 MB/s reads at 64 KiB (published C)', () => {
    within(presetDriver('hdd-1997-scsi').run(sequential(READ, 64), 600).mbps, 10.75)
  })
  it('hdd-7200-sata: 64.8 MB/s outer, 31.0 MB/s inner', () => {
    const d = presetDriver('hdd-7200-sata')
    within(d.run(sequential(READ, 512), 200).mbps, 64.8)
    const mech = (d.device as Hdd).mech
    within(
      presetDriver('hdd-7200-sata').run(sequential(READ, 512, mech.zoneStart(mech.zoneCount - 1)), 100).mbps,
      31.0,
    )
    within(presetDriver('hdd-7200-sata').run(sequential(WRITE, 512), 600, 32).mbps, 64.8)
  })
  it('cf-2006-100x: ~21 MB/s reads, 8–11 MB/s sequential writes', () => {
    within(presetDriver('cf-2006-100x').run(sequential(READ, 128), 1000).mbps, 21)
    within(presetDriver('cf-2006-100x').run(sequential(WRITE, 128), 500).mbps, 9.5)
  })
  it('emmc-4.5: ~40 MB/s reads, 23–27 MB/s writes (published B)', () => {
    within(presetDriver('emmc-4.5').run(sequential(READ, 128), 1000).mbps, 40)
    within(presetDriver('emmc-4.5').run(sequential(READ, 512), 500).mbps, 40)
    within(presetDriver('emmc-4.5').run(sequential(WRITE, 128), 1000).mbps, 25)
  })
  it('emmc-4.5: random read:write IOPS ≈ 3:1', () => {
    const cap = presetDriver('emmc-4.5').device.info.capacitySectors
    const r = presetDriver('emmc-4.5').run(random(READ, 4, cap), 3000).iops
    const w = presetDriver('emmc-4.5').run(random(WRITE, 4, cap), 3000).iops
    expect(r).toBeGreaterThan(1500)
    expect(r).toBeLessThan(3500)
    expect(r / w).toBeGreaterThan(2.5)
    expect(r / w).toBeLessThan(4)
  })
  it('ssd-sata-mlc: ~100k random 4 KiB read IOPS at QD32, SATA-bound sequential reads', () => {
    const d = presetDriver('ssd-sata-mlc')
    within(d.run(random(READ, 4, d.device.info.capacitySectors), 100_000, 32).iops, 100_000)
    within(presetDriver('ssd-sata-mlc').run(sequential(READ, 128), 20_000, 32).mbps, 550)
  })
  it('nvme-tlc: PCIe-bound sequential reads (~3.5 GB/s)', () => {
    within(presetDriver('nvme-tlc').run(sequential(READ, 128), 20_000, 32).mbps, 3500)
  })
})

/** A mixed workload: reads and writes, sizes 512 B … 256 KiB, some sequential runs. */
function mixed(capacity: number, seed: number): (i: number) => Io {
  let x = seed >>> 0
  const next = () => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32
  let pos = 0
  return () => {
    const nsect = 1 + Math.floor(next() * 512)
    if (next() < 0.3) pos += nsect
    else pos = Math.floor(next() * (capacity - 1024))
    if (pos + nsect > capacity) pos = 0
    return { sector: pos, nsect, op: next() < 0.6 ? READ : WRITE }
  }
}

describe.each(DEVICE_PRESETS.map((p) => p.name))('%s conformance', (name) => {
  it('completes every request exactly once and is deterministic', () => {
    const runOnce = (depth: number) => {
      const d = presetDriver(name)
      const r = d.run(mixed(d.device.info.capacitySectors, 42), 1500, depth, 50_000)
      expect(r.ios).toBe(1500)
      expect(d.device.inFlight).toBe(0)
      return r.ends
    }
    const a = runOnce(1)
    expect(runOnce(1)).toEqual(a)
    expect(a.every((t) => Number.isInteger(t))).toBe(true)
    const b = runOnce(32)
    expect(runOnce(32)).toEqual(b)
  })
})
