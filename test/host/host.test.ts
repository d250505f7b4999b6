import { describe, expect, it } from 'vitest'
import { resolveSpec } from '../../src/shared/experiment/validate'
import { simulate } from '../../src/shared/experiment/runner'
import { READ, WRITE } from '../../src/shared/block/types'

const run = (doc: unknown) => simulate(resolveSpec(doc), 0, 0)

describe('CPU scheduling of the processes that issue I/O (published measurement C)', () => {
  const spec = (policy: string, bs: string, hog: boolean) => ({
    device: { preset: 'hdd-1997-scsi' },
    host: { preset: 'freebsd-1997', overrides: { cpuPolicy: policy } },
    workload: {
      processes: [
        { name: 'dd', type: 'dd', params: { file: '/dev', bs, count: hog ? 40 : 300, direct: true } },
        ...(hog ? [{ name: 'hog', type: 'cpu-hog', nice: 19 }] : []),
      ],
      stop: { processes: ['dd'] },
    },
    schedulers: ['noop'],
  })
  const recordsPerSecond = (policy: string, bs: string, hog: boolean) => {
    const p = run(spec(policy, bs, hog)).processes[0]
    return p.ops / p.seconds
  }

  it('under `tick`, an I/O-bound dd next to a CPU hog completes about one record per quantum', () => {
    // quantum 50 ms → 20 records/s whatever the block size, half that when the driver splits it
    for (const bs of ['4k', '16k', '64k']) expect(recordsPerSecond('tick', bs, true)).toBeCloseTo(20, 0)
    expect(recordsPerSecond('tick', '128k', true)).toBeCloseTo(10, 0)
  })

  it('under `preemptive`, the same dd keeps close to its idle throughput', () => {
    for (const bs of ['16k', '64k']) {
      const idle = recordsPerSecond('preemptive', bs, false)
      const loaded = recordsPerSecond('preemptive', bs, true)
      expect(loaded / idle).toBeGreaterThan(0.85)
      expect(recordsPerSecond('tick', bs, true) / idle).toBeLessThan(0.2)
    }
  })

  it('an idle machine reads the raw disk at its media rate, for any block size', () => {
    for (const bs of ['4k', '64k', '128k']) {
      const p = run(spec('tick', bs, false)).processes[0]
      expect(p.MBps).toBeGreaterThan(9)
      expect(p.MBps).toBeLessThan(12)
    }
  })
})

describe('read-ahead', () => {
  it('grows the window of a sequential reader from the request size to read_ahead_kb', () => {
    const r = run({
      device: { preset: 'ssd-sata-mlc' },
      host: { overrides: { readAheadKiB: 128 } },
      workload: { processes: [{ name: 'cat', type: 'cat', params: { size: '4M', bs: '4k' } }] },
      schedulers: ['noop'],
    })
    const kib = r.dispatches.nsect
      .map((n, i) => (r.dispatches.op[i] === READ ? n / 2 : 0))
      .filter((x) => x > 0)
    // first window 16 KiB (4 pages for a 1-page read), then ×2 … up to 128 KiB
    expect(kib.slice(0, 4)).toEqual([16, 32, 64, 128])
    expect(Math.max(...kib)).toBe(128)
    expect(r.processes[0].bytes).toBe(4 * 1024 * 1024)
  })

  it('does not read ahead for random reads', () => {
    const r = run({
      device: { preset: 'ssd-sata-mlc' },
      workload: {
        processes: [{ name: 'rr', type: 'random-read', params: { size: '1G', bs: '4k', count: 300 } }],
      },
      schedulers: ['noop'],
    })
    expect(r.totals.readBytes).toBeLessThan(300 * 4096 * 1.1)
  })
})

describe('writeback', () => {
  it('writes back small dirty data only when it expires (dirty_expire 30 s, flusher every 5 s)', () => {
    const r = run({
      device: { preset: 'ssd-sata-mlc' },
      // the page cache alone: ext4's journal would commit the inode update at 5 s
      host: { overrides: { cpus: 2 }, filesystem: { type: 'none' } },
      workload: {
        processes: [
          { name: 'w', type: 'dd', params: { op: 'write', bs: '1M', count: 4 } },
          { name: 'idle', type: 'cpu-hog' },
        ],
        stop: { processes: [], maxSeconds: 45 },
      },
      schedulers: ['noop'],
    })
    const writes = r.dispatches.tMs.filter((_, i) => r.dispatches.op[i] === WRITE)
    expect(writes.length).toBeGreaterThan(0)
    expect(Math.min(...writes)).toBeGreaterThanOrEqual(30_000)
    expect(Math.min(...writes)).toBeLessThanOrEqual(36_000)
    expect(r.totals.writeBytes).toBe(4 * 1024 * 1024)
  })

  it('throttles a writer to the device rate once dirty memory reaches dirty_ratio', () => {
    const r = run({
      device: { preset: 'hdd-7200-sata' },
      host: { overrides: { memoryMiB: 1024, reservedMiB: 256 } },
      workload: { processes: [{ name: 'w', type: 'dd', params: { op: 'write', bs: '1M', count: 2048 } }] },
      schedulers: ['deadline'],
    })
    const w = r.processes[0]
    // 2 GiB through a 768 MiB cache with a 20 % dirty limit: the writer cannot outrun the disk by
    // more than the dirty limit, so its elapsed time is close to the device's write time
    const dirtyLimit = 0.2 * 768 * 2 ** 20
    expect(r.totals.writeBytes).toBeGreaterThan(2 * 2 ** 30 - dirtyLimit - 64 * 2 ** 20)
    const deviceSeconds = r.totals.writeBytes / 1e6 / r.totals.writeMBps
    expect(w.seconds).toBeGreaterThan(0.8 * deviceSeconds)
    expect(w.MBps).toBeLessThan(1.35 * r.totals.writeMBps)
  })

  it('starts background writeback above dirty_background_ratio, before the writer is throttled', () => {
    const r = run({
      device: { preset: 'ssd-sata-mlc' },
      host: { overrides: { memoryMiB: 2048, reservedMiB: 1024, dirtyBackgroundRatio: 10, dirtyRatio: 50 } },
      workload: { processes: [{ name: 'w', type: 'dd', params: { op: 'write', bs: '1M', count: 256 } }] },
      schedulers: ['noop'],
    })
    // 256 MiB into a 1 GiB cache: above 10 % (≈102 MiB) the flusher writes, below 50 % nobody waits,
    // so the writer finishes at memory speed while writeback has only begun
    const w = r.processes[0]
    const firstWrite = Math.min(...r.dispatches.tMs.filter((_, i) => r.dispatches.op[i] === WRITE)) / 1000
    expect(firstWrite).toBeGreaterThan(0.35 * w.seconds)
    expect(firstWrite).toBeLessThan(0.45 * w.seconds)
    expect(w.MBps).toBeGreaterThan(5 * r.totals.writeMBps)
  })
})
