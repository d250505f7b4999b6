import { describe, expect, it } from 'vitest'
import { READ, WRITE } from '../../src/shared/block/types'
import { greedyVictimValidFraction } from '../../src/shared/devices/flash-gc'
import { presetDriver, random, sequential, type Io } from './driver'

describe('flash parallelism', () => {
  it.each(['ssd-sata-mlc', 'nvme-tlc'])('%s: QD32 random 4 KiB reads ≫ QD1', (preset) => {
    const d = presetDriver(preset)
    const cap = d.device.info.capacitySectors
    const qd1 = d.run(random(READ, 4, cap), 5000, 1)
    const qd32 = presetDriver(preset).run(random(READ, 4, cap), 50_000, 32)
    expect(qd32.iops).toBeGreaterThan(8 * qd1.iops)
  })

  it('large reads are striped over the units', () => {
    const d = presetDriver('ssd-sata-mlc')
    // 128 KiB = 16 pages on 16 units: about one page read, not sixteen.
    const r = d.run(sequential(READ, 128), 1)
    expect(r.latenciesMs[0]).toBeLessThan(0.025 + 0.05 + 0.3)
    expect(r.latenciesMs[0]).toBeGreaterThan(((128 * 1024) / 550e6) * 1e3)
  })

  it('the host link caps throughput (NVMe ~3.5 GB/s)', () => {
    const r = presetDriver('nvme-tlc').run(sequential(READ, 128), 20_000, 32)
    expect(r.mbps).toBeLessThanOrEqual(3500)
    expect(r.mbps).toBeGreaterThan(0.9 * 3500)
  })

  it('costs one engine event per request', () => {
    const d = presetDriver('nvme-tlc')
    const cap = d.device.info.capacitySectors
    d.run(random(READ, 4, cap), 10_000, 32)
    d.run(random(WRITE, 64, cap), 1000, 32)
    expect(d.engine.executed).toBe(11_000)
  })
})

describe('flash writes', () => {
  it('CompactFlash: 4 KiB random writes are far slower per byte than 128 KiB sequential ones', () => {
    const d = presetDriver('cf-2006-100x')
    const seq = d.run(sequential(WRITE, 128), 200)
    const rnd = presetDriver('cf-2006-100x').run(random(WRITE, 4, d.device.info.capacitySectors), 200)
    expect(seq.mbps / rnd.mbps).toBeGreaterThan(15)
  })

  it('CompactFlash: a write not aligned to the erase block rewrites two blocks', () => {
    const aligned = presetDriver('cf-2006-100x').run(sequential(WRITE, 128), 100)
    const shifted = presetDriver('cf-2006-100x').run(sequential(WRITE, 128, 8), 100)
    expect(shifted.meanLatencyMs).toBeGreaterThan(1.6 * aligned.meanLatencyMs)
  })

  it('eMMC: a 4 KiB write inside an 8 KiB page is a read-modify-write', () => {
    const whole = presetDriver('emmc-4.5').run(sequential(WRITE, 8), 100)
    const half = presetDriver('emmc-4.5').run((i) => ({ sector: i * 16 + 8, nsect: 8, op: WRITE }), 100)
    expect(half.meanLatencyMs).toBeGreaterThan(whole.meanLatencyMs)
  })

  it('a DRAM write buffer acknowledges writes before they are programmed', () => {
    const cap = presetDriver('ssd-sata-mlc').device.info.capacitySectors
    const buffered = presetDriver('ssd-sata-mlc').run(random(WRITE, 4, cap), 1000)
    const direct = presetDriver('ssd-sata-mlc', { writeBufferKiB: 0 }).run(random(WRITE, 4, cap), 1000)
    expect(buffered.meanLatencyMs).toBeLessThan(0.1)
    expect(direct.meanLatencyMs).toBeGreaterThan(0.4)
  })

  it('garbage collection in steady state slows random writes, much less sequential ones', () => {
    const fresh = { initialFreePct: 100, writeBufferKiB: 0 }
    const used = { initialFreePct: 5, writeBufferKiB: 0 }
    const cap = presetDriver('ssd-sata-mlc').device.info.capacitySectors
    const rFresh = presetDriver('ssd-sata-mlc', fresh).run(random(WRITE, 4, cap), 20_000, 32)
    const rUsed = presetDriver('ssd-sata-mlc', used).run(random(WRITE, 4, cap), 20_000, 32)
    expect(rFresh.iops / rUsed.iops).toBeGreaterThan(3)
    const sFresh = presetDriver('ssd-sata-mlc', fresh).run(sequential(WRITE, 128), 3000, 32)
    const sUsed = presetDriver('ssd-sata-mlc', used).run(sequential(WRITE, 128), 3000, 32)
    expect(sFresh.mbps / sUsed.mbps).toBeLessThan(1.3)
  })

  it('greedy GC victim validity falls with over-provisioning', () => {
    expect(greedyVictimValidFraction(0.07)).toBeGreaterThan(greedyVictimValidFraction(0.28))
    expect(greedyVictimValidFraction(0.28)).toBeCloseTo(1 - (2 * 0.28) / 1.28, 10)
  })

  it('an SLC cache absorbs a burst, then writes fall to the native program rate', () => {
    const d = presetDriver('nvme-tlc', { slcCacheMiB: 64, writeBufferKiB: 0 })
    const r = d.run(sequential(WRITE, 128), 2048, 32) // 256 MiB
    const span = (a: number, b: number) => (r.ends[b] - r.ends[a]) / 1e9
    const early = (256 * 128 * 1024) / span(0, 256) / 1e6
    const late = (256 * 128 * 1024) / span(1790, 2046) / 1e6
    expect(early).toBeGreaterThan(2 * late)
  })
})

describe('flash: the host link, and reads against buffered writes', () => {
  // Two units, 16 KiB pages and mapping, 1 ms programs, a 1 MiB buffer: small enough to fill.
  const base = {
    channels: 2,
    diesPerChannel: 1,
    pageKiB: 16,
    mapUnitKiB: 16,
    programUs: 1000,
    programSpreadPct: 0,
    slcCacheMiB: 0,
    gc: false,
    writeBufferKiB: 1024,
    readSensing: 'uniform',
    senseUs: 0,
    commandJitterUs: 0,
    readRetryPct: 0,
    hostMBps: 100,
    queueDepth: 1024,
    fullDuplex: false,
    readsFirst: false,
  }
  const write = (i: number): Io => ({ sector: i * 32, nsect: 32, op: WRITE })

  /** Start `writes` 16 KiB writes, then one 4 KiB read, all at once: the read's latency, ms. */
  function readBehind(over: Record<string, unknown>, writes: number): number {
    const ios: Io[] = [
      ...Array.from({ length: writes }, (_, i) => write(i)),
      { sector: 1 << 20, nsect: 8, op: READ },
    ]
    const r = presetDriver('ssd-sata-mlc', { ...base, ...over }).run((i) => ios[i], ios.length, ios.length)
    return r.completed.find((x) => x.op === READ)!.latencyMs
  }

  it('full duplex: a read does not wait for writes’ data coming in on the other lanes', () => {
    // 40 writes × 16 KiB at 100 MB/s hold the link 6.5 ms; the read alone takes ~0.1 ms
    expect(readBehind({ readsFirst: true }, 40)).toBeGreaterThan(6)
    expect(readBehind({ readsFirst: true, fullDuplex: true }, 40)).toBeLessThan(0.5)
  })

  it('reads first: a read waits for the program in progress, not for the buffered backlog', () => {
    // 64 buffered writes = 1 MiB = 32 programs on each of the 2 units: 32 ms of backlog
    const fast = { hostMBps: 100_000, fullDuplex: true }
    expect(readBehind(fast, 64)).toBeGreaterThan(20)
    expect(readBehind({ ...fast, readsFirst: true }, 64)).toBeLessThan(1.2) // ≤ one program, then the read
  })
})
