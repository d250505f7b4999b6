/** What an item of an IndexedHeap carries: its place in the heap, −1 while in none. */
export interface HeapItem {
  heapIndex: number
}

/**
 * A binary min-heap whose items know their place, so any item can leave in O(log n), not only the
 * first — what the kernel gets from an rb-tree with a cached leftmost node where only the leftmost
 * is ever read (CFQ's service tree, CFS's run queue). `before` must be a strict total order (break
 * ties with a sequence number): the first item is then the same whatever order the heap was built
 * in, so a run is reproducible. An item is in at most one heap at a time.
 */
export class IndexedHeap<T extends HeapItem> {
  private readonly items: T[] = []

  constructor(private readonly before: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length
  }

  /** The least item, or null. */
  get first(): T | null {
    return this.items.length > 0 ? this.items[0] : null
  }

  /** The item at place `i` (0 … size − 1, heap order: not sorted beyond the first). */
  at(i: number): T {
    return this.items[i]
  }

  push(x: T): void {
    if (x.heapIndex >= 0) throw new Error('item is already in a heap')
    const i = this.items.length
    this.items.push(x)
    this.up(x, i)
  }

  /** Take out the least item, or null. */
  pop(): T | null {
    const a = this.items
    if (a.length === 0) return null
    const top = a[0]
    this.removeAt(0)
    return top
  }

  remove(x: T): void {
    const i = x.heapIndex
    if (i < 0 || this.items[i] !== x) throw new Error('item is not in this heap')
    this.removeAt(i)
  }

  private removeAt(i: number): void {
    const a = this.items
    const x = a[i]
    x.heapIndex = -1
    const last = a.pop()!
    if (i === a.length) return
    // the last item fills the hole, then moves up or down to its place
    if (i > 0 && this.before(last, a[(i - 1) >> 1])) this.up(last, i)
    else this.down(last, i)
  }

  /** Place `x` at `i` or above, moving larger parents down. */
  private up(x: T, i: number): void {
    const a = this.items
    while (i > 0) {
      const p = (i - 1) >> 1
      const parent = a[p]
      if (!this.before(x, parent)) break
      a[i] = parent
      parent.heapIndex = i
      i = p
    }
    a[i] = x
    x.heapIndex = i
  }

  /** Place `x` at `i` or below, moving smaller children up. */
  private down(x: T, i: number): void {
    const a = this.items
    const n = a.length
    for (;;) {
      const l = 2 * i + 1
      if (l >= n) break
      const r = l + 1
      const c = r < n && this.before(a[r], a[l]) ? r : l
      const child = a[c]
      if (!this.before(child, x)) break
      a[i] = child
      child.heapIndex = i
      i = c
    }
    a[i] = x
    x.heapIndex = i
  }
}
