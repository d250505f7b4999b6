import { describe, expect, it } from 'vitest'
import { WRITE } from '../../src/shared/block/types'
import { PAGE } from '../../src/shared/host/files'
import { hostRig } from '../helpers/host-rig'
import { simulate } from '../../src/shared/experiment/runner'
import { resolveSpec } from '../../src/shared/experiment/validate'
import { LOOP_LANES } from '../helpers/loop-lanes'

// A sync writeback (fsync here; BLKFLSBUF the same way) sets pages under writeback a request's
// worth at a time while it has request slots, as write_cache_pages does: the pages it has not
// reached stay dirty, so a direct reader that meets them writes them back itself, at the tail of
// the queue, instead of waiting for every write the sync queued before its page's.

const MiB = 2 ** 20

/** fio writing `size` bytes of /dev through the page cache, then fsync (end_fsync). */
const fsyncWriter = (size: number) => ({
  name: 'writer',
  type: 'fio',
  params: { filename: '/dev', rw: 'write', bs: '1M', size, invalidate: false, end_fsync: true },
})

/** A buffered writer dirties 256 MiB of /dev, then fsyncs; a direct random reader starts meanwhile. */
function rig() {
  return hostRig({
    // 128 tags of 512 KiB (max_segments 128) hold 64 MiB; at 450 MB/s the sync takes ~0.6 s
    // (reads served apart from the writes, so that the reader makes many)
    device: {
      preset: 'loop-dio-virtio',
      // the loop device alone, one page a segment (no backing disk's scheduler between)
      overrides: {
        ...LOOP_LANES,
        capacityGiB: 0.5,
        sharedLanes: false,
        backingScheduler: '',
        segmentKiB: '0:4, 100:4',
      },
    },
    host: { overrides: { cpus: 2 }, filesystem: { type: 'none' } },
    workload: {
      processes: [
        fsyncWriter(256 * MiB),
        {
          name: 'reader',
          type: 'fio',
          startMs: 60,
          params: {
            filename: '/dev',
            rw: 'randread',
            bs: '4k',
            size: 256 * MiB,
            direct: true,
            invalidate: false,
            time_based: true,
            runtime: 1,
          },
        },
      ],
    },
    schedulers: ['noop'],
  })
}

describe('sync writeback, a request at a time', () => {
  it('fsync keeps at most the queue’s requests’ worth under writeback; a direct reader writes the rest it meets', () => {
    const r = rig()
    let most = 0
    for (let ms = 30; ms <= 600; ms += 5) {
      r.runUntil(ms / 1000)
      most = Math.max(most, r.kernel.blockDeviceCache!.writeback)
    }
    // 128 tags × 128 pages, the chunk being built, and the reader's own 1 MiB folio (all at
    // once, the whole 256 MiB went under writeback: 65 536 pages)
    const tagsWorth = (128 + 1) * ((512 * 1024) / PAGE) + MiB / PAGE
    expect(most).toBeGreaterThan(0)
    expect(most).toBeLessThanOrEqual(tagsWorth)
    // the reader met dirty folios the sync had not reached and wrote them back itself
    const reader = r.tasks.find((t) => t.name === 'reader')!
    const own = r.dispatched.filter((d) => d.pid === reader.pid && d.op === WRITE)
    expect(own.length).toBeGreaterThan(0)
  })
})

describe('sync writeback pays for its pages', () => {
  /** A buffered writer dirties 64 MiB of /dev and fsyncs: its CPU time and its run. */
  function fsyncRun(writebackPageUs: number) {
    const r = simulate(
      resolveSpec({
        device: { preset: 'ssd-sata-mlc' },
        host: { overrides: { cpus: 2, writebackPageUs }, filesystem: { type: 'none' } },
        workload: {
          processes: [fsyncWriter(64 * MiB)],
        },
        schedulers: ['noop'],
      }),
      0,
      0,
    )
    return r.processes[0]
  }

  it('the writing task spends writebackPageUs of CPU on each page it puts under writeback', () => {
    const free = fsyncRun(0)
    const paced = fsyncRun(2)
    // 16 384 pages × 2 µs, all in the task that fsyncs (nothing else wrote them back)
    expect(paced.cpuSeconds - free.cpuSeconds).toBeCloseTo(16_384 * 2e-6, 4)
    expect(paced.seconds).toBeGreaterThan(free.seconds)
  })
})
