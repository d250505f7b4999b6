import { describe, expect, it } from 'vitest'
import { CfqIoContext, contextStats } from '../../src/shared/schedulers/cfq/io-context'
import { IOPRIO_BE, IOPRIO_IDLE, IOPRIO_RT } from '../../src/shared/block/types'
import { ctx } from '../helpers/rig'

describe('cfq io context', () => {
  it('is its own sync queue, made at the first sync request in the class of that moment', () => {
    const c = ctx(7)
    c.ioClass = IOPRIO_BE
    const stats = contextStats()
    const a = new CfqIoContext(c, 5, stats)
    const b = new CfqIoContext(ctx(8), 9, stats)
    expect(a.syncQueue).toBeNull() // an async request may come first: no sync queue yet
    const q = a.openSyncQueue(IOPRIO_IDLE, 7)
    expect(q).toBe(a)
    expect(a.syncQueue).toBe(a)
    expect([q.sync, q.cic, q.ioClass, q.prio, q.idleWindow]).toEqual([true, a, IOPRIO_IDLE, 7, false])
    expect(b.openSyncQueue(IOPRIO_RT, 0).idleWindow).toBe(true)
    // each context's statistics are its own
    expect([a.lastEndRequest, b.lastEndRequest]).toEqual([5, 9])
    a.updateThinkTime(1005, 8000)
    expect([a.ttimeMean, b.ttimeMean]).toEqual([1004, 0]) // 1 000 ns in the kernel's fixed point
    expect(a.thinkTimeValid).toBe(false) // one sample of 256, decayed: 32
  })
})
