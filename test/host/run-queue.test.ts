import { describe, expect, it } from 'vitest'
import { PREEMPTED, RunQueue, WOKEN } from '../../src/shared/host/run-queue'
import type { CpuTask } from '../../src/shared/host/cpu'
import { Rng } from '../../src/shared/sim/rng'

const task = (pid: number, vruntime: number, wantCpu = -1): CpuTask =>
  ({ pid, vruntime, wantCpu }) as unknown as CpuTask

/** The run queue as two arrays, scanned (what cpu.ts did before run-queue.ts). */
class NaiveRunQueue {
  readonly lists: CpuTask[][] = [[], []]
  push(t: CpuTask, list: number): void {
    this.lists[list].push(t)
  }
  unshiftWoken(t: CpuTask): void {
    this.lists[WOKEN].unshift(t)
  }
  shift(): CpuTask | undefined {
    return this.lists[WOKEN].length ? this.lists[WOKEN].shift() : this.lists[PREEMPTED].shift()
  }
  takeFair(c: number): CpuTask | undefined {
    let best: CpuTask | undefined
    let list = -1
    let idx = -1
    for (const [li, l] of this.lists.entries())
      for (let i = 0; i < l.length; i++) {
        if (l[i].wantCpu >= 0 && l[i].wantCpu !== c) continue
        if (best === undefined || l[i].vruntime < best.vruntime) [best, list, idx] = [l[i], li, i]
      }
    if (best) this.lists[list].splice(idx, 1)
    return best
  }
}

describe('RunQueue', () => {
  it('picks the least vruntime, woken before preempted and first queued among equals', () => {
    const q = new RunQueue(true)
    const a = task(1, 10)
    const b = task(2, 5)
    const c = task(3, 5)
    const d = task(4, 5)
    q.push(a, WOKEN)
    q.push(b, PREEMPTED)
    q.push(c, WOKEN)
    q.unshiftWoken(d)
    expect([q.takeFair(0), q.takeFair(0), q.takeFair(0), q.takeFair(0)]).toEqual([d, c, b, a])
    expect(q.takeFair(0)).toBeUndefined()
  })

  it('leaves a task waiting for another CPU to that CPU', () => {
    const q = new RunQueue(true)
    const pinned = task(1, 1, 1)
    const free = task(2, 9)
    q.push(pinned, WOKEN)
    q.push(free, WOKEN)
    expect(q.takeFair(0)).toBe(free)
    expect(q.takeFair(0)).toBeUndefined()
    expect(q.size).toBe(1)
    expect(q.takeFair(1)).toBe(pinned)
  })

  it('under tick, serves the woken list in order, then the preempted one', () => {
    const q = new RunQueue(false)
    const [a, b, c] = [task(1, 3), task(2, 2), task(3, 1)]
    q.push(a, PREEMPTED)
    q.push(b, WOKEN)
    q.push(c, WOKEN)
    expect([q.shift(), q.shift(), q.shift(), q.shift()]).toEqual([b, c, a, undefined])
  })

  it('matches the scanned lists under random pushes and picks', () => {
    const rng = new Rng(5)
    for (const fair of [true, false]) {
      const q = new RunQueue(fair)
      const naive = new NaiveRunQueue()
      let pid = 0
      for (let step = 0; step < 20_000; step++) {
        const r = rng.next()
        if (r < 0.55) {
          // few distinct vruntimes, so ties decide; some tasks wait for CPU 0 or 1
          const t = task(pid++, rng.int(6), fair && rng.next() < 0.1 ? rng.int(2) : -1)
          if (rng.next() < 0.15) {
            q.unshiftWoken(t)
            naive.unshiftWoken(t)
          } else {
            const list = rng.next() < 0.5 ? WOKEN : PREEMPTED
            q.push(t, list)
            naive.push(t, list)
          }
        } else if (fair) {
          const c = rng.int(2)
          expect(q.takeFair(c)).toBe(naive.takeFair(c))
        } else {
          expect(q.shift()).toBe(naive.shift())
        }
        expect(q.size).toBe(naive.lists[0].length + naive.lists[1].length)
      }
    }
  })
})
