import type { BfqQueue } from './queue'

/**
 * Queues ordered by virtual finish time (ties: first inserted first, as the kernel's rb-tree
 * inserts equal keys to the right), each node also holding the smallest virtual start of its
 * subtree — the augmented tree of EEVDF that bfq-wf2q.c uses to find "the eligible queue with the
 * smallest finish" in O(log n). Here a treap (deterministic pseudo-random priorities) instead of a
 * red-black tree: same bounds, a quarter of the code. Intrusive: the nodes are the queues.
 */
export class FinishTree {
  root: BfqQueue | null = null
  size = 0
  private seq = 0
  private rnd = 0x2545f491

  insert(q: BfqQueue): void {
    q.left = q.right = null
    q.minStart = q.start
    q.seq = this.seq++
    q.prio = this.nextPrio()
    this.root = this.ins(this.root, q)
    this.size++
  }

  remove(q: BfqQueue): void {
    this.root = this.del(this.root, q)
    q.left = q.right = null
    this.size--
  }

  /** Smallest finish. */
  first(): BfqQueue | null {
    let n = this.root
    while (n !== null && n.left !== null) n = n.left
    return n
  }

  /** Largest finish. */
  last(): BfqQueue | null {
    let n = this.root
    while (n !== null && n.right !== null) n = n.right
    return n
  }

  /**
   * bfq_first_active_entity: the smallest-finish queue with start ≤ vtime. Go left whenever the
   * left subtree holds an eligible queue; else this node if eligible; else right.
   */
  firstEligible(vtime: number): BfqQueue | null {
    let n = this.root
    while (n !== null) {
      const l = n.left
      if (l !== null && l.minStart <= vtime) n = l
      else if (n.start <= vtime) return n
      else n = n.right
    }
    return null
  }

  private ins(n: BfqQueue | null, q: BfqQueue): BfqQueue {
    if (n === null) return q
    if (before(q, n)) {
      n.left = this.ins(n.left, q)
      if (n.left.prio < n.prio) n = rotateRight(n)
    } else {
      n.right = this.ins(n.right, q)
      if (n.right.prio < n.prio) n = rotateLeft(n)
    }
    fix(n)
    return n
  }

  private del(n: BfqQueue | null, q: BfqQueue): BfqQueue | null {
    if (n === null) throw new Error(`bfq: queue ${q.pid} is not in this tree`)
    if (n === q) return join(n.left, n.right)
    if (before(q, n)) n.left = this.del(n.left, q)
    else n.right = this.del(n.right, q)
    fix(n)
    return n
  }

  /** xorshift32: deterministic treap priorities. */
  private nextPrio(): number {
    let x = this.rnd
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    this.rnd = x
    return x >>> 0
  }
}

const before = (a: BfqQueue, b: BfqQueue): boolean =>
  a.finish < b.finish || (a.finish === b.finish && a.seq < b.seq)

function fix(n: BfqQueue): void {
  let m = n.start
  if (n.left !== null && n.left.minStart < m) m = n.left.minStart
  if (n.right !== null && n.right.minStart < m) m = n.right.minStart
  n.minStart = m
}

function rotateRight(n: BfqQueue): BfqQueue {
  const l = n.left!
  n.left = l.right
  l.right = n
  fix(n)
  return l
}

function rotateLeft(n: BfqQueue): BfqQueue {
  const r = n.right!
  n.right = r.left
  r.left = n
  fix(n)
  return r
}

function join(a: BfqQueue | null, b: BfqQueue | null): BfqQueue | null {
  if (a === null) return b
  if (b === null) return a
  if (a.prio < b.prio) {
    a.right = join(a.right, b)
    fix(a)
    return a
  }
  b.left = join(a, b.left)
  fix(b)
  return b
}
