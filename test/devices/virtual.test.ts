// The virtual device model (loop, virtio, device-mapper): measured service distributions, lanes
// per direction, reads waiting behind writes in one line, and the device's own path on the host's
// CPUs.
import { describe, expect, it } from 'vitest'
import { READ, WRITE } from '../../src/shared/block/types'
import { parseQuantileTable } from '../../src/shared/devices/quantile-table'
import { laneSpeeds } from '../../src/shared/devices/lane-speeds'
import { simulate } from '../../src/shared/experiment/runner'
import { resolveSpec } from '../../src/shared/experiment/validate'
import type { ParamIssue } from '../../src/shared/util/params'
import { presetDriver, random, sequential } from './driver'
import { LOOP_LANES } from '../helpers/loop-lanes'

/**
 * The loop device alone: no backing disk below it (devices/backing-stack.ts has its own tests), one
 * page a segment and nothing for handing a request on (virtual-dispatch.test.ts), as these tests
 * of the lanes and the link were written for.
 */
const OPAQUE = { backingScheduler: '', segmentKiB: '0:4, 100:4', notifyUs: 0, segmentUs: 0 }

const FLAT = '0:100, 100:100'

describe('quantile tables', () => {
  it('draws by inverting the CDF between knots', () => {
    const t = parseQuantileTable('0:10, 50:20, 90:100, 100:1000', 'x', [])!
    expect(t.draw(0)).toBe(10)
    expect(t.draw(0.25)).toBe(15)
    expect(t.draw(0.5)).toBe(20)
    expect(t.draw(0.95)).toBe(550)
    expect(t.at(100)).toBe(1000)
    expect(t.mean()).toBeCloseTo(0.5 * 15 + 0.4 * 60 + 0.1 * 550)
  })

  it('says what is wrong with a table, and where', () => {
    const issues: ParamIssue[] = []
    expect(parseQuantileTable('0:10, 50:5, 100:x', 'device.overrides.readServiceUs', issues)).toBeNull()
    expect(issues).toEqual([
      { path: 'device.overrides.readServiceUs', message: expect.stringContaining('point 3 ("100:x")') },
    ])
    const more: ParamIssue[] = []
    parseQuantileTable('10:1, 50:5, 40:4', 'p', more)
    expect(more.map((i) => i.message)).toEqual([
      'the first point must be at 0 % and the last at 100 %',
      'percents must increase: 50 then 40',
      'values must not decrease: 5 at 50 % then 4 at 40 %',
    ])
  })

  it('a bad table in a spec is a located error', () => {
    expect(() =>
      resolveSpec({
        device: { preset: 'loop-dio-virtio', overrides: { ...LOOP_LANES, writeServiceUs: '0:5' } },
        workload: {
          processes: [{ name: 'r', type: 'fio', params: { rw: 'randread', filename: '/dev', size: '1M' } }],
        },
        schedulers: ['none'],
      }),
    ).toThrow(/device\.overrides\.writeServiceUs: needs at least two points/)
  })
})

describe('the virtual device', () => {
  it('has the measured tail: a QD1 read p99 above its p50, the same for the same seed', () => {
    const run = () => {
      const d = presetDriver('loop-dio-virtio', { ...LOOP_LANES, ...OPAQUE, pathUs: 0 })
      return d.run(random(READ, 4, d.device.info.capacitySectors), 4000, 1).latenciesMs
    }
    const a = run()
    const sorted = [...a].sort((x, y) => x - y)
    const p = (q: number) => sorted[Math.floor((q / 100) * (sorted.length - 1))]
    expect(p(99)).toBeGreaterThan(3 * p(50))
    expect(run()).toEqual(a)
  })

  it('serves `readParallel` reads at once; a fractional last lane its fraction of the work', () => {
    expect([...laneSpeeds(3)]).toEqual([1, 1, 1])
    expect([...laneSpeeds(2.5)]).toEqual([1, 1, 0.5])
    const qd = (p: number) =>
      presetDriver('loop-dio-virtio', { ...LOOP_LANES, ...OPAQUE, readServiceUs: FLAT, readParallel: p }).run(
        sequential(READ, 4),
        3000,
        16,
      )
    // 100 µs each: p lanes → p × 10 000 IOPS
    expect(qd(1).iops).toBeCloseTo(10_000, -2)
    expect(qd(4).iops).toBeCloseTo(40_000, -2)
    expect(qd(2.5).iops).toBeCloseTo(25_000, -3)
  })

  it('a small fractional lane does its share of the work, not a request at a twentieth of the speed', () => {
    const r = presetDriver('loop-dio-virtio', {
      ...LOOP_LANES,
      ...OPAQUE,
      readServiceUs: FLAT,
      readParallel: 2.05,
    }).run(sequential(READ, 4), 20_000, 3)
    // two full lanes and a twentieth of one: 20 500 IOPS
    expect(r.iops).toBeGreaterThan(20_200)
    expect(r.iops).toBeLessThan(20_800)
    // each request takes its 100 µs on a lane, after waiting at most one service for a lane to
    // free (a lane at a twentieth of the speed would take 2 ms)
    expect(Math.max(...r.latenciesMs)).toBeLessThanOrEqual(0.2001)
  })

  it('a read waits behind the writes before it in one line; with separate lines it does not', () => {
    const lat = (sharedLanes: boolean) => {
      const d = presetDriver('loop-dio-virtio', {
        ...LOOP_LANES,
        ...OPAQUE,
        readServiceUs: FLAT,
        writeServiceUs: '0:1000, 100:1000',
        readParallel: 1,
        writeParallel: 1,
        sharedLanes,
      })
      // eight 1 ms writes, then a read
      const r = d.run(
        (i) => (i < 8 ? { sector: i * 8, nsect: 8, op: WRITE } : { sector: 4096, nsect: 8, op: READ }),
        9,
        9,
      )
      return r.latenciesMs
    }
    // one line: the read (0.1 ms) starts only once the eight writes before it have started
    expect(lat(true)).toEqual([1, 2, 3, 4, 5, 6, 7, 7.1, 8])
    // a line each: the read is done first, the writes go on
    expect(lat(false)).toEqual([0.1, 1, 2, 3, 4, 5, 6, 7, 8])
  })

  it('a small read is answered only after the data of the large writes before it has crossed the link', () => {
    const lat = (sharedLanes: boolean) => {
      const d = presetDriver('loop-dio-virtio', {
        ...LOOP_LANES,
        ...OPAQUE,
        readServiceUs: FLAT,
        writeServiceUs: FLAT,
        readParallel: 4,
        writeParallel: 4,
        writeMBps: 1000,
        sharedLanes,
      })
      // two 1 MiB writes (0.1 ms, then 1 MiB − 4 KiB at 1000 MB/s on the link: 1.044 ms each), then a 4 KiB read
      const r = d.run(
        (i) => (i < 2 ? { sector: i * 2048, nsect: 2048, op: WRITE } : { sector: 8192, nsect: 8, op: READ }),
        3,
        3,
      )
      return r.latenciesMs.map((x) => Math.round(x * 1000) / 1000)
    }
    // one backing store: the read has its lane at once but waits for both writes' transfers
    expect(lat(true)).toEqual([1.144, 2.189, 2.189])
    // separate paths: the read is done in its 0.1 ms
    expect(lat(false)).toEqual([0.1, 1.144, 2.189])
  })

  it('large requests share the bandwidth of the one link', () => {
    const r = presetDriver('loop-dio-virtio', {
      ...LOOP_LANES,
      ...OPAQUE,
      readServiceUs: FLAT,
      readParallel: 8,
      readMBps: 500,
    }).run(sequential(READ, 1024), 400, 8)
    expect(r.mbps).toBeLessThanOrEqual(520)
    expect(r.mbps).toBeGreaterThan(450)
  })

  it('page-cache writes cross the link at their own rate (cacheWriteMBps), a process’s buffers at writeMBps', () => {
    const device = (cacheWriteMBps: number) =>
      presetDriver('loop-dio-virtio', {
        ...LOOP_LANES,
        ...OPAQUE,
        writeServiceUs: FLAT,
        writeParallel: 8,
        writeMBps: 2000,
        cacheWriteMBps,
      })
    const writeback = (i: number) => ({ ...sequential(WRITE, 512)(i), pages: true })
    // measured: writeback at 2.2 GB/s where a process's 512 KiB writes went at 2.5 (virtual-params.ts)
    const slow = device(1000).run(writeback, 200, 8).mbps
    expect(slow).toBeLessThan(1050)
    expect(slow).toBeGreaterThan(900)
    // 0: writeback as fast as the direct writes
    expect(device(0).run(writeback, 200, 8).mbps).toBeGreaterThan(1800)
    // a process's own buffers keep writeMBps
    expect(device(1000).run(sequential(WRITE, 512), 200, 8).mbps).toBeGreaterThan(1800)
  })

  it("its own path runs on the host's CPUs: one worker of 100 µs a request allows 10 000 IOPS", () => {
    const spec = (pathUs: number) =>
      resolveSpec({
        device: {
          preset: 'loop-dio-virtio',
          overrides: {
            ...LOOP_LANES,
            ...OPAQUE,
            readServiceUs: '0:20, 100:20',
            readParallel: 64,
            pathUs,
          },
        },
        host: { preset: 'linux-modern', overrides: { cpus: 2 } },
        workload: {
          processes: [
            {
              name: 'r',
              type: 'fio',
              params: {
                rw: 'randread',
                bs: '4k',
                iodepth: 32,
                ioengine: 'libaio',
                direct: true,
                filename: '/dev',
                size: '256M',
                time_based: true,
                runtime: 1,
              },
            },
          ],
        },
        schedulers: ['none'],
      })
    const iops = (pathUs: number) => {
      const p = simulate(spec(pathUs), 0).processes[0]
      return p.ops / p.seconds
    }
    expect(iops(100)).toBeLessThanOrEqual(10_050)
    expect(iops(100)).toBeGreaterThan(9_000)
    expect(iops(0)).toBeGreaterThan(3 * iops(100))
  })

  it("the scheduler's per-request work lies on a serial path: it lowers the IOPS the path allows", () => {
    const run = (scheduler: string, pathThreads: number) => {
      const spec = resolveSpec({
        device: {
          preset: 'loop-dio-virtio',
          overrides: {
            ...LOOP_LANES,
            ...OPAQUE,
            readServiceUs: '0:20, 100:20',
            readParallel: 64,
            pathUs: 10,
            pathThreads,
          },
        },
        // a scale that makes bfq's cost (1.78 µs) 10 µs a request: the path's time doubles
        host: { preset: 'linux-modern', overrides: { cpus: 4, schedCpuScale: 10 / 1.78 } },
        workload: {
          processes: [
            {
              name: 'r',
              type: 'fio',
              params: {
                rw: 'randread',
                bs: '4k',
                iodepth: 32,
                ioengine: 'libaio',
                direct: true,
                filename: '/dev',
                size: '256M',
                time_based: true,
                runtime: 0.5,
              },
            },
          ],
        },
        schedulers: [scheduler],
      })
      const p = simulate(spec, 0).processes[0]
      return p.ops / p.seconds
    }
    // one worker of 10 µs a request: 100 000 IOPS; with bfq's 10 µs on it, 50 000
    expect(run('none', 1)).toBeGreaterThan(90_000)
    expect(run('bfq', 1) / run('none', 1)).toBeGreaterThan(0.45)
    expect(run('bfq', 1) / run('none', 1)).toBeLessThan(0.55)
    // no serial path (a device on its own): the scheduler's work is only the submitter's CPU,
    // ~11 µs an I/O for fio's one thread (~90 000 IOPS), not also the path's
    expect(run('bfq', 0)).toBeGreaterThan(1.6 * run('bfq', 1))
  })

  it('carries at most `maxSegments` pages a request: 1 MiB direct writes reach it as 512 KiB (128 segments)', () => {
    const spec = (overrides: Record<string, number>) =>
      resolveSpec({
        device: { preset: 'loop-dio-virtio', overrides: { ...LOOP_LANES, ...OPAQUE, ...overrides } },
        host: { preset: 'linux-modern', overrides: { cpus: 2 } },
        workload: {
          processes: [
            {
              name: 'w',
              type: 'fio',
              params: {
                rw: 'write',
                bs: '1M',
                iodepth: 4,
                ioengine: 'libaio',
                direct: true,
                filename: '/dev',
                size: '64M',
              },
            },
          ],
        },
        schedulers: ['none'],
      })
    const kib = (o: Record<string, number>) => {
      const t = simulate(spec(o), 0).totals
      return (t.writeMBps * 1e6) / t.writeIops / 1024
    }
    expect(kib({ maxSegments: 128 })).toBeCloseTo(512, 0)
    expect(kib({ maxSegments: 0 })).toBeCloseTo(1024, 0)
    // max_sectors_kb still bounds it when it is the smaller
    expect(kib({ maxSegments: 128, maxTransferKiB: 256 })).toBeCloseTo(256, 0)
  })

  it('reports the rotational flag it was given (the kernel says 1 for a loop device)', () => {
    expect(presetDriver('loop-dio-virtio', { ...LOOP_LANES, ...OPAQUE }).device.info.rotational).toBe(true)
    expect(
      presetDriver('loop-dio-virtio', { ...LOOP_LANES, ...OPAQUE, rotational: false }).device.info.rotational,
    ).toBe(false)
  })
})

describe('the virtual device under the depth law (contention per request in flight)', () => {
  const at = (depth: number, op: 'randread' | 'randwrite' = 'randread') => {
    const p = simulate(
      resolveSpec({
        device: {
          preset: 'loop-dio-virtio',
          overrides: {
            ...LOOP_LANES,
            readServiceUs: '0:50, 100:50',
            writeServiceUs: '0:80, 100:80',
            readContentionUs: 14,
            writeContentionUs: 9,
            pathUs: 0,
            pathThreads: 0,
          },
        },
        workload: {
          processes: [
            {
              name: 'r',
              type: 'fio',
              params: {
                rw: op,
                bs: '4k',
                iodepth: depth,
                ioengine: 'libaio',
                direct: true,
                filename: '/dev',
                size: '64M',
                time_based: true,
                runtime: 0.3,
              },
            },
          ],
        },
        schedulers: ['none'],
      }),
      0,
      0,
    ).processes[0]
    return { meanUs: p.latencyMs.mean * 1000, iops: p.ops / p.seconds }
  }

  it('takes a request its QD1 time and every other request in flight’s contention: the mean climbs linearly', () => {
    // with 32 in flight: 50 µs and 31 × 14 µs
    expect(at(32).meanUs).toBeGreaterThan(0.95 * (50 + 31 * 14))
    expect(at(32).meanUs).toBeLessThan(1.05 * (50 + 31 * 14))
    expect(at(32, 'randwrite').meanUs).toBeGreaterThan(0.95 * (80 + 31 * 9))
    // the rate approaches 1 / contention and never passes it
    expect(at(32).iops).toBeLessThan(1e6 / 14)
    expect(at(8).iops).toBeLessThan(at(32).iops)
    expect(at(1).meanUs).toBeLessThan(55)
  })
})
