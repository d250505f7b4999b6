import { describe, expect, it } from 'vitest'
import { IOPRIO_BE, IOPRIO_IDLE, IOPRIO_RT, READ, WRITE } from '../../src/shared/block/types'
import type { IoContext, IoPrioClass, Op } from '../../src/shared/block/types'
import { row, rowConfig, rowTunables } from '../../src/shared/schedulers/row'
import type { Handler } from '../../src/shared/sim/engine'
import { MS, US } from '../../src/shared/sim/time'
import { resolveParams } from '../../src/shared/util/params'
import { ctx, makeRig } from '../helpers/rig'
import { driveMix } from '../helpers/contract'
import type { Dispatch } from '../helpers/rig'

type Rig = ReturnType<typeof makeRig>

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

function withClass(pid: number, cls: IoPrioClass): IoContext {
  const c = ctx(pid)
  c.ioClass = cls
  return c
}

/** Call `fn` at simulated time `t`. */
function at(r: Rig, t: number, fn: () => void): void {
  const h: Handler = { onEvent: fn }
  r.engine.at(t, h, 0)
}

/** `n` scattered requests (gaps between them, so none merge). */
function submitMany(r: Rig, n: number, base: number, op: Op, c: IoContext, sync = op === READ): void {
  for (let i = 0; i < n; i++) r.submit(base + i * 1000, 8, op, c, sync)
}

const readsOf = (ds: Dispatch[]) => ds.filter((d) => d.op === READ)

describe('row tunables', () => {
  it('has the 2014 defaults under their sysfs names', () => {
    const t = resolveParams(rowTunables, {}, '', [])
    expect(t).toMatchObject({
      hp_read_quantum: 100,
      hp_swrite_quantum: 5,
      rp_read_quantum: 75,
      rp_swrite_quantum: 4,
      rp_write_quantum: 4,
      lp_read_quantum: 3,
      lp_swrite_quantum: 2,
      rd_idle_data: 10,
      rd_idle_data_freq: 25,
      reg_starv_limit: 5000,
      low_starv_limit: 10_000,
      version: '2014',
    })
    expect(rowConfig(t).quantum).toEqual([100, 5, 75, 4, 4, 3, 2])
  })

  it("takes the 2012 numbers under version '2012' unless a value is given", () => {
    const t = resolveParams(rowTunables, { version: '2012' }, '', [])
    const c = rowConfig(t)
    // by queue id (2014 order): HIGH_READ, HIGH_SWRITE, REG_READ, REG_SWRITE, REG_WRITE, LOW_READ, LOW_SWRITE
    expect(c.quantum).toEqual([100, 2, 100, 1, 1, 1, 1])
    expect([c.idleMs, c.freqMs]).toEqual([5, 20])
    const mine = rowConfig(resolveParams(rowTunables, { version: '2012', rp_read_quantum: 10 }, '', []))
    expect(mine.quantum[2]).toBe(10)
    expect(mine.quantum[4]).toBe(1)
  })
})

describe('row (2014 design)', () => {
  it('gives regular reads 75 dispatches per 4 writes, then idles 10 ms before the writes run on', () => {
    const r = makeRig(row, {}, { queueDepth: 1, completionUs: 100 })
    for (let i = 0; i < 300; i++) {
      r.submit(i * 1000, 8, READ, ctx(1))
      if (i < 40) r.submit(5_000_000 + i * 1000, 8, WRITE, ctx(2), false)
    }
    r.engine.run()
    expect(runs(r.dispatches.map((d) => d.op))).toEqual([
      [READ, 75],
      [WRITE, 4],
      [READ, 75],
      [WRITE, 4],
      [READ, 75],
      [WRITE, 4],
      [READ, 75],
      [WRITE, 28],
    ])
    // the reads came often, so when REG_READ empties the device waits rd_idle_data for another
    const lastRead = r.dispatches[311]
    expect(lastRead.op).toBe(READ)
    expect(r.dispatches[312].t).toBe(lastRead.t + 100 * US + 10 * MS)
  })

  it('idles up to rd_idle_data for the next read of a frequent reader while writes are queued', () => {
    const run = (tunables: Record<string, number>) => {
      const r = makeRig(row, tunables, { queueDepth: 1, completionUs: 1000 })
      submitMany(r, 40, 5_000_000, WRITE, ctx(2), false)
      // an open-loop reader: one read every 1.6 ms (each takes 1 ms), 30 reads
      for (let k = 0; k < 30; k++) at(r, k * 1.6 * MS, () => r.submit(k * 1000, 8, READ, ctx(1)))
      r.engine.run()
      return r.dispatches
    }
    const ds = run({})
    const reads = readsOf(ds)
    // from the third read on (once two reads came < 25 ms apart) each read is served on arrival
    for (let k = 2; k < 30; k++) expect(reads[k].t).toBe(k * 1.6 * MS)
    // the device stayed idle between them although writes were queued
    const between = ds.filter((d) => d.op === WRITE && d.t > reads[2].t && d.t < reads[29].t)
    expect(between).toEqual([])
    // and after the reader stops, the writes wait out one idle period
    const firstWriteAfter = ds.find((d) => d.op === WRITE && d.t > reads[29].t)!
    expect(firstWriteAfter.t).toBe(reads[29].t + 1 * MS + 10 * MS)

    // a reader slower than rd_idle_data_freq does not trigger idling: writes interleave
    const slow = run({ rd_idle_data_freq: 1 })
    const slowReads = readsOf(slow)
    const interleaved = slow.filter((d) => d.op === WRITE && d.t < slowReads[29].t)
    expect(interleaved.length).toBeGreaterThan(10)
  })

  it('serves a starved LOW (IDLE-class) request once low_starv_limit higher dispatches have passed', () => {
    const run = (tunables: Record<string, number>) => {
      const r = makeRig(row, tunables, { queueDepth: 1, completionUs: 100 })
      submitMany(r, 60, 0, READ, ctx(1))
      submitMany(r, 3, 9_000_000, READ, withClass(3, IOPRIO_IDLE))
      r.engine.run()
      return r.dispatches.flatMap((d, i) => (d.pid === 3 ? [i] : []))
    }
    expect(run({ low_starv_limit: 10 })).toEqual([10, 21, 32])
    // with the default limit (10 000) the idle class waits until the regular reads are done
    expect(run({})).toEqual([60, 61, 62])
  })

  it('serves a starved REG request once reg_starv_limit RT dispatches have passed', () => {
    const r = makeRig(row, { reg_starv_limit: 5 }, { queueDepth: 1, completionUs: 100 })
    submitMany(r, 30, 0, READ, withClass(4, IOPRIO_RT))
    submitMany(r, 3, 9_000_000, READ, withClass(1, IOPRIO_BE))
    r.engine.run()
    expect(r.dispatches.flatMap((d, i) => (d.pid === 1 ? [i] : []))).toEqual([5, 11, 17])
  })

  it('serves HIGH (RT) requests before regular ones', () => {
    const r = makeRig(row, {}, { queueDepth: 1, completionUs: 100 })
    submitMany(r, 20, 0, READ, ctx(1))
    submitMany(r, 10, 3_000_000, WRITE, ctx(2), false)
    const rt = withClass(4, IOPRIO_RT)
    submitMany(r, 4, 6_000_000, READ, rt)
    submitMany(r, 2, 7_000_000, WRITE, rt, true) // RT sync writes: HIGH_SWRITE
    r.engine.run()
    expect(r.dispatches.slice(0, 6).map((d) => d.pid)).toEqual([4, 4, 4, 4, 4, 4])
    expect(r.dispatches.slice(0, 6).map((d) => d.op)).toEqual([READ, READ, READ, READ, WRITE, WRITE])
  })

  it('lets an urgent read (its queue went unserved last cycle) jump ahead of a starved LOW request', () => {
    const r = makeRig(row, { low_starv_limit: 4 }, { queueDepth: 1, completionUs: 100 })
    submitMany(r, 50, 5_000_000, WRITE, ctx(2), false)
    submitMany(r, 3, 9_000_000, READ, withClass(3, IOPRIO_IDLE))
    at(r, 850 * US, () => r.submit(0, 8, READ, ctx(1)))
    r.engine.run()
    const who = r.dispatches.slice(0, 12).map((d) => d.pid)
    // W W W W L W W W W | R (urgent: REG_READ was unserved in the cycle that restarted at #6) | L …
    expect(who).toEqual([2, 2, 2, 2, 3, 2, 2, 2, 2, 1, 3, 2])
    expect(r.dispatches[9].t).toBe(900 * US)
  })

  it('marks no request urgent while an urgent one is in flight', () => {
    const r = makeRig(row, { low_starv_limit: 4 }, { queueDepth: 2, completionUs: 10_000 })
    const rt = withClass(4, IOPRIO_RT)
    submitMany(r, 2, 5_000_000, WRITE, ctx(2), false) // both dispatched at 0 ms
    submitMany(r, 3, 9_000_000, READ, withClass(3, IOPRIO_IDLE)) // LOW, starving from the start
    at(r, 5 * MS, () => submitMany(r, 20, 6_000_000, WRITE, ctx(2), false))
    at(r, 6 * MS, () => r.submit(0, 8, READ, rt)) // A: urgent (HIGH_READ empty, REG being served)
    at(r, 16 * MS, () => r.submit(100_000, 8, READ, rt)) // B: likewise, but A is still in flight
    r.engine.run()
    // at 10 ms: A (urgent) and a write, which makes REG the last class served
    expect(r.dispatches.filter((d) => d.t === 10 * MS).map((d) => d.pid)).toEqual([4, 2])
    // at 20 ms B is an ordinary HIGH request: LOW, starved 4 dispatches, goes first; urgent B would not wait
    expect(r.dispatches.filter((d) => d.t === 20 * MS).map((d) => [d.pid, d.sector])).toEqual([
      [3, 9_000_000],
      [4, 100_000],
    ])
  })
})

describe("row (version '2012', the first version)", () => {
  it('gives reads 100 dispatches per write, then idles 5 ms for the reader', () => {
    const r = makeRig(row, { version: '2012' }, { queueDepth: 1, completionUs: 100 })
    for (let i = 0; i < 250; i++) {
      r.submit(i * 1000, 8, READ, ctx(1))
      if (i < 10) r.submit(5_000_000 + i * 1000, 8, WRITE, ctx(2), false)
    }
    r.engine.run()
    expect(runs(r.dispatches.map((d) => d.op))).toEqual([
      [READ, 100],
      [WRITE, 1],
      [READ, 100],
      [WRITE, 1],
      [READ, 50],
      [WRITE, 8],
    ])
    const lastRead = r.dispatches[251]
    expect(r.dispatches[252].t).toBe(lastRead.t + 100 * US + 5 * MS)
  })

  it('lets a read queue skipped while empty preempt the queue being served when a read arrives', () => {
    const r = makeRig(row, { version: '2012', rp_write_quantum: 10 }, { queueDepth: 1, completionUs: 100 })
    submitMany(r, 30, 5_000_000, WRITE, ctx(2), false)
    at(r, 350 * US, () => r.submit(0, 8, READ, ctx(1)))
    r.engine.run()
    // REG_READ was empty at its turn (unserved): the read goes at the next dispatch, not after 10 writes
    expect(r.dispatches.find((d) => d.op === READ)!.t).toBe(400 * US)
  })

  it('uses a quantum the user sets, and ignores I/O priority classes as the first version did', () => {
    const r = makeRig(row, { version: '2012', rp_read_quantum: 10 }, { queueDepth: 1, completionUs: 100 })
    submitMany(r, 5, 5_000_000, WRITE, ctx(2), false)
    submitMany(r, 30, 0, READ, ctx(1))
    submitMany(r, 2, 9_000_000, READ, withClass(4, IOPRIO_RT)) // still REG_READ, in FIFO order
    r.engine.run()
    expect(runs(r.dispatches.map((d) => d.op))).toEqual([
      [READ, 10],
      [WRITE, 1],
      [READ, 10],
      [WRITE, 1],
      [READ, 10],
      [WRITE, 1],
      [READ, 2],
      [WRITE, 2],
    ])
    expect(r.dispatches.slice(-4, -2).map((d) => d.pid)).toEqual([4, 4])
  })
})

// --- the contract, under a random mix of processes (as test/schedulers/conformance.test.ts) ---

describe.each([
  ['2014', { version: '2014' }],
  ['2014, small starvation limits', { version: '2014', reg_starv_limit: 3, low_starv_limit: 5 }],
  ['2012', { version: '2012' }],
])('row %s keeps the scheduler contract', (_name, tunables) => {
  for (const qd of [1, 32]) {
    it(`dispatches every inserted request exactly once, none invented, none left (QD${qd})`, () => {
      const o = driveMix(row, 21, { queueDepth: qd, rotational: qd === 1 }, tunables)
      expect(o.submitted).toBeGreaterThan(500)
      expect(o.completed).toBe(o.submitted)
      expect(o.dispatchedTwice).toEqual([])
      expect(o.notInserted).toEqual([])
    })

    it(`has work exactly when requests are queued (QD${qd})`, () => {
      expect(driveMix(row, 22, { queueDepth: qd, rotational: qd === 1 }, tunables).hasWorkMismatches).toEqual(
        [],
      )
    })

    it(`dispatches identically for the same inputs (QD${qd})`, () => {
      const a = driveMix(row, 23, { queueDepth: qd, rotational: qd === 1 }, tunables)
      expect(driveMix(row, 23, { queueDepth: qd, rotational: qd === 1 }, tunables).log).toEqual(a.log)
      expect(driveMix(row, 24, { queueDepth: qd, rotational: qd === 1 }, tunables).log).not.toEqual(a.log)
    })
  }
})
