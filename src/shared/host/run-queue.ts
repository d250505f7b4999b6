import { IndexedHeap } from '../util/indexed-heap'
import type { CpuTask } from './cpu-params'

/** The two lists runnable tasks are kept in: woken from sleep, and preempted. */
export const WOKEN = 0
export const PREEMPTED = 1

/** A runnable task's place: which list, and where in it (smaller first). */
class RunEntry {
  heapIndex = -1
  task: CpuTask | null = null
  list = WOKEN
  seq = 0
}

/**
 * The runnable tasks of the CPU scheduler (cpu-core.ts), as two lists in order — woken tasks, then
 * preempted ones — from which `tick` takes the first and the fair policies the one with the least
 * vruntime (the first such in list order). CFS keeps its run queue in an rb-tree keyed by
 * vruntime with the leftmost node cached (kernel/sched/fair.c, __pick_first_entity); here an
 * indexed heap ordered by (vruntime, list, place) gives the same task in O(log n) where a scan
 * of the lists took O(n) with a thousand processes runnable.
 *
 * A task that waits for one CPU (`wantCpu`, wake packing: at most one per CPU) is kept aside and
 * compared with the heap's first when that CPU picks. A task's vruntime does not change while it
 * is runnable (only a running task is charged), so the heap stays ordered.
 */
export class RunQueue {
  private readonly heap: IndexedHeap<RunEntry>
  /** Tasks waiting for one CPU: few (one per CPU at most), scanned. */
  private readonly pinned: RunEntry[] = []
  private readonly pool: RunEntry[] = []
  /** Places given at the back and (going down) at the front of the lists. */
  private back = 0
  private front = 0

  /** `fair`: least vruntime first; else the lists' order only (`tick`). */
  constructor(private readonly fair: boolean) {
    this.heap = new IndexedHeap<RunEntry>(fair ? fairBefore : fifoBefore)
  }

  get size(): number {
    return this.heap.size + this.pinned.length
  }

  /** Append `t` to `list`. */
  push(t: CpuTask, list: number): void {
    this.add(t, list, this.back++)
  }

  /** Put `t` at the front of the woken list. */
  unshiftWoken(t: CpuTask): void {
    this.add(t, WOKEN, --this.front)
  }

  /** `tick`: the first woken task, else the first preempted one. */
  shift(): CpuTask | undefined {
    const e = this.heap.pop()
    return e === null ? undefined : this.release(e)
  }

  /**
   * The task with the least vruntime that may run on CPU `c`: the first in list order among equals,
   * or — with `draw` (uniform in [0, 1)) — one of the tasks waiting for `c` and the heap's first
   * that tie, drawn alike.
   */
  takeFair(c: number, draw?: () => number): CpuTask | undefined {
    let best = this.heap.first
    let at = -1
    let ties = 1
    for (let i = 0; i < this.pinned.length; i++) {
      const e = this.pinned[i]
      if (e.task!.wantCpu !== c) continue
      if (
        best === null ||
        (draw === undefined ? fairBefore(e, best) : e.task!.vruntime < best.task!.vruntime)
      ) {
        best = e
        at = i
        ties = 1
      } else if (draw !== undefined && e.task!.vruntime === best.task!.vruntime && draw() * ++ties < 1) {
        // one of `ties` equals, each kept with the same chance (reservoir sampling)
        best = e
        at = i
      }
    }
    if (best === null) return undefined
    if (at >= 0) this.pinned.splice(at, 1)
    else this.heap.pop()
    return this.release(best)
  }

  private add(t: CpuTask, list: number, seq: number): void {
    const e = this.pool.pop() ?? new RunEntry()
    e.task = t
    e.list = list
    e.seq = seq
    if (this.fair && t.wantCpu >= 0) this.pinned.push(e)
    else this.heap.push(e)
  }

  private release(e: RunEntry): CpuTask {
    const t = e.task!
    e.task = null
    this.pool.push(e)
    return t
  }
}

const fifoBefore = (a: RunEntry, b: RunEntry): boolean =>
  a.list < b.list || (a.list === b.list && a.seq < b.seq)

const fairBefore = (a: RunEntry, b: RunEntry): boolean => {
  const va = a.task!.vruntime
  const vb = b.task!.vruntime
  return va < vb || (va === vb && fifoBefore(a, b))
}
