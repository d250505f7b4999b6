import type { CfqQueue } from './queue'

/**
 * The service tree (v3): busy queues in the order they will be served — RT queues first, IDLE
 * last, then by key (the time each should next run), equal keys in arrival order. The kernel uses
 * an rb-tree with a cached leftmost node; busy queues are few (one per active process plus the
 * async queues), so a sorted array is simpler and as fast.
 */
export class ServiceTree {
  private readonly items: CfqQueue[] = []

  get size(): number {
    return this.items.length
  }

  /** The queue to serve next, or null. */
  get first(): CfqQueue | null {
    return this.items.length > 0 ? this.items[0] : null
  }

  /** Insert `q` with key `key`, after every queue of its class with a key ≤ `key`. */
  insert(q: CfqQueue, key: number): void {
    q.rbKey = key
    const a = this.items
    const rank = q.classRank
    let i = a.length
    while (i > 0 && (a[i - 1].classRank > rank || (a[i - 1].classRank === rank && a[i - 1].rbKey > key))) i--
    a.splice(i, 0, q)
  }

  remove(q: CfqQueue): void {
    const i = this.items.indexOf(q)
    if (i < 0) throw new Error('cfq: queue is not on the service tree')
    this.items.splice(i, 1)
  }
}
