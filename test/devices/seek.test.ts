import { describe, expect, it } from 'vitest'
import { FITTED_7200, HP_97560, meanSeekMs, parseSeekTable, seekTimeMs } from '../../src/shared/devices/seek'

describe('seek curves', () => {
  const C = 113_909 // hdd-7200-sata cylinders

  it('fitted 7200 rpm curve: ~1 ms single track, 20 ms full stroke, 8.5 ms mean', () => {
    expect(seekTimeMs(FITTED_7200, 0, C)).toBe(0)
    expect(seekTimeMs(FITTED_7200, 1, C)).toBeCloseTo(1.0 + 11.26 * Math.sqrt(1 / C), 10)
    expect(seekTimeMs(FITTED_7200, 1, C)).toBeGreaterThan(1.0)
    expect(seekTimeMs(FITTED_7200, 1, C)).toBeLessThan(1.05)
    expect(seekTimeMs(FITTED_7200, C, C)).toBeCloseTo(20.0, 10)
    expect(meanSeekMs(FITTED_7200, C)).toBeCloseTo(8.5, 1)
  })

  it('fitted curve is continuous at the boundary x = 0.108', () => {
    const d = 0.108 * C
    const below = seekTimeMs(FITTED_7200, d, C)
    const above = seekTimeMs(FITTED_7200, d + 1, C)
    expect(below).toBeCloseTo(1.0 + 11.26 * Math.sqrt(0.108), 6)
    expect(Math.abs(above - below)).toBeLessThan(0.01)
  })

  it('HP 97560 formula (Ruemmler & Wilkes): 3.24 + 0.400·√d up to 383 cylinders, 8.00 + 0.008·d beyond', () => {
    const C97 = 1962
    expect(seekTimeMs(HP_97560, 1, C97)).toBeCloseTo(3.64, 10)
    expect(seekTimeMs(HP_97560, 100, C97)).toBeCloseTo(7.24, 10)
    expect(seekTimeMs(HP_97560, 383, C97)).toBeCloseTo(3.24 + 0.4 * Math.sqrt(383), 10)
    expect(seekTimeMs(HP_97560, 384, C97)).toBeCloseTo(8.0 + 0.008 * 384, 10)
    expect(seekTimeMs(HP_97560, 1961, C97)).toBeCloseTo(23.688, 10)
  })

  it('a measured table interpolates linearly and stays flat past its last point', () => {
    const t = parseSeekTable('1:0.8, 101:2.8, 1001:8.8')
    if (typeof t === 'string') throw new Error(t)
    expect(seekTimeMs(t, 0, 5000)).toBe(0)
    expect(seekTimeMs(t, 1, 5000)).toBeCloseTo(0.8, 10)
    expect(seekTimeMs(t, 51, 5000)).toBeCloseTo(1.8, 10)
    expect(seekTimeMs(t, 551, 5000)).toBeCloseTo(5.8, 10)
    expect(seekTimeMs(t, 4000, 5000)).toBeCloseTo(8.8, 10)
  })

  it('rejects malformed tables', () => {
    expect(typeof parseSeekTable('1:1, 1:2')).toBe('string')
    expect(typeof parseSeekTable('0:1')).toBe('string')
    expect(typeof parseSeekTable('fast')).toBe('string')
  })
})
