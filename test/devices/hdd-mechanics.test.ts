import { describe, expect, it } from 'vitest'
import { parseZoneTable } from '../../src/shared/devices/hdd-mechanics'
import { sataMechanics } from './driver'

// The hdd-7200-sata geometry.
const mech = sataMechanics()

describe('HDD geometry', () => {
  it('derives capacity from the zones (≈ 500 GB)', () => {
    expect(mech.capacitySectors * 512).toBeGreaterThan(499e9)
    expect(mech.capacitySectors * 512).toBeLessThan(502e9)
    expect(mech.revNs).toBe(8_333_333)
  })

  it('maps LBAs to cylinder, head and sector through the zones', () => {
    expect(mech.position(0)).toMatchObject({
      zone: 0,
      cylinder: 0,
      head: 0,
      sector: 0,
      sectorsPerTrack: 1160,
    })
    expect(mech.position(1159)).toMatchObject({ cylinder: 0, head: 0, sector: 1159 })
    expect(mech.position(1160)).toMatchObject({ cylinder: 0, head: 1, sector: 0 })
    expect(mech.position(1160 * 10)).toMatchObject({ cylinder: 1, head: 0, sector: 0 })
    expect(mech.position(1160 * 10 * 7 + 1160 * 3 + 5)).toMatchObject({ cylinder: 7, head: 3, sector: 5 })
    const z1 = mech.zoneStart(1)
    expect(z1).toBe(4747 * 10 * 1160) // 113 909 = 24 × 4746 + 5: the first 5 zones get one more
    expect(mech.position(z1)).toMatchObject({ zone: 1, cylinder: 4747, head: 0, sector: 0 })
    expect(mech.position(z1 - 1)).toMatchObject({ zone: 0, cylinder: 4746, head: 9, sector: 1159 })
    const last = mech.position(mech.capacitySectors - 1)
    expect(last).toMatchObject({ zone: 23, cylinder: 113_908, head: 9, sector: 554, sectorsPerTrack: 555 })
  })

  it('gives each zone its media rate: 64.8 MB/s outer, 31.0 MB/s inner (Hitachi 7K500)', () => {
    expect(mech.zoneRate(0).sustainedMBps).toBeCloseTo(64.8, 0)
    expect(mech.zoneRate(23).sustainedMBps).toBeCloseTo(31.0, 0)
    for (let z = 1; z < mech.zoneCount; z++)
      expect(mech.zoneRate(z).sustainedMBps).toBeLessThan(mech.zoneRate(z - 1).sustainedMBps)
    // Raw rate: one track per revolution.
    expect(mech.zoneRate(0).rawMBps).toBeCloseTo((1160 * 512) / 8.333333e-3 / 1e6, 3)
  })

  it('tracks the platter angle as a function of absolute time', () => {
    const rev = mech.revNs
    const a = mech.position(300).angleNs
    expect(a).toBe(Math.round((300 * rev) / 1160))
    // Arriving exactly when the sector comes round: no wait; just after: almost a revolution.
    expect(mech.rotationalWaitNs(300, 5 * rev + a)).toBe(0)
    expect(mech.rotationalWaitNs(300, 5 * rev + a + 1000)).toBe(rev - 1000)
    expect(mech.rotationalWaitNs(300, 5 * rev + a - 1000)).toBe(1000)
    // Half a turn away: half a revolution.
    expect(mech.rotationalWaitNs(300, 7 * rev + a + rev / 2)).toBeCloseTo(rev / 2, -1)
  })

  it('skews tracks so a transfer crossing a track boundary loses only the switch time', () => {
    const rev = mech.revNs
    const t0 = mech.position(0).angleNs + 10 * rev
    // One full track from its first sector: exactly one revolution.
    expect(mech.walk(0, 1160, t0) - t0).toBe(rev)
    // Two tracks: two revolutions plus the head skew, which covers the 0.8 ms head switch.
    const two = mech.walk(0, 2320, t0) - t0
    expect(two - 2 * rev).toBeGreaterThanOrEqual(800_000)
    expect(two - 2 * rev).toBeLessThan(800_000 + (2 * rev) / 1160 + 100)
    // A whole cylinder then the next track: the cylinder switch costs a single-track seek, not a turn.
    const cyl = mech.walk(0, 11 * 1160, t0) - t0
    expect(cyl - 11 * rev).toBeLessThan(9 * 810_000 + 1_100_000)
  })

  it('walks across a zone boundary', () => {
    const z1 = mech.zoneStart(1)
    const t0 = mech.position(z1 - 100).angleNs + 20 * mech.revNs
    const end = mech.walk(z1 - 100, 200, t0)
    expect(mech.walkLba).toBe(z1 + 100)
    // 100 sectors of a 1160-sector track, a cylinder switch (with skew), 100 of the next zone's track.
    const expected =
      (100 * mech.revNs) / 1160 + mech.cylSwitchNs + (100 * mech.revNs) / mech.sectorsPerTrack(1)
    expect(end - t0).toBeGreaterThanOrEqual(expected - 2)
    expect(end - t0).toBeLessThan(expected + (2 * mech.revNs) / 1160)
  })

  it('seeks between cylinders, switches heads on the same cylinder, adds write settle', () => {
    const c1 = 1160 * 10
    expect(mech.moveNs(0, 5, false)).toBe(0)
    expect(mech.moveNs(0, 1160, false)).toBe(mech.headSwitchNs)
    expect(mech.moveNs(0, c1, false)).toBe(Math.round((1.0 + 11.26 * Math.sqrt(1 / 113_909)) * 1e6))
    expect(mech.moveNs(0, c1, true)).toBe(mech.moveNs(0, c1, false) + 1_000_000)
    // Full stroke: 2.85 + 17.15·x ms with x = 113 908 / 113 909 ≈ 20 ms.
    expect(mech.moveNs(0, mech.capacitySectors - 1, false)).toBe(
      Math.round((2.85 + (17.15 * 113_908) / 113_909) * 1e6),
    )
  })

  it('parses explicit zone tables', () => {
    expect(parseZoneTable('100:300, 50:200')).toEqual([
      { cylinders: 100, sectorsPerTrack: 300 },
      { cylinders: 50, sectorsPerTrack: 200 },
    ])
    expect(typeof parseZoneTable('100x300')).toBe('string')
  })
})
