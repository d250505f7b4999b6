import { describe, expect, it } from 'vitest'
import { resolveSpec } from '../../src/shared/experiment/validate'
import { simulate } from '../../src/shared/experiment/runner'
import { schedulers } from '../../src/shared/schedulers/registry'
import { LatencyHistogram } from '../../src/shared/metrics/histogram'
import { TIME_PARTS } from '../../src/shared/metrics/why'
import type { ProcessTime } from '../../src/shared/metrics/why'
import type { RunResult } from '../../src/shared/experiment/result'
import type { RequestRecord } from '../../src/shared/experiment/request-tap'
import { expectRequestsAddUp } from '../helpers/requests-add-up'

/** A reader with think time, a direct writer, a buffered writer that fsyncs: every kind of wait. */
const mixed = (device: string, host: string): unknown => ({
  device: { preset: device },
  host: { preset: host },
  workload: {
    processes: [
      {
        name: 'reader',
        type: 'fio',
        params: {
          rw: 'randread',
          bs: '4k',
          size: '64m',
          direct: true,
          thinktime: 200,
          time_based: true,
          runtime: 2,
        },
      },
      {
        name: 'dwriter',
        type: 'fio',
        params: {
          rw: 'write',
          bs: '64k',
          size: '64m',
          direct: true,
          iodepth: 4,
          ioengine: 'libaio',
          time_based: true,
          runtime: 2,
        },
      },
      {
        name: 'bwriter',
        type: 'fio',
        params: { rw: 'write', bs: '64k', size: '32m', fsync: 16, time_based: true, runtime: 2 },
      },
    ],
    stop: { maxSeconds: 2 },
  },
  schedulers: schedulers.map((s) => s.name),
})

const sumOf = (t: ProcessTime): number => TIME_PARTS.reduce((a, k) => a + t[k], 0)
const hist = (j: Parameters<typeof LatencyHistogram.fromJSON>[0]): LatencyHistogram =>
  LatencyHistogram.fromJSON(j)

describe.each([
  ['hdd-7200-sata', 'linux-modern'],
  ['ssd-sata-mlc', 'linux-modern'],
  ['hdd-2003-ide', 'linux-2003'],
  ['nvme-tlc', 'linux-modern'],
  ['emmc-4.5', 'android-2012'],
])('the why of a run on %s (%s)', (device, host) => {
  const spec = resolveSpec(mixed(device, host))
  const records: RequestRecord[][] = spec.schedulers.map(() => [])
  const runs: RunResult[] = spec.schedulers.map((_, i) =>
    simulate(spec, i, 0, { requests: (x) => records[i].push(x) }),
  )

  it.each(spec.schedulers.map((s, i) => [s.label, i] as const))(
    '%s: each process’s time parts add up to its time, and each request’s stages to its Q2C and its device parts to its D2C',
    (_label, i) => {
      const r = runs[i]
      expectRequestsAddUp(r, records[i])
      for (const p of r.processes) {
        expect(p.time, p.name).toBeDefined()
        for (const k of TIME_PARTS) expect(p.time![k], `${p.name} ${k}`).toBeGreaterThanOrEqual(0)
        expect(sumOf(p.time!)).toBeCloseTo(p.seconds, 6)
      }
      const why = r.why!
      expect(why.source).toBe('simulated')
      let requests = 0
      for (const s of why.processes) {
        const q2c = hist(s.stages.q2c)
        const parts = (['q2g', 'g2i', 'i2d', 'd2c'] as const).map((k) => hist(s.stages[k]))
        for (const h of parts) expect(h.count).toBe(s.requests)
        // every request's stages are recorded exactly, so their sums add up to the Q2C sum
        expect(parts.reduce((a, h) => a + h.sum, 0)).toBe(q2c.sum)
        expect(s.readRequests + s.writeRequests).toBe(s.requests)
        requests += s.requests
      }
      expect(requests).toBe(r.totals.requests)
    },
  )

  it('puts the waits where they belong: think time, direct I/O, fsync', () => {
    const r = runs.find((x) => x.scheduler === 'mq-deadline' || x.scheduler === 'deadline')!
    const p = (n: string) => r.processes.find((x) => x.name === n)!.time!
    // 200 µs of thinking after each of its reads (the last one perhaps cut short by the time limit)
    const ops = r.processes.find((x) => x.name === 'reader')!.ops
    expect(ops).toBeGreaterThan(2)
    expect(p('reader').think).toBeGreaterThanOrEqual((ops - 1) * 200e-6 - 1e-9)
    expect(p('reader').think).toBeLessThanOrEqual((ops + 1) * 200e-6 + 1e-9)
    expect(p('reader').read).toBeGreaterThan(0)
    expect(p('reader').write).toBe(0)
    expect(p('dwriter').write).toBeGreaterThan(0)
    expect(p('dwriter').read).toBe(0)
    expect(p('bwriter').sync + p('bwriter').throttled).toBeGreaterThan(0)
  })
})

describe('the why costs nothing in the rest of the result', () => {
  const spec = resolveSpec(mixed('hdd-7200-sata', 'linux-modern'))

  it('leaves everything else byte-identical when switched off', () => {
    for (let i = 0; i < spec.schedulers.length; i++) {
      const on = simulate(spec, i)
      const off = simulate(spec, i, 0, { why: false })
      expect(off.why).toBeUndefined()
      const { why: _, ...rest } = on
      expect(JSON.stringify(off)).toBe(JSON.stringify(rest))
    }
  })

  it('is deterministic', () => {
    expect(JSON.stringify(simulate(spec, 3).why)).toBe(JSON.stringify(simulate(spec, 3).why))
  })
})
