import { describe, expect, it } from 'vitest'
import { WaitList } from '../../src/shared/block/wait-list'
import type { SlotWaiter } from '../../src/shared/block/queue'
import type { Bio } from '../../src/shared/block/types'
import { Rng } from '../../src/shared/sim/rng'

const bio = (id: number): Bio => ({ id }) as unknown as Bio
const waiter = (id: number): SlotWaiter => ({ waiterId: id }) as unknown as SlotWaiter

describe('WaitList', () => {
  it('keeps arrival order through growth, wrap-around and removals from the middle', () => {
    const rng = new Rng(11)
    const w = new WaitList()
    const naive: number[] = []
    let next = 0
    for (let step = 0; step < 20_000; step++) {
      // pushes outnumber removals at first (the ring grows), then removals win (it wraps and drains)
      const pushShare = step < 10_000 ? 0.6 : 0.4
      if (rng.next() < pushShare || naive.length === 0) {
        w.push(bio(next), waiter(next))
        naive.push(next++)
      } else {
        // mostly the first waiter (a slot granted in order), sometimes one further back
        const i = rng.next() < 0.8 ? 0 : rng.int(naive.length)
        expect((w.bioAt(i) as unknown as { id: number }).id).toBe(naive[i])
        expect((w.waiterAt(i) as unknown as { waiterId: number }).waiterId).toBe(naive[i])
        w.removeAt(i)
        naive.splice(i, 1)
      }
      expect(w.size).toBe(naive.length)
    }
    for (let i = 0; i < naive.length; i++) expect((w.bioAt(i) as unknown as { id: number }).id).toBe(naive[i])
  })
})
