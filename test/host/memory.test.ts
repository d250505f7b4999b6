import { describe, expect, it } from 'vitest'
import { resolveSpec } from '../../src/shared/experiment/validate'
import { simulate } from '../../src/shared/experiment/runner'

const run = (memoryMiB: number, processes: unknown[], swapMiB = 2048) =>
  simulate(
    resolveSpec({
      device: { preset: 'hdd-2003-ide' },
      host: { preset: 'linux-2003', overrides: { memoryMiB, reservedMiB: 32, swapMiB } },
      workload: { processes },
      schedulers: ['deadline'],
    }),
    0,
    0,
  )

describe('anonymous memory and swap', () => {
  const qs = { name: 'q', type: 'qsbench', params: { sizeMiB: 96 } }

  it('does no I/O when the working set fits in memory', () => {
    const r = run(512, [qs])
    expect(r.totals.requests).toBe(0)
    expect(r.processes[0].finished).toBe(true)
    // all of its time is its own computation
    expect(r.processes[0].cpuSeconds / r.processes[0].seconds).toBeGreaterThan(0.99)
  })

  it('pages out and back in when it does not fit, and slows down by the disk time', () => {
    const fits = run(512, [qs]).processes[0]
    const r = run(80, [qs])
    const p = r.processes[0]
    expect(p.finished).toBe(true)
    expect(r.totals.writeBytes).toBeGreaterThan(16 * 2 ** 20) // pages written to swap
    expect(r.totals.readBytes).toBeGreaterThan(16 * 2 ** 20) // and read back
    expect(p.seconds).toBeGreaterThan(1.5 * fits.seconds)
    expect(p.cpuSeconds).toBeCloseTo(fits.cpuSeconds, 1) // the same computation
  })

  it('rereads a sequential job’s whole buffer on every pass once it does not fit', () => {
    const job = { name: 'e', type: 'efax', params: { sizeMiB: 64, passes: 4 } }
    expect(run(512, [job]).totals.requests).toBe(0)
    const r = run(48, [job])
    expect(r.totals.readBytes).toBeGreaterThan(2 * 32 * 2 ** 20)
  })

  it('kills with a clear error when memory and swap are exhausted', () => {
    expect(() => run(48, [qs], 0)).toThrow(/out of memory: .*raise host\.overrides\.memoryMiB or swapMiB/)
  })
})
