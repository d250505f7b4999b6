import { IndexedHeap } from '../../util/indexed-heap'
import type { CfqQueue } from './queue'

/**
 * The service tree (v3): busy queues in the order they will be served — RT queues first, IDLE
 * last, then by key (the time each should next run), equal keys in arrival order. The kernel keeps
 * an rb-tree keyed by rb_key with the leftmost node cached (cfq_service_tree_add, cfq_rb_first);
 * CFQ only ever reads that leftmost queue, so an indexed heap ordered by (class, key, arrival) does
 * as well: insert and remove in O(log n) with a thousand processes' queues busy at once.
 */
export class ServiceTree {
  private readonly heap = new IndexedHeap<CfqQueue>(before)
  /** Arrival order of insertions: equal keys are served first come, first served. */
  private seq = 0

  get size(): number {
    return this.heap.size
  }

  /** The queue to serve next, or null. */
  get first(): CfqQueue | null {
    return this.heap.first
  }

  /** Insert `q` with key `key`, after every queue of its class with a key ≤ `key`. */
  insert(q: CfqQueue, key: number): void {
    q.rbKey = key
    q.rbRank = q.classRank
    q.rbSeq = this.seq++
    this.heap.push(q)
  }

  remove(q: CfqQueue): void {
    if (q.heapIndex < 0) throw new Error('cfq: queue is not on the service tree')
    this.heap.remove(q)
  }
}

const before = (a: CfqQueue, b: CfqQueue): boolean =>
  a.rbRank < b.rbRank ||
  (a.rbRank === b.rbRank && (a.rbKey < b.rbKey || (a.rbKey === b.rbKey && a.rbSeq < b.rbSeq)))
