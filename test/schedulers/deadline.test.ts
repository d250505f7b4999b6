import { describe, expect, it } from 'vitest'
import { READ, WRITE } from '../../src/shared/block/types'
import { deadline } from '../../src/shared/schedulers/deadline'
import { noop } from '../../src/shared/schedulers/noop'
import { MS } from '../../src/shared/sim/time'
import type { Handler } from '../../src/shared/sim/engine'
import { ctx, makeRig } from '../helpers/rig'

/** Run lengths of consecutive equal values: [[value, count], …]. */
function runs<T>(xs: T[]): [T, number][] {
  const out: [T, number][] = []
  for (const x of xs) {
    const last = out[out.length - 1]
    if (last && last[0] === x) last[1]++
    else out.push([x, 1])
  }
  return out
}

describe('deadline', () => {
  it('serves 16-request batches in sector order, two read batches per write batch', () => {
    const r = makeRig(deadline, {}, { queueDepth: 1, completionUs: 100 })
    // interleave reads and writes, writes over scattered sectors (no merges: gaps between requests)
    for (let i = 0; i < 64; i++) {
      r.submit(i * 1000, 8, READ, ctx(1))
      r.submit(((i * 53) % 64) * 1000 + 500_000, 8, WRITE, ctx(2), false)
    }
    r.engine.run()
    expect(r.dispatches).toHaveLength(128)
    const ops = runs(r.dispatches.map((d) => d.op))
    // writes_starved = 2: reads get two 16-request batches (one run of 32), then writes get 16
    expect(ops).toEqual([
      [READ, 32],
      [WRITE, 16],
      [READ, 32],
      [WRITE, 48], // reads are exhausted: writes run on
    ])
    // the write batch sweeps up from the oldest write, not from the lowest sector
    const w = r.dispatches
      .filter((d) => d.op === WRITE)
      .slice(0, 16)
      .map((d) => d.sector)
    expect(w[0]).toBe(500_000)
    expect(w).toEqual([...w].sort((a, b) => a - b))
    // within a batch, sectors ascend (a one-way sweep from the successor of the last request)
    const firstBatch = r.dispatches.slice(0, 16).map((d) => d.sector)
    expect(firstBatch).toEqual([...firstBatch].sort((a, b) => a - b))
    // the first request is the oldest read (FIFO head), not the lowest sector
    expect(r.dispatches[0].sector).toBe(0)
    expect(r.dispatches[1].sector).toBe(1000)
  })

  it('uses writes_starved and fifo_batch as tuned', () => {
    const r = makeRig(deadline, { writes_starved: 1, fifo_batch: 4 }, { queueDepth: 1, completionUs: 100 })
    for (let i = 0; i < 24; i++) {
      r.submit(i * 1000, 8, READ, ctx(1))
      r.submit(i * 1000 + 500_000, 8, WRITE, ctx(2), false)
    }
    r.engine.run()
    const ops = runs(r.dispatches.map((d) => d.op))
    // writes_starved = 1: one read batch, then a write batch; batches of 4
    expect(ops).toEqual(Array.from({ length: 12 }, (_, i) => [i % 2 === 0 ? READ : WRITE, 4]))
  })

  it('serves an expired read at the next batch boundary although the sweep moves away', () => {
    const r = makeRig(deadline, {}, { queueDepth: 1, completionUs: 1000 })
    // a stream of reads ascending faster than the device serves them keeps the sweep going up
    let next = 100_000
    const feeder: Handler = {
      onEvent: () => {
        r.submit(next, 8, READ, ctx(1))
        next += 1000
        if (r.engine.now > 0 && r.engine.now < 800 * MS) r.engine.at(r.engine.now + MS / 2, feeder, 0)
      },
    }
    for (let i = 0; i < 20; i++) feeder.onEvent(0, null) // a backlog, so a successor always exists
    r.submit(10, 8, READ, ctx(2)) // behind the head: never a sector successor
    r.engine.at(MS / 2, feeder, 0)
    r.engine.run(900 * MS)
    const low = r.dispatches.find((d) => d.sector === 10)!
    expect(low).toBeDefined()
    // read_expire = 500 ms; checked only between 16-request batches of 1 ms requests
    expect(low.t).toBeGreaterThanOrEqual(500 * MS)
    expect(low.t).toBeLessThanOrEqual(500 * MS + 17 * MS)
  })

  it('starves nothing without expiry when the sweep ends: takes the FIFO head', () => {
    const r = makeRig(deadline, {}, { queueDepth: 1, completionUs: 100 })
    r.submit(50_000, 8)
    r.submit(90_000, 8)
    r.submit(10_000, 8)
    r.engine.run()
    // FIFO head first, then its successor, then no successor: back to the oldest
    expect(r.dispatches.map((d) => d.sector)).toEqual([50_000, 90_000, 10_000])
  })
})

describe('noop', () => {
  it('dispatches in arrival order', () => {
    const r = makeRig(noop, {}, { queueDepth: 1 })
    for (const s of [500, 100, 900, 300]) r.submit(s * 100, 8)
    r.engine.run()
    expect(r.dispatches.map((d) => d.sector)).toEqual([50_000, 10_000, 90_000, 30_000])
  })
})
