// blk-mq "none": no elevator, so a request is a driver tag — at most the device's queue depth of
// requests, reads and writes sharing them — where the legacy layer's noop gave each direction a
// pool of nr_requests and an elevator has nr_requests sched tags.
import { describe, expect, it } from 'vitest'
import { hostRig } from '../helpers/host-rig'
import { simulate } from '../../src/shared/experiment/runner'
import { resolveSpec } from '../../src/shared/experiment/validate'

const spec = (scheduler: string) => ({
  device: { preset: 'nullblk', overrides: { completionUs: 200, queueDepth: 8 } },
  host: { preset: 'linux-modern', overrides: { nrRequests: 128 } },
  workload: {
    processes: [
      // 64 direct 64 KiB writes in flight, all the time
      {
        name: 'writer',
        type: 'fio',
        params: {
          rw: 'write',
          bs: '64k',
          iodepth: 64,
          ioengine: 'libaio',
          direct: true,
          size: '64M',
          filename: '/dev',
          time_based: true,
          runtime: 0.5,
        },
      },
      {
        name: 'reader',
        type: 'fio',
        params: {
          rw: 'randread',
          bs: '4k',
          direct: true,
          size: '64M',
          filename: '/dev',
          time_based: true,
          runtime: 0.5,
        },
      },
    ],
  },
  schedulers: [scheduler],
})

describe('blk-mq none', () => {
  it('has as many request slots as the device has tags, shared by reads and writes', () => {
    const none = hostRig(spec('none'))
    expect(none.queue.nrRequests).toBe(8)
    let most = 0
    none.queue.observer = {
      ...none.queue.observer!,
      levels: (_t, queued, inFlight) => (most = Math.max(most, queued + inFlight)),
    }
    none.runUntil(0.5)
    expect(most).toBeLessThanOrEqual(8)
    // an elevator has nr_requests of its own: the writer alone queues far more
    const dl = hostRig(spec('mq-deadline'))
    expect(dl.queue.nrRequests).toBe(128)
  })

  it('keeps no requests waiting to merge: a writer gets the device’s tags, no more', () => {
    const writer = (s: string) =>
      simulate(resolveSpec(spec(s)), 0, 0).processes.find((p) => p.name === 'writer')!.MBps
    // none: 8 tags of 64 KiB writes per 200 µs round, at most 2.62 GB/s
    expect(writer('none')).toBeLessThan((8 * 65536) / 200e-6 / 1e6)
    expect(writer('none')).toBeGreaterThan(0.8 * ((8 * 65536) / 200e-6 / 1e6))
    // the legacy noop (and an elevator) hold the writer's other requests in the scheduler, where
    // sequential ones merge into larger requests (up to 512 KiB): far more per round
    expect(writer('noop')).toBeGreaterThan(2 * writer('none'))
    expect(writer('mq-deadline')).toBeGreaterThan(2 * writer('none'))
  })
})
