import { describe, expect, it } from 'vitest'
import { READ, WRITE } from '../../src/shared/block/types'
import { FlashVariability, fastestReadUs } from '../../src/shared/devices/flash-variability'
import { resolveDevice } from '../../src/shared/devices/registry'
import { Rng } from '../../src/shared/sim/rng'
import type { ParamIssue } from '../../src/shared/util/params'
import { presetDriver, random, type Io } from './driver'

// Every variability parameter set explicitly, so the tests do not depend on a preset's choice.
const FLAT = { readSensing: 'uniform', senseUs: 0, programSpreadPct: 0, readRetryPct: 0, commandJitterUs: 0 }
const US = 1e-3 // ms per µs

/** Latencies of `n` QD1 reads of single 4 KiB pages (8 KiB pages: one page each) at random places. */
function qd1Reads(overrides: Record<string, unknown>, n = 2000, seed = 1, pageSeed = 7): number[] {
  const d = presetDriver('ssd-sata-mlc', { ...FLAT, ...overrides }, seed)
  return d.run(random(READ, 4, d.device.info.capacitySectors, pageSeed), n).latenciesMs
}

/** The distinct values, to the ns (latencies are whole ns). */
const distinct = (xs: number[]): number[] =>
  [...new Set(xs.map((x) => Math.round(x * 1e6)))].sort((a, b) => a - b).map((x) => x / 1e6)

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]
}

describe('flash variability: page types', () => {
  it('off, every single-page read at QD1 takes the same time', () => {
    expect(distinct(qd1Reads({}))).toHaveLength(1)
  })

  it('MLC 1-2 sensing: LSB and MSB pages read one sensing apart, about half each, mean kept', () => {
    const flat = qd1Reads({})[0]
    const typed = qd1Reads({ readSensing: '1-2', senseUs: 20 })
    const values = distinct(typed)
    expect(values).toHaveLength(2)
    // one sensing = 20 µs apart, centred on the uniform read (LSB = mean − 10, MSB = mean + 10)
    expect(values[1] - values[0]).toBeCloseTo(20 * US, 5)
    expect(values[0]).toBeCloseTo(flat - 10 * US, 5)
    const slow = typed.filter((x) => Math.abs(x - values[1]) < 1e-6).length / typed.length
    expect(slow).toBeGreaterThan(0.45)
    expect(slow).toBeLessThan(0.55)
  })

  it('TLC 1-2-4: three read times, 1 and 2 sensings apart', () => {
    const values = distinct(qd1Reads({ readSensing: '1-2-4', senseUs: 10 }))
    expect(values).toHaveLength(3)
    expect(values[1] - values[0]).toBeCloseTo(10 * US, 5)
    expect(values[2] - values[1]).toBeCloseTo(20 * US, 5)
  })

  it('a page keeps its type through the run; the seed decides which pages are slow', () => {
    const v = (seed: number) =>
      new FlashVariability(
        {
          readUs: 50,
          programUs: 900,
          readSensing: '1-2',
          senseUs: 20,
          programSpreadPct: 0,
          readRetryPct: 0,
          readRetryMax: 8,
          commandJitterUs: 0,
        },
        new Rng(seed),
      )
    const a = v(1)
    const again = v(1)
    const other = v(2)
    const pages = Array.from({ length: 2000 }, (_, i) => i * 977)
    const typesA = pages.map((p) => a.typeOf(p))
    expect(pages.map((p) => a.typeOf(p))).toEqual(typesA) // stable
    expect(pages.map((p) => again.typeOf(p))).toEqual(typesA) // same seed, same layout
    const differ = pages.filter((p, i) => other.typeOf(p) !== typesA[i]).length
    expect(differ / pages.length).toBeGreaterThan(0.4) // another seed, another layout
    expect(differ / pages.length).toBeLessThan(0.6)
    // re-reading the same pages on a device: the same latencies
    const same = (i: number): Io => ({ sector: (i % 50) * 16 * 101, nsect: 8, op: READ })
    const d = presetDriver('ssd-sata-mlc', { ...FLAT, readSensing: '1-2', senseUs: 20 })
    const first = d.run(same, 50).latenciesMs
    const second = d.run(same, 50, 1, 0, d.engine.now + 1e9).latenciesMs
    expect(second).toEqual(first)
  })

  it('MLC programs alternate LSB and MSB along a unit’s write frontier', () => {
    // one unit, 4 KiB pages and mapping, no buffer, no GC: each 4 KiB write programs one page there
    const d = presetDriver('ssd-sata-mlc', {
      ...FLAT,
      readSensing: '1-2',
      programSpreadPct: 44,
      channels: 1,
      diesPerChannel: 1,
      pageKiB: 4,
      mapUnitKiB: 4,
      writeBufferKiB: 0,
      gc: false,
    })
    const lat = d.run((i) => ({ sector: i * 8, nsect: 8, op: WRITE }), 20, 1, 1e6).latenciesMs
    const flat = presetDriver('ssd-sata-mlc', {
      ...FLAT,
      channels: 1,
      diesPerChannel: 1,
      pageKiB: 4,
      mapUnitKiB: 4,
      writeBufferKiB: 0,
      gc: false,
    }).run((i) => ({ sector: i * 8, nsect: 8, op: WRITE }), 20, 1, 1e6).latenciesMs
    // 900 µs ± 44 %: 504 and 1296 µs, in turn
    for (let i = 0; i < lat.length; i++) {
      const expected = flat[i] + (i % 2 === 0 ? -396 : 396) * US
      expect(lat[i]).toBeCloseTo(expected, 4)
    }
  })

  it('refuses a sensing step that would make the fastest page negative', () => {
    // mean sensings 7/3: the LSB page reads in 50 − 40·(7/3 − 1) < 0
    expect(fastestReadUs(50, '1-2-4', 40)).toBeLessThan(0)
    expect(fastestReadUs(50, '1-2-4', 30)).toBeCloseTo(10, 9)
    const issues: ParamIssue[] = []
    resolveDevice('ssd-sata-mlc', { readSensing: '1-2-4', senseUs: 40 }, 'device', issues)
    expect(issues.map((i) => i.path)).toEqual(['device.overrides.senseUs'])
  })
})

describe('flash variability: read retry', () => {
  it('about readRetryPct of the reads take retry steps, each a further sensing and transfer', () => {
    const flat = qd1Reads({}, 4000)[0]
    const lat = qd1Reads({ readRetryPct: 10 }, 4000)
    const values = distinct(lat)
    // steps: 0 (90 %), 1 (9 %), 2 (0.9 %) …; each step the same amount more
    const step = values[1] - values[0]
    expect(values[0]).toBeCloseTo(flat, 6)
    expect(step).toBeGreaterThan(50 * US) // at least tR
    for (let i = 1; i < values.length; i++) expect(values[i] - values[i - 1]).toBeCloseTo(step, 5)
    const retried = lat.filter((x) => x > flat + 1e-6).length / lat.length
    expect(retried).toBeGreaterThan(0.08)
    expect(retried).toBeLessThan(0.12)
    const twice = lat.filter((x) => x > flat + 1.5 * step).length / lat.length
    expect(twice).toBeGreaterThan(0.003)
    expect(twice).toBeLessThan(0.02)
  })

  it('never more than readRetryMax steps', () => {
    const lat = qd1Reads({ readRetryPct: 90, readRetryMax: 2 }, 500)
    expect(distinct(lat)).toHaveLength(3)
  })
})

describe('flash variability: command jitter', () => {
  it('adds an exponential wait with the given mean: p99 above p50, the seed fixing the draws', () => {
    const flat = qd1Reads({}, 4000)[0]
    const a = qd1Reads({ commandJitterUs: 10 }, 4000, 1)
    const b = qd1Reads({ commandJitterUs: 10 }, 4000, 1)
    const c = qd1Reads({ commandJitterUs: 10 }, 4000, 2)
    expect(b).toEqual(a)
    expect(c).not.toEqual(a)
    const extra = a.map((x) => (x - flat) / US)
    const mean = extra.reduce((s, x) => s + x, 0) / extra.length
    expect(mean).toBeGreaterThan(9)
    expect(mean).toBeLessThan(11)
    // exponential: median = mean·ln 2, p99 = mean·ln 100
    expect(quantile(extra, 0.5)).toBeGreaterThan(5.5)
    expect(quantile(extra, 0.5)).toBeLessThan(8.5)
    expect(quantile(extra, 0.99)).toBeGreaterThan(38)
    expect(quantile(extra, 0.99)).toBeLessThan(55)
    expect(Math.min(...extra)).toBeGreaterThanOrEqual(0)
  })
})
