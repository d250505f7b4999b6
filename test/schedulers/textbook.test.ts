import { describe, expect, it } from 'vitest'
import { READ, WRITE } from '../../src/shared/block/types'
import { fcfs } from '../../src/shared/schedulers/fcfs'
import { sstf } from '../../src/shared/schedulers/sstf'
import { scan } from '../../src/shared/schedulers/scan'
import { look } from '../../src/shared/schedulers/look'
import { cLook } from '../../src/shared/schedulers/c-look'
import type { SchedulerType } from '../../src/shared/schedulers/scheduler'
import type { Handler } from '../../src/shared/sim/engine'
import { MS, US } from '../../src/shared/sim/time'
import { ctx, makeRig } from '../helpers/rig'
import { driveMix } from '../helpers/contract'

type Rig = ReturnType<typeof makeRig>

/** Cylinders of the textbook example, scaled to sectors ×1000. */
const CYL = 1000
const QUEUE = [98, 183, 37, 122, 14, 124, 65, 67]

function at(r: Rig, t: number, fn: () => void): void {
  const h: Handler = { onEvent: fn }
  r.engine.at(t, h, 0)
}

/**
 * Silberschatz's example: the head at cylinder 53, having come down from above (so an elevator
 * moves toward 0), and the queue 98, 183, 37, 122, 14, 124, 65, 67 in that arrival order.
 * Returns the cylinders in dispatch order.
 */
function textbookOrder(type: SchedulerType): number[] {
  const r = makeRig(type, {}, { queueDepth: 1, completionUs: 1000 })
  r.submit(100 * CYL, 8) // warm-up: the head passes cylinder 100 …
  at(r, 10 * US, () => r.submit(53 * CYL - 8, 8)) // … then comes down to end at cylinder 53
  at(r, 1500 * US, () => QUEUE.forEach((c) => r.submit(c * CYL, 8)))
  r.engine.run()
  expect(r.dispatches.map((d) => d.sector).slice(0, 2)).toEqual([100 * CYL, 53 * CYL - 8])
  return r.dispatches.slice(2).map((d) => d.sector / CYL)
}

/** Total head movement in cylinders along a path starting at 53. */
function movement(path: number[]): number {
  let at = 53
  let sum = 0
  for (const c of path) {
    sum += Math.abs(c - at)
    at = c
  }
  return sum
}

describe('textbook policies on the textbook example (head at 53)', () => {
  it('FCFS serves in arrival order: 640 cylinders', () => {
    const order = textbookOrder(fcfs)
    expect(order).toEqual([98, 183, 37, 122, 14, 124, 65, 67])
    expect(movement(order)).toBe(640)
  })

  it('SSTF always takes the nearest: 236 cylinders', () => {
    const order = textbookOrder(sstf)
    expect(order).toEqual([65, 67, 37, 14, 98, 122, 124, 183])
    expect(movement(order)).toBe(236)
  })

  it('SCAN sweeps down to the edge, then up: 236 cylinders counting the trip to cylinder 0', () => {
    const order = textbookOrder(scan)
    expect(order).toEqual([37, 14, 65, 67, 98, 122, 124, 183])
    expect(movement([37, 14, 0, ...order.slice(2)])).toBe(236)
  })

  it('LOOK turns at the last request: 208 cylinders', () => {
    const order = textbookOrder(look)
    expect(order).toEqual([37, 14, 65, 67, 98, 122, 124, 183])
    expect(movement(order)).toBe(208)
  })

  it('C-LOOK sweeps up, then jumps back to the lowest request: 322 cylinders counting the jump', () => {
    const order = textbookOrder(cLook)
    expect(order).toEqual([65, 67, 98, 122, 124, 183, 14, 37])
    expect(movement(order)).toBe(322)
  })
})

describe('starvation', () => {
  /**
   * A far request (sector 5 000 000) among a stream of requests near the start of the disk that
   * arrive twice as fast as the device serves them, for 300 ms. Returns when the far one went.
   */
  function farRequest(type: SchedulerType): { t: number; last: boolean } {
    const r = makeRig(type, {}, { queueDepth: 1, completionUs: 1000 }, 1024)
    let k = 0
    const feeder: Handler = {
      onEvent: () => {
        r.submit(((k * 37) % 100) * CYL, 8, READ, ctx(1))
        k++
        if (r.engine.now < 300 * MS) r.engine.at(r.engine.now + 500 * US, feeder, 0)
      },
    }
    r.engine.at(0, feeder, 0)
    at(r, 1 * MS, () => r.submit(5_000_000, 8, READ, ctx(2)))
    r.engine.run()
    const i = r.dispatches.findIndex((d) => d.pid === 2)
    return { t: r.dispatches[i].t, last: i === r.dispatches.length - 1 }
  }

  it('SSTF starves a far request while nearby ones keep arriving (as the textbook warns)', () => {
    const far = farRequest(sstf)
    expect(far.t).toBeGreaterThan(300 * MS)
    expect(far.last).toBe(true)
  })

  it.each([
    ['scan', scan],
    ['look', look],
    ['c-look', cLook],
  ])('%s serves it within a sweep', (_n, type) => {
    const far = farRequest(type)
    expect(far.t).toBeLessThan(50 * MS)
  })

  it('FCFS serves it in arrival order', () => {
    expect(farRequest(fcfs).t).toBeLessThan(5 * MS)
  })
})

describe('merging', () => {
  it('FCFS merges nothing; the sorted policies keep the block layer’s back merge', () => {
    const run = (type: SchedulerType) => {
      const r = makeRig(type, {}, { queueDepth: 1, completionUs: 1000 })
      r.submit(1_000_000, 8, WRITE, ctx(1), false) // keeps the device busy
      for (let i = 0; i < 4; i++) r.submit(i * 8, 8, WRITE, ctx(2), false)
      r.engine.run()
      return r.dispatches.filter((d) => d.pid === 2).map((d) => d.nsect)
    }
    expect(run(fcfs)).toEqual([8, 8, 8, 8])
    expect(run(sstf)).toEqual([32])
    expect(run(cLook)).toEqual([32])
  })
})

// --- the contract, under a random mix of processes (as test/schedulers/conformance.test.ts) ---

describe.each([
  ['fcfs', fcfs, true],
  ['sstf', sstf, false],
  ['scan', scan, true],
  ['look', look, true],
  ['c-look', cLook, true],
] as const)('%s keeps the scheduler contract', (_name, type, bounded) => {
  for (const qd of [1, 32]) {
    it(`dispatches every inserted request exactly once, none invented, none left (QD${qd})`, () => {
      const o = driveMix(type, 31, { queueDepth: qd, rotational: qd === 1 })
      expect(o.submitted).toBeGreaterThan(500)
      expect(o.completed).toBe(o.submitted)
      expect(o.dispatchedTwice).toEqual([])
      expect(o.notInserted).toEqual([])
      // FCFS and the sweeps bound every wait (a queue's worth, or two sweeps); SSTF does not
      if (bounded) expect(o.maxWaitMs).toBeLessThan(1000)
    })

    it(`has work exactly when requests are queued (QD${qd})`, () => {
      expect(driveMix(type, 32, { queueDepth: qd, rotational: qd === 1 }).hasWorkMismatches).toEqual([])
    })

    it(`dispatches identically for the same inputs (QD${qd})`, () => {
      const a = driveMix(type, 33, { queueDepth: qd, rotational: qd === 1 })
      expect(driveMix(type, 33, { queueDepth: qd, rotational: qd === 1 }).log).toEqual(a.log)
      expect(driveMix(type, 34, { queueDepth: qd, rotational: qd === 1 }).log).not.toEqual(a.log)
    })
  }
})
