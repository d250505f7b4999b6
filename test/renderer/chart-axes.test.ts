import { describe, expect, it } from 'vitest'
import type { RunResult } from '../../src/shared/experiment/result'
import { throughputShare } from '../../src/renderer/src/lib/series'
import { legendBox } from '../../src/renderer/src/lib/chart-theme'
import { SQUASH_RATIO, timeAxes } from '../../src/shared/metrics/time-axis'
import {
  LOG_DECADES,
  logFloor,
  logTick,
  scaleType,
  spanDecades,
  typical,
} from '../../src/renderer/src/lib/scales'

describe('linear or log axes', () => {
  it('measures the decades between the smallest and largest positive value', () => {
    expect(spanDecades([1, 4, 16, 64])).toBeCloseTo(Math.log10(64), 12)
    expect(spanDecades([10, 1700])).toBeCloseTo(Math.log10(170), 12)
    // zeros, negatives and gaps are not on a log axis: they do not count
    expect(spanDecades([0, -5, NaN, Infinity, 2, 20])).toBeCloseTo(1, 12)
    expect(spanDecades([7])).toBe(0)
    expect(spanDecades([])).toBe(0)
  })

  it('goes logarithmic on its own only past 1.5 decades', () => {
    expect(LOG_DECADES).toBe(1.5)
    // a sweep of 1, 4, 16, 64: 1.8 decades
    expect(scaleType('auto', [1, 4, 16, 64])).toBe('logarithmic')
    // 1, 4, 16: 1.2 decades, as readable on a linear axis
    expect(scaleType('auto', [1, 4, 16])).toBe('linear')
    // a 10 MB/s reader beside a 1.7 GB/s writer
    expect(scaleType('auto', [10, 1700])).toBe('logarithmic')
    expect(scaleType('auto', [10, 10 * 10 ** 1.5])).toBe('linear')
    expect(scaleType('auto', [10, 10 * 10 ** 1.51])).toBe('logarithmic')
  })

  it('does what the user picks, whatever the span', () => {
    expect(scaleType('linear', [1, 1e6])).toBe('linear')
    expect(scaleType('log', [5, 6])).toBe('logarithmic')
  })

  it('sizes a series by its median positive value, so idle intervals and a burst do not make it log', () => {
    // a reader at about 100 MB/s with idle seconds and one 5 GB/s cache burst
    const reader = [0, 0, 98, 101, 100, 5000, 99, 0]
    expect(typical(reader)).toBe(100)
    expect(scaleType('auto', [typical(reader)])).toBe('linear')
    // beside it a writer at 2 MB/s: the series differ by 1.7 decades
    expect(scaleType('auto', [typical(reader), typical([2, 2, 0, 2])])).toBe('logarithmic')
    expect(typical([0, 0])).toBeNaN()
    expect(typical([3, 1])).toBe(2)
  })
})

describe('where a log axis starts', () => {
  it('starts at the power of ten at least a factor of two below the smallest value', () => {
    expect(logFloor([10.5, 3493])).toBe(1)
    expect(logFloor([0, 250, 1700])).toBe(100)
    expect(logFloor([0, 150])).toBe(10)
    expect(logFloor([0.3, 2])).toBe(0.1)
    expect(logFloor([0, NaN, -1])).toBeUndefined()
  })
})

describe('one time axis for all runs or one each', () => {
  it('gives each run its own when one is over three times the shortest', () => {
    expect(SQUASH_RATIO).toBe(3)
    // one 308 s run beside seven 30 s ones
    expect(timeAxes('auto', [308, 30, 30, 30, 30, 30, 30, 30])).toBe('each')
    expect(timeAxes('auto', [60, 60, 2.1])).toBe('each')
    expect(timeAxes('auto', [30, 31, 89])).toBe('shared')
    // a run still waiting (0) or alone squashes nothing
    expect(timeAxes('auto', [0, 30])).toBe('shared')
    expect(timeAxes('auto', [308])).toBe('shared')
    expect(timeAxes('shared', [308, 30])).toBe('shared')
    expect(timeAxes('each', [30, 30])).toBe('each')
  })

  it('puts a run on per cent of its length', () => {
    const r = {
      seconds: 4,
      timeSeries: { tMs: [0, 1000, 2000, 3000], readMBps: [1, 2, 3, 4], writeMBps: [0, 0, 0, 5] },
    } as unknown as RunResult
    const s = throughputShare(r)
    expect(s.read.map((p) => p.x)).toEqual([0, 25, 50, 75])
    expect(s.write.map((p) => p.y)).toEqual([0, 0, 0, 5])
    // computed once per run
    expect(throughputShare(r)).toBe(s)
  })
})

describe('log axis labels', () => {
  it('labels 1, 2 and 5 of each decade as people write them, and nothing between', () => {
    expect([0.1, 0.2, 0.3, 0.5, 1, 3, 10, 20, 50, 70, 100, 5000].map(logTick)).toEqual([
      '0.1',
      '0.2',
      '',
      '0.5',
      '1',
      '',
      '10',
      '20',
      '50',
      '',
      '100',
      '5,000',
    ])
    expect(logTick(1000)).toBe('1,000')
    expect(logTick(0)).toBe('')
    expect(logTick(-1)).toBe('')
  })
})

describe('legend keys', () => {
  it('are square swatches for bars and short lines for line and point charts', () => {
    expect(legendBox('bar')).toEqual({ boxWidth: 10, boxHeight: 10 })
    for (const t of ['line', 'scatter']) expect(legendBox(t)).toEqual({ boxWidth: 14, boxHeight: 2 })
  })
})
