import { expect } from 'vitest'
import type { RequestRecord } from '../../src/shared/experiment/request-tap'
import type { RunResult } from '../../src/shared/experiment/result'
import { LatencyHistogram } from '../../src/shared/metrics/histogram'
import type { RunWhy } from '../../src/shared/metrics/why'

/**
 * Each request's stages add up to its Q2C exactly, none negative, and its device parts to its D2C
 * within rounding (1 ns); and the requests' values are the ones in the run's histograms and parts.
 */
export function expectRequestsAddUp(r: RunResult, records: readonly RequestRecord[]): void {
  expect(records.length).toBe(r.totals.requests)
  expectStagesAddUp(r.why!, records)
}

/**
 * The requests of a run's why (simulated, or read from a trace: every request it recorded, not
 * the device's count) add up one by one, and are the values in its histograms and parts.
 */
export function expectStagesAddUp(why: RunWhy, records: readonly RequestRecord[]): void {
  const partNames = Object.keys(why.processes.find((p) => p.device)?.device ?? {})
  const bad: string[] = []
  for (const x of records) {
    const stages = [x.q2g, x.g2i, x.i2d, x.d2c]
    if (stages.some((v) => !(v >= 0)) || x.q2g + x.g2i + x.i2d + x.d2c !== x.q2c)
      bad.push(`${x.process} ${x.pid}: ${stages.join(' + ')} against Q2C ${x.q2c}`)
    if (partNames.length > 0) {
      const parts = x.parts!
      const sum = parts.reduce((a, v) => a + v, 0)
      if (parts.some((v) => !(v >= 0)) || Math.abs(sum - x.d2c) > 1)
        bad.push(`${x.process} ${x.pid}: parts ${[...parts].join(' + ')} = ${sum} against D2C ${x.d2c}`)
    } else if (x.parts !== null) bad.push(`${x.process}: parts from a device that names none`)
  }
  expect(bad.slice(0, 5), `${bad.length} of ${records.length} requests`).toEqual([])
  expect(records.length, 'requests of the processes in the why').toBe(
    why.processes.reduce((n, s) => n + s.requests, 0),
  )
  for (const s of why.processes) {
    const mine = records.filter((x) => x.process === s.process)
    expect(mine.length, s.process).toBe(s.requests)
    for (const k of ['q2g', 'g2i', 'i2d', 'd2c', 'q2c'] as const)
      expect(
        mine.reduce((a, x) => a + x[k], 0),
        `${s.process} ${k}`,
      ).toBe(LatencyHistogram.fromJSON(s.stages[k]).sum)
    partNames.forEach((n, j) =>
      expect(
        mine.reduce((a, x) => a + x.parts![j], 0),
        `${s.process} ${n}`,
      ).toBe(s.device![n]),
    )
  }
}
