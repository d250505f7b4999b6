// The memory of page-cache pages as the allocator gave it (SimFile.placed, PageCache.add): pages a
// writer dirtied in order lie in long runs, pages dirtied at random a run a page, and a virtio
// disk's ring takes a descriptor per run (backing-stack.ts). Measured on this machine (Linux 6.18,
// loop device on the virtio disk, BLKFLSBUF of 256 MiB of dirty pages): 138–145 ms when a 1 MiB
// writer had dirtied them in order, 195–215 ms for a 4 KiB writer at random (2026-12-06).
import { describe, expect, it } from 'vitest'
import { simulate } from '../../src/shared/experiment/runner'
import { resolveSpec } from '../../src/shared/experiment/validate'
import { SimFile } from '../../src/shared/host/files'

describe('the memory runs of cached pages', () => {
  it('joins pages allocated one after another and parts those allocated apart', () => {
    const f = new SimFile(1, 'f', 1024 * 4096, [{ fileSector: 0, devSector: 0, nsect: 1024 * 8 }])
    f.placed(0, 300, false)
    expect(f.memoryRuns(0, 300)).toBe(1)
    // the next allocation follows page 299: the run goes on across the 32-page words
    f.placed(300, 301, true)
    expect(f.memoryRuns(0, 301)).toBe(1)
    // pages allocated apart, one at a time
    for (const p of [500, 501, 503, 502]) f.placed(p, p + 1, false)
    expect(f.memoryRuns(500, 504)).toBe(4)
    // re-allocated in order later, as one run
    f.placed(500, 504, false)
    expect(f.memoryRuns(500, 504)).toBe(1)
    // a run allocated apart from page 300's
    f.placed(301, 320, false)
    expect(f.memoryRuns(290, 310)).toBe(2)
  })

  it('a flush of pages written at random takes longer through the ring than of pages written in order', () => {
    const writer = (rw: string) =>
      resolveSpec({
        device: { preset: 'loop-dio-virtio', overrides: { ringSlots: 256, backingScheduler: 'mq-deadline' } },
        workload: {
          processes: [
            {
              name: 'writer',
              type: 'fio',
              params: {
                rw,
                bs: '4k',
                iodepth: 1,
                ioengine: 'psync',
                direct: false,
                filename: '/dev',
                size: '64M',
                loops: 2,
              },
            },
          ],
        },
        schedulers: ['none'],
      })
    const flush = (rw: string) => simulate(writer(rw), 0, 0).processes[0].time!.sync
    const inOrder = flush('write')
    const atRandom = flush('randwrite')
    expect(inOrder).toBeGreaterThan(0)
    expect(atRandom).toBeGreaterThan(1.2 * inOrder)
  })
})
