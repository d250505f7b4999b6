import { describe, expect, it } from 'vitest'
import { READ, WRITE } from '../../src/shared/block/types'
import type { Hdd } from '../../src/shared/devices/hdd'
import { presetDriver, random, sequential } from './driver'

const SATA = 'hdd-7200-sata'

describe('HDD rotational position', () => {
  // No read-ahead (so the second read is not a cache hit), no write cache, one command at a time.
  const setup = () => {
    const d = presetDriver(SATA, { segmentCount: 0, writeCacheKiB: 0, queueDepth: 1 })
    const hdd = d.device as Hdd
    d.run(() => ({ sector: 600, nsect: 8, op: READ }), 1) // the head is now on track 0
    return { d, hdd, rev: hdd.mech.revNs, angle: hdd.mech.position(100).angleNs, ovh: 500_000 }
  }
  const xfer8 = (rev: number) => Math.round((8 * rev) / 1160)

  it('a read issued just after its sector passed waits almost a full revolution', () => {
    const { d, rev, angle, ovh } = setup()
    const t = (Math.ceil(d.engine.now / rev) + 2) * rev + angle + 2000 - ovh
    const r = d.run(() => ({ sector: 100, nsect: 8, op: READ }), 1, 1, 0, t)
    expect(r.ends[0] - t).toBe(ovh + (rev - 2000) + xfer8(rev))
  })

  it('a read issued just before its sector passes waits almost nothing', () => {
    const { d, rev, angle, ovh } = setup()
    const t = (Math.ceil(d.engine.now / rev) + 2) * rev + angle - 2000 - ovh
    const r = d.run(() => ({ sector: 100, nsect: 8, op: READ }), 1, 1, 0, t)
    expect(r.ends[0] - t).toBe(ovh + 2000 + xfer8(rev))
  })
})

describe('HDD sequential vs random', () => {
  it('sequential 128 KiB reads stream at the zone media rate thanks to the read-ahead segments', () => {
    const d = presetDriver(SATA)
    const hdd = d.device as Hdd
    const outer = d.run(sequential(READ, 128), 800)
    expect(outer.mbps).toBeGreaterThan(0.97 * hdd.mech.zoneRate(0).sustainedMBps)
    expect(outer.mbps).toBeLessThanOrEqual(1.01 * hdd.mech.zoneRate(0).sustainedMBps)
    const last = hdd.mech.zoneCount - 1
    const inner = presetDriver(SATA).run(sequential(READ, 128, hdd.mech.zoneStart(last)), 400)
    expect(inner.mbps).toBeGreaterThan(0.97 * hdd.mech.zoneRate(last).sustainedMBps)
    expect(inner.mbps).toBeLessThanOrEqual(1.01 * hdd.mech.zoneRate(last).sustainedMBps)
  })

  it('a sequential reader with small think times still streams at media rate', () => {
    const r = presetDriver(SATA).run(sequential(READ, 64), 1000, 1, 300_000)
    expect(r.mbps).toBeGreaterThan(0.95 * 64.8)
  })

  it('without read-ahead the same reader misses a revolution per request', () => {
    const r = presetDriver(SATA, { segmentCount: 0 }).run(sequential(READ, 128), 300)
    expect(r.mbps).toBeLessThan(0.5 * 64.8)
  })

  it('random 4 KiB reads average ≈ 13.5 ms (±15 %)', () => {
    const d = presetDriver(SATA, { queueDepth: 1 })
    const r = d.run(random(READ, 4, d.device.info.capacitySectors), 2000)
    expect(r.meanLatencyMs).toBeGreaterThan(13.5 * 0.85)
    expect(r.meanLatencyMs).toBeLessThan(13.5 * 1.15)
  })
})

describe('HDD command queueing', () => {
  it('NCQ at depth 32 gives far more random IOPS than depth 1', () => {
    const d1 = presetDriver(SATA, { queueDepth: 1 })
    const cap = d1.device.info.capacitySectors
    const qd1 = d1.run(random(READ, 4, cap), 1000, 1)
    const qd32 = presetDriver(SATA).run(random(READ, 4, cap), 4000, 32)
    expect(qd32.iops).toBeGreaterThan(1.8 * qd1.iops)
  })

  it('with 32 sequential commands queued the drive still streams (reads and cached writes)', () => {
    expect(presetDriver(SATA).run(sequential(READ, 128), 800, 32).mbps).toBeGreaterThan(0.95 * 64.8)
    expect(presetDriver(SATA).run(sequential(WRITE, 128), 2000, 32).mbps).toBeGreaterThan(0.95 * 64.8)
    const through = presetDriver(SATA, { writeCacheKiB: 0 }).run(sequential(WRITE, 128), 800, 32)
    expect(through.mbps).toBeGreaterThan(0.9 * 64.8)
  })

  it('queue depth 1 serves strictly one command at a time, in order', () => {
    const d = presetDriver(SATA, { queueDepth: 1 })
    expect(d.device.info.queueDepth).toBe(1)
    const r = d.run(random(READ, 4, d.device.info.capacitySectors), 200, 32)
    for (let i = 1; i < r.ends.length; i++) expect(r.ends[i]).toBeGreaterThan(r.ends[i - 1])
  })
})

describe('HDD write-back cache', () => {
  it('cached random writes complete at interface speed; write-through ones pay the mechanics', () => {
    const on = presetDriver(SATA, { queueDepth: 1 })
    const cap = on.device.info.capacitySectors
    const fast = on.run(random(WRITE, 4, cap), 200)
    expect(fast.meanLatencyMs).toBeLessThan(0.6)
    const slow = presetDriver(SATA, { queueDepth: 1, writeCacheKiB: 0 }).run(random(WRITE, 4, cap), 200)
    expect(slow.meanLatencyMs).toBeGreaterThan(10)
  })

  it('sequential writes stream with the cache on, lose a revolution each with it off', () => {
    const on = presetDriver(SATA, { queueDepth: 1 }).run(sequential(WRITE, 128), 1500)
    const off = presetDriver(SATA, { queueDepth: 1, writeCacheKiB: 0 }).run(sequential(WRITE, 128), 300)
    expect(on.mbps).toBeGreaterThan(0.97 * 64.8)
    expect(off.mbps).toBeLessThan(0.3 * on.mbps)
  })

  it('a full cache makes a new write wait for destaging', () => {
    const d = presetDriver(SATA, { queueDepth: 1, writeCacheKiB: 256 })
    const r = d.run(random(WRITE, 4, d.device.info.capacitySectors), 400)
    const early = r.latenciesMs.slice(0, 32)
    const late = r.latenciesMs.slice(200)
    expect(Math.max(...early)).toBeLessThan(0.6)
    expect(late.reduce((a, b) => a + b, 0) / late.length).toBeGreaterThan(2)
    expect((d.device as Hdd).dirtySectors).toBeLessThanOrEqual(512)
  })

  it('a read arriving during a destage waits for the current chunk', () => {
    const d = presetDriver(SATA, { queueDepth: 1 })
    const hdd = d.device as Hdd
    const writes = random(WRITE, 4, d.device.info.capacitySectors, 11)
    let busy = 0
    let dirty = 0
    let issuedAt = 0
    // 50 cached writes, then (closed loop, no think time) one read of another place.
    const r = d.run((i) => {
      if (i < 50) return writes(i)
      busy = hdd.mechanismBusyUntil
      dirty = hdd.dirtySectors
      issuedAt = d.engine.now
      return { sector: 123_456_789, nsect: 8, op: READ }
    }, 51)
    expect(dirty).toBeGreaterThan(0)
    expect(busy).toBeGreaterThan(issuedAt)
    expect(r.ends[50]).toBeGreaterThan(busy)
  })

  it('idle time drains the cache', () => {
    const d = presetDriver(SATA, { queueDepth: 1 })
    const hdd = d.device as Hdd
    d.run(random(WRITE, 4, d.device.info.capacitySectors), 100)
    d.engine.run()
    expect(hdd.dirtySectors).toBe(0)
  })
})
