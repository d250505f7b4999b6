// mq-deadline's batch_rule: how a batch finds its next request. Up to 6.7 the successor is fixed
// when a request leaves (next_rq), so a write that arrives during the batch does not extend it;
// from 6.8 the batch goes on from the position the last request ended (latest_pos), so a stream of
// sequential writes, each arriving while the one before is at the device, keeps a waiting read
// out until fifo_batch writes have gone.
import { describe, expect, it } from 'vitest'
import { READ, WRITE } from '../../src/shared/block/types'
import { mqDeadline } from '../../src/shared/schedulers/mq-deadline'
import type { Handler } from '../../src/shared/sim/engine'
import { ctx, makeRig } from '../helpers/rig'

/** Writes 0…39 of a stream, each arriving while the one before is served; a read at 15 µs. */
function readPosition(rule: string, fifoBatch = 16): number {
  const r = makeRig(
    mqDeadline,
    { batch_rule: rule, fifo_batch: fifoBatch },
    { queueDepth: 1, completionUs: 100 },
  )
  const writer = ctx(1)
  const reader = ctx(2)
  const feeder: Handler = { onEvent: (_k, data) => void r.submit((data as number) * 2048, 8, WRITE, writer) }
  r.engine.at(10_000, feeder, 0, 0)
  for (let k = 1; k < 40; k++) r.engine.at(60_000 + (k - 1) * 100_000, feeder, 0, k)
  r.engine.at(15_000, { onEvent: () => void r.submit(9_000_000, 8, READ, reader) }, 0)
  r.engine.run()
  return r.dispatches.findIndex((d) => d.op === READ)
}

describe('mq-deadline batch_rule', () => {
  it('5.16: a write that arrives after its predecessor left does not extend the batch', () => {
    expect(readPosition('5.16')).toBe(1)
  })

  it('6.8: the batch goes on from the last position, so the read waits for fifo_batch writes', () => {
    expect(readPosition('6.8')).toBe(16)
    expect(readPosition('6.8', 4)).toBe(4)
  })
})
