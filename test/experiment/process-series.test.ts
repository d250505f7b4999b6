import { describe, expect, it } from 'vitest'
import { simulate } from '../../src/shared/experiment/runner'
import { resolveSpec } from '../../src/shared/experiment/validate'

// a 10 MB/s reader beside a writer at gigabytes per second, direct I/O: every request is one of theirs
const spec = resolveSpec({
  name: 'per-process series',
  device: { preset: 'nvme-tlc' },
  workload: {
    processes: [
      {
        name: 'reader',
        type: 'fio',
        params: {
          rw: 'read',
          bs: '64k',
          rate: '10M',
          direct: true,
          size: '1G',
          time_based: true,
          runtime: 1,
        },
      },
      {
        name: 'writer',
        type: 'fio',
        params: {
          rw: 'write',
          bs: '1M',
          iodepth: 16,
          ioengine: 'io_uring',
          direct: true,
          size: '1G',
          time_based: true,
          runtime: 1,
        },
      },
    ],
    stop: { processes: ['reader'], maxSeconds: 3 },
  },
  schedulers: ['none'],
})

describe('per-process throughput over time', () => {
  const r = simulate(spec, 0, 0)
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0)

  it('keeps each process’s MB/s in the device series’ bins, adding up to the device’s', () => {
    const ps = r.processSeries!
    expect(ps.map((p) => p.name)).toEqual(['reader', 'writer'])
    expect(ps.map((p) => p.pid)).toEqual(r.processes.map((p) => p.pid))
    const bins = r.timeSeries.tMs.length
    for (const p of ps) {
      expect(p.readMBps).toHaveLength(bins)
      expect(p.writeMBps).toHaveLength(bins)
    }
    for (let k = 0; k < bins; k++) {
      expect(ps[0].readMBps[k] + ps[1].readMBps[k]).toBeCloseTo(r.timeSeries.readMBps[k], 6)
      expect(ps[0].writeMBps[k] + ps[1].writeMBps[k]).toBeCloseTo(r.timeSeries.writeMBps[k], 6)
    }
    // the reader only reads, the writer only writes
    expect(sum(ps[0].writeMBps)).toBe(0)
    expect(sum(ps[1].readMBps)).toBe(0)
  })

  it('gives each process its own rate over time: the reader about 10 MB/s, the writer far above', () => {
    const [reader, writer] = r.processSeries!
    const interval = r.timeSeries.intervalMs / 1000
    // bytes over the run, from the series, match the process's own count
    expect(sum(reader.readMBps) * interval * 1e6).toBeCloseTo(r.processes[0].readBytes, -5)
    const busy = reader.readMBps.filter((v) => v > 0)
    expect(busy.length).toBeGreaterThan(3)
    for (const v of busy.slice(1, -1)) expect(v).toBeGreaterThan(5)
    for (const v of busy.slice(1, -1)) expect(v).toBeLessThan(20)
    expect(Math.max(...writer.writeMBps)).toBeGreaterThan(10 * Math.max(...reader.readMBps))
  })
})

describe('per-process throughput of buffered writes', () => {
  it('gives writeback its own series, named as the kernel names it, and the series still add up', () => {
    const r = simulate(
      resolveSpec({
        name: 'buffered',
        device: { preset: 'nvme-tlc' },
        workload: {
          processes: [
            { name: 'writer', type: 'dd', params: { op: 'write', file: 'f', bs: '1M', count: 512 } },
          ],
          stop: { maxSeconds: 10 },
        },
        schedulers: ['none'],
      }),
      0,
      0,
    )
    const names = r.processSeries!.map((p) => p.name)
    expect(names).toContain('flush')
    const total = (k: number) => r.processSeries!.reduce((a, p) => a + p.readMBps[k] + p.writeMBps[k], 0)
    r.timeSeries.tMs.forEach((_, k) =>
      expect(total(k)).toBeCloseTo(r.timeSeries.readMBps[k] + r.timeSeries.writeMBps[k], 6),
    )
    expect(r.processSeries!.find((p) => p.name === 'flush')!.writeMBps.some((v) => v > 0)).toBe(true)
  })
})
