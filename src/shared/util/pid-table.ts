/** Pids below this are looked up in a dense array; the simulator numbers its processes from 100. */
const DENSE_PIDS = 1 << 16

/**
 * Per-process entries by pid, for the lookups a request makes (a scheduler's process context, a
 * run's per-process account): a simulated pid is a small integer, so a lookup is one array load
 * instead of a Map's hashing and bucket chain — with a thousand processes taking turns, a Map
 * lookup per request and per stage was ~2 % of a run (jobs-1024's profile). A pid past the dense
 * range (a real trace's) goes to the Map alone. `values()` iterates in insertion order, as a Map
 * does, so whoever iterates sees the same order as before.
 */
export class PidTable<T> {
  private readonly dense: (T | undefined)[] = []
  private readonly all = new Map<number, T>()

  get size(): number {
    return this.all.size
  }

  get(pid: number): T | undefined {
    return below(pid, this.dense.length) ? this.dense[pid] : this.all.get(pid)
  }

  set(pid: number, value: T): void {
    this.all.set(pid, value)
    if (!below(pid, DENSE_PIDS)) return
    // filled with undefined up to the pid, not left with holes: the array stays a fast one
    while (this.dense.length <= pid) this.dense.push(undefined)
    this.dense[pid] = value
  }

  delete(pid: number): boolean {
    if (below(pid, this.dense.length)) this.dense[pid] = undefined
    return this.all.delete(pid)
  }

  values(): IterableIterator<T> {
    return this.all.values()
  }
}

/** A whole pid in [0, limit): one the dense array holds or may hold. */
const below = (pid: number, limit: number): boolean => pid >= 0 && pid < limit && (pid | 0) === pid
