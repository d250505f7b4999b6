// When blk-mq runs a queue by itself (block/mq-runs.ts): under mq-deadline a completion does not
// run the queue unless a dispatch found the driver full; a request the scheduler holds back (a
// lower priority class behind a higher one in flight) leaves at the next insert or at the delayed
// run BLK_MQ_BUDGET_DELAY (3 ms) later, on a tick.
import { describe, expect, it } from 'vitest'
import { IOPRIO_BE, IOPRIO_IDLE, READ } from '../../src/shared/block/types'
import type { IoContext } from '../../src/shared/block/types'
import { deadline } from '../../src/shared/schedulers/deadline'
import { kyber } from '../../src/shared/schedulers/kyber/kyber'
import { mqDeadline } from '../../src/shared/schedulers/mq-deadline'
import { makeRig } from '../helpers/rig'

const inClass = (pid: number, ioClass: IoContext['ioClass']): IoContext => ({
  pid,
  name: `p${pid}`,
  ioClass,
  ioLevel: 4,
  exited: false,
})
const be = inClass(1, IOPRIO_BE)
const idle = inClass(2, IOPRIO_IDLE)

/** A best-effort read at 0, an idle-class read at 10 µs; each takes 100 µs at the device. */
function idleBehindBe(hz: number, extra?: (r: ReturnType<typeof makeRig>) => void) {
  const r = makeRig(mqDeadline, {}, { queueDepth: 8, completionUs: 100 }, 128, hz)
  r.submit(0, 8, READ, be)
  r.engine.run(10_000)
  r.submit(1000, 8, READ, idle)
  extra?.(r)
  r.engine.run()
  return r.dispatches.map((d) => [d.pid, d.t / 1e6])
}

describe('blk-mq runs the queue again by itself only on a restart mark or a delayed run', () => {
  it('holds an idle-class read past the best-effort completion until the next tick (HZ 1000: 3 jiffies)', () => {
    // the old model ran the queue at the completion (0.1 ms) and dispatched the idle read then
    expect(idleBehindBe(1000)).toEqual([
      [1, 0],
      [2, 3],
    ])
  })

  it('at HZ 250 msecs_to_jiffies(3) is one jiffy: the delayed run comes on the next tick, 4 ms', () => {
    expect(idleBehindBe(250)).toEqual([
      [1, 0],
      [2, 4],
    ])
  })

  it('an insert runs the queue: a best-effort read arriving after the completion lets the idle read out behind it', () => {
    const out = idleBehindBe(1000, (r) => {
      r.engine.run(500_000)
      r.submit(2000, 8, READ, be) // dispatched at 0.5 ms; the idle waits for it, then for a run
    })
    expect(out).toEqual([
      [1, 0],
      [1, 0.5],
      [2, 3], // the delayed run armed at 10 µs keeps its time: a later decline does not push it
    ])
  })

  it('a completion runs the queue after a dispatch found the driver full (restart mark)', () => {
    const r = makeRig(mqDeadline, {}, { queueDepth: 1, completionUs: 100 })
    r.submit(0, 8, READ, be)
    r.submit(5000, 8, READ, be)
    r.engine.run()
    expect(r.dispatches.map((d) => d.t / 1e6)).toEqual([0, 0.1])
  })

  it('kyber (token wake-up) and the legacy deadline (the driver’s request function) run at completion', () => {
    for (const type of [kyber, deadline]) {
      const r = makeRig(type, {}, { queueDepth: 1, completionUs: 100 })
      r.submit(0, 8, READ, be)
      r.engine.run(50_000)
      r.submit(5000, 8, READ, be)
      r.engine.run()
      expect(
        r.dispatches.map((d) => d.t / 1e6),
        type.name,
      ).toEqual([0, 0.1])
    }
  })
})
