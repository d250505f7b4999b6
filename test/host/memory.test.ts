import { describe, expect, it } from 'vitest'
import { resolveSpec } from '../../src/shared/experiment/validate'
import { simulate } from '../../src/shared/experiment/runner'
import { hostRig } from '../helpers/host-rig'

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
    // the same computation, plus the CPU of the reclaim the process did itself (direct reclaim)
    expect(p.cpuSeconds).toBeGreaterThanOrEqual(fits.cpuSeconds)
    expect(p.cpuSeconds).toBeLessThan(fits.cpuSeconds * 1.02)
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

describe('processes have memory', () => {
  it('a process declares memory: allocated when it starts, touched as it runs, freed when it exits', () => {
    const proc = (MiB: number) => ({
      name: 'r',
      type: 'random-read',
      params: { file: 'data', size: '16M', bs: '4k', count: 2000 },
      memory: { MiB, pattern: 'random', pagesPerCall: 4 },
    })
    const small = hostRig({
      device: { preset: 'hdd-2003-ide' },
      host: { preset: 'linux-2003', overrides: { memoryMiB: 512, reservedMiB: 32 } },
      workload: { processes: [proc(64)] },
      schedulers: ['deadline'],
    })
    small.runUntil(600)
    const t = small.tasks[0]
    expect(t.finishedAt).toBeGreaterThan(0)
    // freed at exit: nothing of it is left in memory or in swap
    expect(small.kernel.anon.resident).toBe(0)
    // in 48 MiB the same process cannot keep its 64 MiB: it pages while doing its I/O
    const tight = hostRig({
      device: { preset: 'hdd-2003-ide' },
      host: { preset: 'linux-2003', overrides: { memoryMiB: 48, reservedMiB: 32 } },
      workload: { processes: [proc(64)] },
      schedulers: ['deadline'],
    })
    tight.runUntil(600)
    expect(tight.kernel.anon.swappedOut).toBeGreaterThan(0)
    expect(tight.kernel.anon.swappedIn).toBeGreaterThan(0)
    expect(tight.tasks[0].finishedAt).toBeGreaterThan(t.finishedAt)
  })

  it('a kbuild-like make under a small memory pages: each compiler holds its working memory', () => {
    const build = (memoryMiB: number) => {
      const r = hostRig({
        device: { preset: 'hdd-2003-ide' },
        host: { preset: 'linux-2003', overrides: { memoryMiB, reservedMiB: 32 } },
        workload: {
          processes: [
            { name: 'make', type: 'kbuild', params: { jobs: 4, units: 40, computeMs: 100, cc1MiB: 16 } },
          ],
        },
        schedulers: ['deadline'],
      })
      r.runUntil(600)
      return r
    }
    const roomy = build(256)
    expect(roomy.tasks[0].finishedAt).toBeGreaterThan(0)
    expect(roomy.kernel.anon.swappedOut).toBe(0)
    // four compilers × 16 MiB do not fit in 48 MiB: their pages go to swap while they compile
    const small = build(48)
    expect(small.tasks[0].finishedAt).toBeGreaterThan(0)
    expect(small.kernel.anon.swappedOut).toBeGreaterThan(1000)
    expect(small.tasks[0].finishedAt).toBeGreaterThan(roomy.tasks[0].finishedAt)
    // and every compiler's memory was freed when it exited
    expect(small.kernel.anon.resident).toBe(0)
  })

  it('checks the memory of a process in the spec', () => {
    expect(() =>
      simulate(
        resolveSpec({
          device: { preset: 'hdd-2003-ide' },
          workload: { processes: [{ name: 'x', type: 'cpu-hog', memory: { MiB: -1 } }] },
          schedulers: ['noop'],
        }),
        0,
      ),
    ).toThrow(/workload\.processes\[0\]\.memory\.MiB/)
  })
})
