import { describe, expect, it } from 'vitest'
import { READ } from '../../src/shared/block/types'
import type { Hdd } from '../../src/shared/devices/hdd'
import { HddVariability } from '../../src/shared/devices/hdd-variability'
import { Rng } from '../../src/shared/sim/rng'
import { presetDriver, random, type Io } from './driver'

const SATA = 'hdd-7200-sata'
const OFF = { seekSpreadPct: 0, seekErrorRate: 0, readRetryRate: 0 }
const vary = (cfg: Partial<typeof OFF>, seed = 1) => new HddVariability({ ...OFF, ...cfg }, new Rng(seed))

describe('HDD variability: seeks', () => {
  it('spreads each seek uniformly within ± seekSpreadPct of the curve, mean kept', () => {
    const v = vary({ seekSpreadPct: 8 })
    const xs = Array.from({ length: 20_000 }, () => v.seekNs(8e6, 1e6))
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0.92 * 8e6)
    expect(Math.max(...xs)).toBeLessThanOrEqual(1.08 * 8e6)
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length
    expect(Math.abs(mean / 8e6 - 1)).toBeLessThan(0.003)
    // uniform: a quarter of the draws in each quarter of the range
    const low = xs.filter((x) => x < 0.96 * 8e6).length / xs.length
    expect(low).toBeGreaterThan(0.23)
    expect(low).toBeLessThan(0.27)
  })

  it('a seek error costs one re-seek, each re-seek failing again with the same chance', () => {
    const v = vary({ seekErrorRate: 0.5 })
    const xs = Array.from({ length: 20_000 }, () => v.seekNs(8e6, 1e6))
    for (const x of xs) expect(Number.isInteger((x - 8e6) / 1e6)).toBe(true)
    const reseeks = xs.map((x) => (x - 8e6) / 1e6)
    const mean = reseeks.reduce((a, b) => a + b, 0) / xs.length
    expect(mean).toBeGreaterThan(0.95) // geometric: p/(1−p) = 1
    expect(mean).toBeLessThan(1.05)
    expect(reseeks.filter((n) => n === 0).length / xs.length).toBeCloseTo(0.5, 1)
  })

  it('on the disk: a seek that settles late misses its sector by a revolution, the seed deciding which', () => {
    // alternate between the outer and a middle track, one command at a time, with a think time
    // that puts each request at a new rotational phase
    const gen = (i: number): Io => ({ sector: i % 2 === 0 ? 0 : 400_000_000, nsect: 8, op: READ })
    const run = (over: Record<string, unknown>, seed = 1) =>
      presetDriver(SATA, { ...OFF, segmentCount: 0, queueDepth: 1, ...over }, seed).run(
        gen,
        400,
        1,
        1_234_567,
      )
    const flat = run({}).latenciesMs
    const a = run({ seekSpreadPct: 30 }).latenciesMs
    expect(run({ seekSpreadPct: 30 }).latenciesMs).toEqual(a)
    expect(run({ seekSpreadPct: 30 }, 2).latenciesMs).not.toEqual(a)
    // the platter keeps turning: a request completes when its sector passes, so a seek a little
    // early or late changes nothing — unless the sector passes meanwhile: then a revolution more
    // or less (8.33 ms)
    const rev = 60_000 / 7200
    let changed = 0
    for (let i = 0; i < a.length; i++) {
      const k = (a[i] - flat[i]) / rev
      expect(Math.abs(k - Math.round(k))).toBeLessThan(1e-3)
      if (Math.round(k) !== 0) changed++
    }
    expect(changed).toBeGreaterThan(0)
    // random reads: the curve's mean seek is kept, so the mean service time moves by little
    const d = presetDriver(SATA, { ...OFF, queueDepth: 1 })
    const base = d.run(random(READ, 4, d.device.info.capacitySectors), 3000).meanLatencyMs
    const d2 = presetDriver(SATA, { ...OFF, queueDepth: 1, seekSpreadPct: 8 })
    const spread = d2.run(random(READ, 4, d2.device.info.capacitySectors), 3000).meanLatencyMs
    expect(Math.abs(spread / base - 1)).toBeLessThan(0.05)
  })
})

describe('HDD variability: recovered read errors', () => {
  it('draws errors per transfer as a Poisson count with mean bits × rate', () => {
    const v = vary({ readRetryRate: 1e-6 }) // 8 sectors = 32 768 bits: mean 0.0328
    const n = 50_000
    const counts = Array.from({ length: n }, () => v.readRetries(8))
    const one = counts.filter((c) => c >= 1).length / n
    expect(one).toBeGreaterThan(0.9 * (1 - Math.exp(-0.032768)))
    expect(one).toBeLessThan(1.1 * (1 - Math.exp(-0.032768)))
    expect(vary({}).readRetries(1e9)).toBe(0)
  })

  it('each recovered error makes the read one revolution longer', () => {
    // re-reading one sector at QD1 without a read cache: every read waits the same rotation
    const gen = (): Io => ({ sector: 600, nsect: 8, op: READ })
    const over = { ...OFF, segmentCount: 0, writeCacheKiB: 0, queueDepth: 1 }
    const flat = presetDriver(SATA, over).run(gen, 200).latenciesMs
    const d = presetDriver(SATA, { ...over, readRetryRate: 3e-6 }) // ≈ 0.1 errors per read
    const rev = (d.device as Hdd).mech.revNs / 1e6
    const lat = d.run(gen, 2000).latenciesMs
    const base = flat[flat.length - 1]
    let retried = 0
    for (const x of lat.slice(1)) {
      const k = (x - base) / rev
      expect(Math.abs(k - Math.round(k))).toBeLessThan(1e-6)
      if (Math.round(k) > 0) retried++
    }
    expect(retried / lat.length).toBeGreaterThan(0.06)
    expect(retried / lat.length).toBeLessThan(0.14)
  })
})

describe('HDD head travel', () => {
  it('counts the cylinders crossed between media accesses, not the move to the first one', () => {
    const d = presetDriver(SATA, {
      ...OFF,
      cylinders: 200,
      heads: 1,
      zones: 1,
      outerSectorsPerTrack: 1000,
      innerSectorsPerTrack: 1000,
      segmentCount: 0,
      writeCacheKiB: 0,
      queueDepth: 1,
    })
    const cyls = [53, 98, 183, 37, 122, 14, 124, 65, 67]
    d.run((i) => ({ sector: cyls[i] * 1000, nsect: 8, op: READ }), cyls.length)
    expect((d.device as Hdd).seekCylinders).toBe(640)
  })
})
