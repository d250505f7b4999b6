import { describe, expect, it } from 'vitest'
import { ServiceTree } from '../../src/shared/schedulers/cfq/service-tree'
import { CfqQueue } from '../../src/shared/schedulers/cfq/queue'
import { IOPRIO_BE, IOPRIO_IDLE, IOPRIO_RT } from '../../src/shared/block/types'
import { Rng } from '../../src/shared/sim/rng'

/** The tree as a sorted list (what CFQ's rb-tree holds): class, then key, equal keys in arrival order. */
class NaiveTree {
  readonly items: CfqQueue[] = []
  insert(q: CfqQueue, key: number): void {
    q.rbKey = key
    const a = this.items
    let i = a.length
    while (
      i > 0 &&
      (a[i - 1].classRank > q.classRank || (a[i - 1].classRank === q.classRank && a[i - 1].rbKey > key))
    )
      i--
    a.splice(i, 0, q)
  }
  remove(q: CfqQueue): void {
    this.items.splice(this.items.indexOf(q), 1)
  }
}

describe('cfq service tree', () => {
  it('serves RT before BE before IDLE, then the smallest key, equal keys first come first served', () => {
    const t = new ServiceTree()
    const be1 = new CfqQueue(true, IOPRIO_BE, 4, null)
    const be2 = new CfqQueue(true, IOPRIO_BE, 4, null)
    const idle = new CfqQueue(true, IOPRIO_IDLE, 7, null)
    const rt = new CfqQueue(true, IOPRIO_RT, 4, null)
    t.insert(idle, 0)
    t.insert(be1, 50)
    t.insert(be2, 50)
    t.insert(rt, 900)
    expect(t.first).toBe(rt)
    t.remove(rt)
    expect(t.first).toBe(be1)
    t.remove(be1)
    t.insert(be1, 50) // back with an equal key: behind be2
    expect(t.first).toBe(be2)
    t.insert(rt, -Infinity)
    expect(t.first).toBe(rt)
    expect(t.size).toBe(4)
  })

  it('matches the sorted list under random inserts and removals of a thousand queues', () => {
    const rng = new Rng(3)
    const classes = [IOPRIO_RT, IOPRIO_BE, IOPRIO_BE, IOPRIO_BE, IOPRIO_IDLE]
    const queues = Array.from({ length: 1000 }, (_, i) => new CfqQueue(true, classes[i % 5], 4, null))
    const t = new ServiceTree()
    const naive = new NaiveTree()
    const on = new Set<CfqQueue>()
    for (let step = 0; step < 30_000; step++) {
      const q = queues[rng.int(queues.length)]
      if (on.has(q)) {
        t.remove(q)
        naive.remove(q)
        on.delete(q)
      } else {
        const key = rng.next() < 0.05 ? -Infinity : rng.int(50) * 1000
        t.insert(q, key)
        naive.insert(q, key)
        on.add(q)
      }
      expect(t.size).toBe(naive.items.length)
      expect(t.first).toBe(naive.items[0] ?? null)
    }
    expect(() => t.remove(queues.find((q) => !on.has(q))!)).toThrow(/not on the service tree/)
  })
})
