// A driver without room for a request (a full virtio ring: BLK_STS_DEV_RESOURCE): the block layer
// keeps the request the scheduler handed down on the dispatch list, serves it first once a
// completion frees room, and no longer merges into it (it has left the scheduler).
import { describe, expect, it } from 'vitest'
import { WRITE } from '../../src/shared/block/types'
import type { Request } from '../../src/shared/block/types'
import { mqDeadline } from '../../src/shared/schedulers/mq-deadline'
import { none } from '../../src/shared/schedulers/none'
import { ctx, makeRig } from '../helpers/rig'

for (const type of [none, mqDeadline]) {
  describe(`parking a request the driver refuses (${type.name})`, () => {
    it('serves it first when room frees, unmerged', () => {
      const r = makeRig(type, {}, { queueDepth: 8, completionUs: 100 })
      // room for one request at a time, whatever the queue depth says
      Object.assign(r.queue.dev, { accepts: () => r.queue.dev.inFlight === 0 })
      const w = ctx(1)
      r.submit(0, 8, WRITE, w) // at the device
      r.engine.run(1)
      r.submit(100, 8, WRITE, w) // handed down, refused: parked
      r.engine.run(2)
      r.submit(108, 8, WRITE, w) // would back-merge into the parked one if it were still queued
      r.engine.run()
      expect(r.dispatches.map((d) => [d.sector, d.nsect])).toEqual([
        [0, 8],
        [100, 8],
        [108, 8],
      ])
      expect(r.completions).toHaveLength(3)
      // one at a time: each starts when the one before completes
      expect(r.dispatches.map((d) => d.t)).toEqual([0, 100_000, 200_000])
    })
  })
}

it('a device that refuses nothing keeps the queue depth as its only bound', () => {
  const r = makeRig(none, {}, { queueDepth: 2, completionUs: 100 })
  Object.assign(r.queue.dev, { accepts: (_rq: Request) => true })
  for (let i = 0; i < 4; i++) r.submit(i * 100, 8, WRITE, ctx(1))
  r.engine.run()
  expect(r.dispatches.map((d) => d.t)).toEqual([0, 0, 100_000, 100_000])
})
