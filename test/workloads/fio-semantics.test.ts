import { describe, expect, it } from 'vitest'
import { resolveSpec } from '../../src/shared/experiment/validate'
import { simulate } from '../../src/shared/experiment/runner'
import { WRITE } from '../../src/shared/block/types'

// What fio does with a job file, checked from the device's counters: the cache invalidation at
// open and at each pass (invalidate), the syncs (end_fsync, fsync_on_close, fsync), ramp_time,
// loops, buffered I/O on the block device, and jobs sharing one file.

const MiB = 2 ** 20
/** A device that takes 1 ms per request, 64 at a time: about 512 MB/s for 1 MiB writes. */
const device = { preset: 'nullblk', overrides: { completionUs: 1000, queueDepth: 64 } }

// On bare files (no file system): the bytes counted are the job's alone, without ext4's journal.
const run = (params: Record<string, unknown>, extra: Record<string, unknown> = {}, name = 'f') =>
  simulate(
    resolveSpec({
      device,
      host: { filesystem: { type: 'none' } },
      workload: { processes: [{ name, type: 'fio', params }], ...extra },
      schedulers: ['noop'],
    }),
    0,
    0,
  )

describe('fio invalidate', () => {
  const writer = { rw: 'write', bs: '1M', size: '16M', time_based: true, runtime: 2 }

  it('sends every pass of a buffered time-based writer to the device (fadvise DONTNEED per pass)', () => {
    const r = run(writer)
    const p = r.processes[0]
    const passes = Math.floor(p.writeBytes / (16 * MiB))
    expect(passes).toBeGreaterThan(20)
    // each new pass first starts writeback of the region's dirty pages: all but the last pass
    // reached the device (16 MiB stays far below the background dirty threshold, so nothing else would)
    expect(r.totals.writeBytes).toBeGreaterThanOrEqual((passes - 1) * 16 * MiB)
    expect(r.totals.writeBytes).toBeLessThanOrEqual(p.writeBytes)
  })

  it('leaves everything in the page cache with invalidate=0', () => {
    const r = run({ ...writer, invalidate: false })
    expect(r.processes[0].writeBytes).toBeGreaterThan(100 * 16 * MiB) // memory speed
    expect(r.totals.writeBytes).toBe(0)
  })

  it('makes a buffered time-based reader read every pass from the device', () => {
    const reader = { rw: 'read', bs: '128k', size: '8M', time_based: true, runtime: 1 }
    const on = run(reader)
    const off = run({ ...reader, invalidate: false })
    // invalidated at each pass: the device sees (nearly) every byte the reader reads
    expect(on.totals.readBytes).toBeGreaterThan(0.95 * on.processes[0].readBytes)
    expect(on.processes[0].readBytes).toBeGreaterThan(4 * 8 * MiB)
    // kept: the first pass only, then the cache serves it
    expect(off.totals.readBytes).toBeLessThanOrEqual(8 * MiB + 128 * 1024)
    expect(off.processes[0].readBytes).toBeGreaterThan(10 * on.processes[0].readBytes)
  })

  it('does not invalidate at pass ends for direct I/O', () => {
    const r = run({ rw: 'read', bs: '1M', size: '8M', time_based: true, runtime: 1, direct: true })
    // one request per read, every read from the device, nothing cached either way
    expect(r.totals.readBytes).toBe(r.processes[0].readBytes)
  })
})

describe('fio on /dev: the block device', () => {
  it('writes buffered through the device’s page cache, flushed and waited for at each pass (BLKFLSBUF)', () => {
    const r = run({ rw: 'write', bs: '1M', size: '16M', filename: '/dev', time_based: true, runtime: 2 })
    const p = r.processes[0]
    // not raw: the writes reach the device as page-cache writeback (requests merged from pages),
    // and the writer waits for each pass's flush, so it goes at the device's pace
    const passes = Math.floor(p.writeBytes / (16 * MiB))
    expect(passes).toBeGreaterThan(10)
    expect(r.totals.writeBytes).toBeGreaterThanOrEqual((passes - 1) * 16 * MiB)
    expect(p.MBps).toBeLessThan(1.2 * r.totals.writeMBps)
    // with invalidate=0 the device's cache absorbs it all
    const kept = run({
      rw: 'write',
      bs: '1M',
      size: '16M',
      filename: '/dev',
      time_based: true,
      runtime: 2,
      invalidate: false,
    })
    // …until its last close, which writes the device's cache back (only the last pass: the
    // passes before were overwritten in the cache) and drops it, after fio's runtime has ended
    expect(kept.processes[0].writeBytes).toBeGreaterThan(50 * 16 * MiB)
    expect(kept.totals.writeBytes).toBe(16 * MiB)
    expect(kept.seconds).toBeGreaterThan(kept.processes[0].seconds)
  })

  it('drops the device’s cache at its last close: a later job reads from the device, unless another holds it open', () => {
    const jobs = (holder: boolean) =>
      simulate(
        resolveSpec({
          device,
          host: { filesystem: { type: 'none' } },
          workload: {
            processes: [
              {
                name: 'w',
                type: 'fio',
                params: { rw: 'write', bs: '1M', size: '8M', filename: '/dev', end_fsync: true },
              },
              // reads what w left in the cache, 0.5 s later (no invalidate: only the close drops)
              {
                name: 'r',
                type: 'fio',
                startMs: 500,
                params: { rw: 'read', bs: '1M', size: '8M', filename: '/dev', invalidate: false },
              },
              // a process that has the device open all along (a direct 4 KiB read a second)
              ...(holder
                ? [
                    {
                      name: 'h',
                      type: 'fio',
                      params: {
                        rw: 'read',
                        bs: '4k',
                        size: '4k',
                        filename: '/dev',
                        direct: true,
                        time_based: true,
                        runtime: 1,
                        rate: '4k',
                        invalidate: false,
                      },
                    },
                  ]
                : []),
            ],
          },
          schedulers: ['noop'],
        }),
        0,
        0,
      )
    expect(jobs(false).totals.readBytes).toBe(8 * MiB)
    const held = jobs(true)
    expect(held.totals.readBytes).toBe(held.processes.find((p) => p.name === 'h')!.readBytes)
  })

  it('still reads and writes the raw device with direct=1', () => {
    const r = run({ rw: 'write', bs: '1M', size: '16M', filename: '/dev', direct: true })
    expect(r.totals.writeBytes).toBe(16 * MiB)
    expect(r.processes[0].writeBytes).toBe(16 * MiB)
  })
})

describe('fio syncs', () => {
  const job = { rw: 'write', bs: '64k', size: '4M' }

  it('end_fsync and fsync_on_close put every byte on the device before the job ends', () => {
    expect(run(job).totals.writeBytes).toBe(0) // still dirty in the cache
    for (const opt of ['end_fsync', 'fsync_on_close']) {
      const r = run({ ...job, [opt]: true })
      expect(r.processes[0].finished).toBe(true)
      expect(r.totals.writeBytes).toBe(4 * MiB)
      // the sync is not an I/O of the job: 64 writes, 64 latencies
      expect(r.processes[0].ops).toBe(64)
      expect(r.processes[0].latency.count).toBe(64)
    }
  })

  it('fsync=N syncs after every N writes: the device has all but the last unsynced writes', () => {
    const r = run({ ...job, size: '4M', fsync: 10 }) // 64 writes: syncs after 10, 20, … 60
    expect(r.totals.writeBytes).toBe(60 * 64 * 1024)
    expect(r.processes[0].ops).toBe(64)
  })
})

describe('fio ramp_time and loops', () => {
  it('runs ramp_time before the statistics start, the runtime after it', () => {
    // 4 KiB random reads at QD1 on a 1 ms device: about 1000 per second
    const r = run({
      rw: 'randread',
      bs: '4k',
      size: '64M',
      direct: true,
      time_based: true,
      runtime: 1,
      ramp_time: 0.5,
    })
    const p = r.processes[0]
    expect(r.seconds).toBeGreaterThanOrEqual(1.5) // ramp + runtime
    expect(p.seconds).toBeCloseTo(1, 2) // reported: the runtime only
    expect(p.startSeconds).toBeCloseTo(0.5, 2)
    expect(p.ops).toBeGreaterThan(900)
    expect(p.ops).toBeLessThanOrEqual(1000)
    expect(p.latency.count).toBe(p.ops)
    expect(r.totals.requests).toBeGreaterThan(1.4 * p.ops) // the device served the ramp too
  })

  it('repeats a size-based job `loops` times, the file opened (and invalidated) again each time', () => {
    const r = run({ rw: 'read', bs: '128k', size: '4M', loops: 3 })
    const p = r.processes[0]
    expect(p.finished).toBe(true)
    expect(p.readBytes).toBe(3 * 4 * MiB)
    expect(r.totals.readBytes).toBeGreaterThanOrEqual(3 * 4 * MiB) // read from the device each loop
    const once = run({ rw: 'read', bs: '128k', size: '4M', loops: 3, invalidate: false })
    expect(once.totals.readBytes).toBeLessThan(4 * MiB + 256 * 1024) // cached after the first
  })
})

describe('fio numjobs on one file', () => {
  it('shares the named file: one region on the device, every job over all of it', () => {
    const r = simulate(
      resolveSpec({
        device,
        workload: {
          processes: [
            {
              name: 'w',
              type: 'fio',
              params: { rw: 'write', bs: '64k', size: '2M', numjobs: 3, filename: 'shared', direct: true },
            },
          ],
        },
        schedulers: ['noop'],
      }),
      0,
      0,
    )
    expect(r.processes.map((p) => p.writeBytes)).toEqual([2 * MiB, 2 * MiB, 2 * MiB])
    const writes = r.dispatches.sector.filter((_, i) => r.dispatches.op[i] === WRITE)
    const lo = Math.min(...writes)
    expect(Math.max(...writes) - lo).toBeLessThan((2 * MiB) / 512) // one 2 MiB region
    expect(r.totals.writeBytes).toBe(3 * 2 * MiB)
  })
})

describe('fio fadvise_hint', () => {
  // read_ahead_kb 128 on a device of its own: the window is what the device sees per request
  const hostRa = { filesystem: { type: 'none' }, overrides: { readAheadKiB: 128 } }
  const runRa = (params: Record<string, unknown>) =>
    simulate(
      resolveSpec({
        device: { preset: 'nullblk', overrides: { completionUs: 200, queueDepth: 64 } },
        host: hostRa,
        workload: { processes: [{ name: 'r', type: 'fio', params }] },
        schedulers: ['noop'],
      }),
      0,
      0,
    )

  it('a sequential job (hint 1) doubles its read-ahead window: larger reads at the device', () => {
    const seq = { rw: 'read', bs: '4k', size: '32M' }
    const hinted = runRa(seq)
    const plain = runRa({ ...seq, fadvise_hint: '0' })
    expect(hinted.totals.readBytes).toBe(plain.totals.readBytes)
    // windows of 256 KiB instead of 128 KiB
    expect(hinted.totals.meanRequestKiB).toBeGreaterThan(1.6 * plain.totals.meanRequestKiB)
    expect(hinted.totals.requests).toBeLessThan(plain.totals.requests)
  })

  it('a random job (hint 1) reads no more than it asked for: FADV_RANDOM turns read-ahead off', () => {
    const rnd = { rw: 'randread', bs: '4k', size: '32M', loops: 1 }
    const hinted = runRa(rnd)
    // every block once: exactly the region from the device, 4 KiB at a time
    expect(hinted.totals.readBytes).toBe(32 * MiB)
    expect(hinted.totals.meanRequestKiB).toBeCloseTo(4, 5)
    // without the hint the ramp-up of sequential neighbours reads ahead of some of them
    const plain = runRa({ ...rnd, fadvise_hint: '0' })
    expect(plain.totals.meanRequestKiB).toBeGreaterThan(4)
  })
})
