// Zoom and pan of a time axis: the range a drag picks, and a pan that keeps inside the data.
import { describe, expect, it } from 'vitest'
import { panned, rangeBetween, zoomedIn } from '../../src/renderer/src/lib/x-zoom'

const full = { min: 0, max: 60 }

describe('x zoom', () => {
  it('picks the range between the two ends of a drag, in either direction, inside the data', () => {
    expect(rangeBetween(10, 20, full)).toEqual({ min: 10, max: 20 })
    expect(rangeBetween(20, 10, full)).toEqual({ min: 10, max: 20 })
    expect(rangeBetween(-5, 70, full)).toEqual({ min: 0, max: 60 })
    expect(rangeBetween(12, 12, full)).toBeNull()
  })

  it('pans by the distance dragged, never past either end, keeping the width', () => {
    const r = { min: 10, max: 20 }
    expect(panned(r, 5, full)).toEqual({ min: 15, max: 25 })
    expect(panned(r, -30, full)).toEqual({ min: 0, max: 10 })
    expect(panned(r, 100, full)).toEqual({ min: 50, max: 60 })
  })

  it('says whether the axis shows less than all of it', () => {
    expect(zoomedIn(null, full)).toBe(false)
    expect(zoomedIn({ min: 0, max: 60 }, full)).toBe(false)
    expect(zoomedIn({ min: 0, max: 30 }, full)).toBe(true)
  })
})
