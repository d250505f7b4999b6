import { describe, expect, it } from 'vitest'
import { IOPRIO_BE, IOPRIO_IDLE, IOPRIO_RT, READ, WRITE } from '../../src/shared/block/types'
import type { Request } from '../../src/shared/block/types'
import type { Handler } from '../../src/shared/sim/engine'
import type { SimTime } from '../../src/shared/sim/time'
import { MS, SECOND } from '../../src/shared/sim/time'
import { bfq } from '../../src/shared/schedulers/bfq'
import type { ParamValues } from '../../src/shared/util/params'
import { ctx, makeRig } from '../helpers/rig'
import { Proc, pctx, queueOf, sched } from '../helpers/bfq-procs'
import type { ProcOpts, Rig } from '../helpers/bfq-procs'

/** Wrap the scheduler to record inserted and merged-away requests and check hasWork on every change. */
function audit(r: Rig) {
  const s = sched(r)
  const inserted: number[] = []
  const mergedAway: number[] = []
  let hasWorkMismatches = 0
  const insert = s.insert.bind(s)
  s.insert = (rq: Request, now: SimTime) => {
    inserted.push(rq.id)
    insert(rq, now)
  }
  const mergedRequests = s.mergedRequests.bind(s)
  s.mergedRequests = (rq: Request, next: Request, now: SimTime) => {
    mergedAway.push(next.id)
    mergedRequests(rq, next, now)
  }
  const obs = r.queue.observer!
  r.queue.observer = {
    ...obs,
    levels: (now, queued, inFlight) => {
      if (s.hasWork() !== queued > 0) hasWorkMismatches++
      obs.levels(now, queued, inFlight)
    },
  }
  return { inserted, mergedAway, mismatches: () => hasWorkMismatches }
}

/** A mix of classes, priorities, directions and patterns, merging bios, and a process that exits. */
function mixedRun(dev: Partial<ParamValues>, tunables: Partial<ParamValues> = {}) {
  const r = makeRig(bfq, tunables, dev)
  const a = audit(r)
  const rnd = (i: number, seed: number) => ((i * 7919 + seed * 104729) % 200_000) * 64
  const procs = [
    new Proc(r, pctx(1, IOPRIO_RT, 2), { count: 300, depth: 1, sector: (i) => 1_000_000 + i * 64 }),
    new Proc(r, pctx(2, IOPRIO_BE, 0), { count: 400, depth: 8, sector: (i) => rnd(i, 2), nsect: 8 }),
    new Proc(r, pctx(3), { count: 400, depth: 4, sector: (i) => 3_000_000 + i * 64, thinkNs: MS / 2 }),
    new Proc(r, pctx(4, IOPRIO_BE, 7), {
      count: 400,
      depth: 16,
      op: WRITE,
      sync: false,
      sector: (i) => 5_000_000 + i * 64,
    }),
    new Proc(r, pctx(5), {
      count: 200,
      depth: 4,
      op: WRITE,
      sync: true,
      sector: (i) => rnd(i, 5),
      nsect: 16,
    }),
    new Proc(r, pctx(6, IOPRIO_IDLE), { count: 100, depth: 2, sector: (i) => 8_000_000 + i * 64 }),
    // contiguous bios: the block layer merges them (back and front merges into BFQ's requests)
    new Proc(r, pctx(7), {
      count: 300,
      depth: 32,
      sector: (i) => 9_000_000 + (i ^ 1) * 8,
      nsect: 8,
      startAt: 5 * MS,
    }),
  ]
  // process 3 exits at 150 ms (its remaining requests must still be served)
  const exiter: Handler = {
    onEvent: () => {
      procs[2].c.exited = true
      r.queue.sched.contextExited?.(3, r.engine.now)
    },
  }
  r.engine.at(150 * MS, exiter, 0)
  r.engine.run(60 * SECOND)
  return { r, a, procs }
}

describe('bfq: contract', () => {
  for (const [name, dev] of [
    ['non-rotational, queue depth 32', { queueDepth: 32, completionUs: 200 }],
    ['rotational, queue depth 1', { queueDepth: 1, completionUs: 500, rotational: true }],
  ] as const) {
    it(`dispatches every inserted request exactly once; hasWork matches; nothing starves (${name})`, () => {
      const { r, a, procs } = mixedRun(dev)
      const ids = r.dispatches.map((d) => d.id)
      expect(new Set(ids).size).toBe(ids.length)
      const expected = a.inserted.filter((id) => !a.mergedAway.includes(id))
      expect([...ids].sort((x, y) => x - y)).toEqual([...expected].sort((x, y) => x - y))
      expect(a.mergedAway.length).toBeGreaterThan(0)
      expect(a.mismatches()).toBe(0)
      expect(sched(r).hasWork()).toBe(false)
      for (const p of procs) expect(p.done, `pid ${p.c.pid}`).toBe(p.sent)
      // bounded: everything, the idle class included, is done within a second or so
      const lastDone = Math.max(...procs.map((p) => p.doneAt[p.doneAt.length - 1]))
      expect(lastDone).toBeLessThan(2 * SECOND)
    })
  }

  it('gives identical logs for identical inputs', () => {
    const dev = { queueDepth: 4, completionUs: 300 }
    const x = mixedRun(dev).r.dispatches
    const y = mixedRun(dev).r.dispatches
    expect(x.length).toBeGreaterThan(1000)
    expect(y).toEqual(x)
  })

  it('exports the registry entry with the kernel’s sysfs defaults', () => {
    const d = Object.fromEntries(bfq.tunables.map((t) => [t.name, t.default]))
    expect(d).toEqual({
      fifo_expire_sync: 125,
      fifo_expire_async: 250,
      back_seek_max: 16384,
      back_seek_penalty: 2,
      slice_idle: 8,
      timeout_sync: 125,
      max_budget: 0,
      strict_guarantees: false,
      low_latency: true,
    })
    expect(bfq.layer).toBe('mq')
    expect(bfq.usesIoPriority).toBe(true)
  })
})

describe('bfq: budgets', () => {
  it('grows a sequential reader’s budget ×4 on each exhaustion, up to the max budget', () => {
    // one backlogged sequential reader: 16 outstanding, the device takes 2 at a time
    const r = makeRig(bfq, { low_latency: false }, { queueDepth: 2, completionUs: 100 })
    const reader = new Proc(r, pctx(1), { count: 1e9, depth: 16, sector: (i) => i * 72 })
    // the reader's max budget each time it changes, with the device's auto max budget then
    const budgets: number[] = []
    const caps: number[] = []
    for (let t = MS; t <= 3 * SECOND; t += MS) {
      r.engine.run(t)
      const s = sched(r).debugState()
      const b = queueOf(s, 1).maxBudget
      if (budgets[budgets.length - 1] !== b) {
        budgets.push(b)
        caps.push(s.autoMaxBudget)
      }
    }
    expect(reader.done).toBeGreaterThan(10_000)
    // 2/3 of the default max budget (16384) to start; then ×4 at each exhaustion, capped by the
    // device's max budget, which follows the peak rate (2 × 64 sectors / 100 µs = 1.28 M sectors/s)
    expect(budgets[0]).toBe(10922)
    expect(budgets.length).toBeGreaterThan(3)
    for (let i = 1; i < budgets.length; i++) expect(budgets[i]).toBe(Math.min(4 * budgets[i - 1], caps[i]))
    expect(budgets.slice(0, 3)).toEqual([10922, 16384, 65536])
    expect(budgets[budgets.length - 1]).toBeGreaterThan(100_000)
  })

  it('shrinks the budget of a reader that keeps running dry to what it uses (min budget)', () => {
    // two dependent readers on flash with command queueing: no idling (symmetric, and neither is
    // alone), every slot ends with no more requests
    const r = makeRig(bfq, { low_latency: false }, { queueDepth: 32, completionUs: 100 })
    new Proc(r, pctx(1), { count: 2000, depth: 1, sector: (i) => i * 72 })
    new Proc(r, pctx(2), { count: 2000, depth: 1, sector: (i) => 5e7 + i * 72 })
    r.engine.run(50 * MS)
    const q = queueOf(sched(r).debugState(), 1)
    expect(q.maxBudget).toBe(16384 / 32) // max(service = 64, min budget = 512)
  })

  it('uses max_budget as tuned', () => {
    const r = makeRig(bfq, { low_latency: false, max_budget: 4096 }, { queueDepth: 2, completionUs: 100 })
    new Proc(r, pctx(1), { count: 20_000, depth: 16, sector: (i) => i * 72 })
    r.engine.run(SECOND)
    expect(queueOf(sched(r).debugState(), 1).maxBudget).toBe(4096)
  })
})

describe('bfq: B-WF2Q+ shares', () => {
  /** Sectors dispatched to a reader at `levels[0]` over those to one at `levels[1]`, after warm-up. */
  function share(
    dev: Partial<ParamValues>,
    tunables: Partial<ParamValues>,
    levels: [number, number],
    secs: number,
  ) {
    const r = makeRig(bfq, tunables, dev)
    new Proc(r, pctx(1, IOPRIO_BE, levels[0]), { count: 1e9, depth: 32, sector: (i) => i * 264, nsect: 256 })
    new Proc(r, pctx(2, IOPRIO_BE, levels[1]), {
      count: 1e9,
      depth: 32,
      sector: (i) => 5e7 + i * 264,
      nsect: 256,
    })
    r.engine.run(secs * SECOND)
    const sectors = [0, 0]
    for (const d of r.dispatches) if (d.t > SECOND) sectors[d.pid - 1] += d.nsect
    return sectors[0] / sectors[1]
  }

  it('serves two greedy readers at BE/0 (weight 80) and BE/4 (weight 40) 2:1 in sectors', () => {
    // non-rotational null_blk taking 4 commands at a time; idling off
    const ratio = share({ queueDepth: 4, completionUs: 500 }, { slice_idle: 0 }, [0, 4], 12)
    expect(ratio).toBeGreaterThan(1.85)
    expect(ratio).toBeLessThan(2.15)
  })

  it('serves equal weights 1:1, and BE/0 against BE/7 (80 : 10) 8:1', () => {
    // small budgets (max_budget) make slots short, so a 3.5 s window holds many rounds
    const dev = { queueDepth: 4, completionUs: 500 }
    const even = share(dev, { slice_idle: 0, max_budget: 8192 }, [4, 4], 5)
    expect(even).toBeGreaterThan(0.95)
    expect(even).toBeLessThan(1.05)
    const steep = share(dev, { slice_idle: 0, max_budget: 8192 }, [0, 7], 5)
    expect(steep).toBeGreaterThan(7)
    expect(steep).toBeLessThan(9)
  })

  it('charges async service ×3: a greedy async writer gets a third of a sync reader’s sectors', () => {
    const r = makeRig(bfq, { slice_idle: 0, max_budget: 8192 }, { queueDepth: 4, completionUs: 500 })
    new Proc(r, pctx(1), { count: 1e9, depth: 32, sector: (i) => i * 264, nsect: 256 })
    const writes: ProcOpts = {
      count: 1e9,
      depth: 32,
      op: WRITE,
      sync: false,
      nsect: 256,
      sector: (i) => 5e7 + i * 264,
    }
    new Proc(r, pctx(2), writes)
    r.engine.run(4 * SECOND)
    const sectors = [0, 0]
    for (const d of r.dispatches) if (d.t > SECOND) sectors[d.pid - 1] += d.nsect
    expect(sectors[0] / sectors[1]).toBeGreaterThan(2.8)
    expect(sectors[0] / sectors[1]).toBeLessThan(3.2)
  })

  it('serves the RT class before BE whatever the weights', () => {
    const r = makeRig(bfq, { slice_idle: 0 }, { queueDepth: 1, completionUs: 50 })
    new Proc(r, pctx(1, IOPRIO_BE, 0), { count: 1e9, depth: 16, sector: (i) => i * 72 })
    const rt = new Proc(r, pctx(2, IOPRIO_RT, 7), {
      count: 2000,
      depth: 16,
      sector: (i) => 50_000_000 + i * 72,
      startAt: 100 * MS,
    })
    r.engine.run(SECOND)
    expect(rt.done).toBe(2000)
    const rtDisp = r.dispatches.filter((d) => d.pid === 2)
    const first = rtDisp[0].t
    const last = rtDisp[rtDisp.length - 1].t
    // the RT reader, always backlogged, had the device to itself (2000 × 50 µs) but for one BE request
    expect(last - first).toBeLessThan(2000 * 50_000 + 200_000)
  })
})

describe('bfq: weight raising (low_latency)', () => {
  /**
   * A sync writer streams (8 outstanding) from t = 0; at 0.5 s an "interactive" reader starts
   * 12 dependent reads (768 sectors: within a raised queue's budget of 2 × min budget).
   */
  function readerUnderWriter(lowLatency: boolean, reads = 12) {
    const r = makeRig(bfq, { low_latency: lowLatency }, { queueDepth: 1, completionUs: 100 })
    new Proc(r, pctx(10), { count: 1e9, depth: 8, op: WRITE, sync: true, sector: (i) => i * 72 })
    const reader = new Proc(r, pctx(20), {
      count: reads,
      depth: 1,
      sector: (i) => 9e7 + i * 72,
      startAt: 500 * MS,
    })
    r.engine.run(501 * MS)
    const state = sched(r).debugState()
    r.engine.run(700 * MS)
    const after = r.dispatches.filter((d) => d.t >= 500 * MS)
    const firstRead = after.findIndex((d) => d.pid === 20)
    const lastRead = after.map((d) => d.pid).lastIndexOf(20)
    return { state, after, firstRead, lastRead, reader }
  }

  it('raises a new queue ×30 and serves it ahead of a long-running writer; not with low_latency 0', () => {
    const on = readerUnderWriter(true)
    expect(on.reader.done).toBe(12)
    // raised: weight 40 × 30; the writer's own start-up raising ended long ago (120 000 sectors)
    expect(queueOf(on.state, 20).wrCoeff).toBe(30)
    expect(queueOf(on.state, 20).weight).toBe(1200)
    expect(queueOf(on.state, 10).weight).toBe(40)
    // it preempts the writer: its first read is the next dispatch, and its 12 reads go back to
    // back (the device idles for it between a completion and the next read)
    expect(on.firstRead).toBe(0)
    expect(on.lastRead).toBe(11)
    expect(on.reader.doneAt[11] - 500 * MS).toBeLessThanOrEqual(12 * 100_000 + 100_000)

    const off = readerUnderWriter(false)
    expect(off.reader.done).toBe(12)
    expect(queueOf(off.state, 20).weight).toBe(40)
    // not raised, it waits for the writer's slot to run out: the writer keeps the device meanwhile
    expect(off.firstRead).toBeGreaterThan(5)
    expect(off.after.slice(0, off.firstRead).every((d) => d.pid === 10)).toBe(true)
    expect(off.reader.doneAt[11]).toBeGreaterThan(on.reader.doneAt[11] + off.firstRead * 100_000 - 100_000)
  })

  it('serves only eligible queues (S ≤ V): a raised reader that used its budget waits for V', () => {
    // 40 reads: more than a raised queue's budget (2 × min budget = 1024 sectors = 16 reads).
    // After its slot the reader's start is past the virtual time; the writer is eligible and gets
    // a whole slot although the reader's finish time is smaller.
    const { after, reader } = readerUnderWriter(true, 40)
    expect(reader.done).toBe(40)
    const reads = after.flatMap((d, i) => (d.pid === 20 ? [i] : []))
    expect(reads.slice(0, 16)).toEqual(Array.from({ length: 16 }, (_, i) => i))
    expect(reads[16] - reads[15]).toBeGreaterThan(100) // a writer slot: 16384 sectors
  })

  it('raises a queue again only after it was idle for more than 2 s', () => {
    const r = makeRig(bfq, {}, { queueDepth: 1, completionUs: 20 })
    const c = pctx(1)
    const wr: number[] = []
    // bursts of 2000 reads × 64 sectors: 128 000 sectors each, enough to end interactive raising
    for (const at of [0, 1.5 * SECOND, 4 * SECOND]) {
      new Proc(r, c, { count: 2000, depth: 4, sector: (i) => at / 1000 + i * 72, startAt: at })
      r.engine.run(at + MS)
      wr.push(queueOf(sched(r).debugState(), 1).wrCoeff)
    }
    // new: raised; back after ~1.4 s idle: not; back after ~2.4 s idle: raised again
    expect(wr).toEqual([30, 1, 30])
  })

  it('takes a totally seeky queue out of soft real-time raising back to its interactive raising', () => {
    // a dependent random reader next to a streaming sync writer (the device queues commands, so
    // BFQ does not idle for the seeky reader): each read finds the reader's queue empty and expired,
    // so it soon looks soft real-time (×30 × 100) — until 32 seeky reads in a row show it is not.
    // bfq_update_io_seektime (since the 2019 fix) then gives it back the interactive raising (×30) that still
    // has its 3 s to run; before, the raising ended and the reader lost its share to the writer.
    const r = makeRig(bfq, {}, { queueDepth: 8, completionUs: 100 })
    new Proc(r, pctx(10), { count: 1e9, depth: 4, op: WRITE, sync: true, nsect: 256, sector: (i) => i * 256 })
    new Proc(r, pctx(20), { count: 1e9, depth: 1, nsect: 8, sector: (i) => 1e8 + ((i * 7919) % 997) * 1e5 })
    const seen: number[] = []
    for (let t = 1; t <= 300; t++) {
      r.engine.run(t * MS)
      seen.push(queueOf(sched(r).debugState(), 20).wrCoeff)
    }

    expect(seen).toContain(3000)
    expect(seen.slice(-5)).toEqual([30, 30, 30, 30, 30])
  })

  it('ends interactive raising after 120 000 sectors of service', () => {
    const r = makeRig(bfq, {}, { queueDepth: 1, completionUs: 100 })
    new Proc(r, pctx(1), { count: 1e9, depth: 8, sector: (i) => i * 72 })
    r.engine.run(50 * MS) // 500 reads × 64 = 32 000 sectors
    expect(queueOf(sched(r).debugState(), 1).wrCoeff).toBe(30)
    r.engine.run(300 * MS) // 3000 × 64 = 192 000 sectors
    expect(queueOf(sched(r).debugState(), 1).wrCoeff).toBe(1)
  })
})

describe('bfq: device idling (slice_idle)', () => {
  /** A dependent sequential reader (pid 1) with a think time, and a greedy reader (pid 2), on a disk. */
  function idlingRun(thinkNs: SimTime, tunables: Partial<ParamValues>) {
    const r = makeRig(
      bfq,
      { low_latency: false, ...tunables },
      { queueDepth: 1, completionUs: 1000, rotational: true },
    )
    const p1 = new Proc(r, pctx(1), { count: 20, depth: 1, thinkNs, sector: (i) => i * 72 })
    new Proc(r, pctx(2), { count: 1e9, depth: 16, sector: (i) => 5e7 + i * 72 })
    r.engine.run(80 * MS)
    return { r, p1, first2: r.dispatches.find((d) => d.pid === 2)?.t ?? Infinity }
  }

  it('keeps the disk idle for an emptied sync queue once it knows the disk queues one command', () => {
    // think time 3 ms < slice_idle 8 ms, 1 ms per read: the reader is idle 3/4 of the time, so it
    // is not I/O-bound (bfq_update_io_intensity); until hw_tag is known BFQ assumes the disk queues
    // commands and does not idle for it. Once 32 samples show the disk holds one command at a time
    // (hw_tag = 0), idling pays on a rotational disk whatever the queue: the reader keeps the disk.
    // The greedy reader starts at 50 ms, once the first reader's think time is known to be short
    // (a fresh queue's first samples count as long, and a long thinker may take its busy neighbour
    // for its waker).
    const r = makeRig(bfq, { low_latency: false }, { queueDepth: 1, completionUs: 1000, rotational: true })
    const p1 = new Proc(r, pctx(1), { count: 100, depth: 1, thinkNs: 3 * MS, sector: (i) => i * 72 })
    new Proc(r, pctx(2), { count: 1e9, depth: 16, sector: (i) => 5e7 + i * 72, startAt: 50 * MS })
    let known = -1
    for (let t = MS; t <= 400 * MS; t += MS) {
      r.engine.run(t)
      const s = sched(r).debugState()
      if (t === 60 * MS) {
        expect(s.hwTag).toBe(-1)
        expect(queueOf(s, 1).ioBound).toBe(false)
        expect(queueOf(s, 1).shortThinkTime).toBe(true)
      }
      if (known < 0 && s.hwTag === 0) known = t
    }
    expect(queueOf(sched(r).debugState(), 1).wakerPid).toBeNull()
    expect(known).toBeGreaterThan(60 * MS)
    // before detection the greedy reader ran between the first reader's requests
    const before = r.dispatches.filter((d) => d.t > 50 * MS && d.t < known)
    expect(before.some((d) => d.pid === 2)).toBe(true)
    // once the first reader is back in service, its reads follow each other every 4 ms, alone
    const back = r.dispatches.findIndex((d) => d.t > known && d.pid === 1)
    const later = r.dispatches.slice(back).filter((d) => d.t < r.dispatches[back].t + 100 * MS)
    expect(later.length).toBe(25)
    expect(later.every((d) => d.pid === 1)).toBe(true)
    for (let i = 1; i < later.length; i++) expect(later[i].t - later[i - 1].t).toBe(4 * MS)
    expect(p1.done).toBeGreaterThan(40)
  })

  it('idles at most slice_idle, then serves another queue', () => {
    // think time 20 ms: after the first read completes (1 ms) the disk idles 8 ms, then pid 2 runs
    expect(idlingRun(20 * MS, {}).first2).toBe(9 * MS)
    expect(idlingRun(20 * MS, { slice_idle: 3 }).first2).toBe(4 * MS)
    // slice_idle 0: no idling at all
    expect(idlingRun(20 * MS, { slice_idle: 0 }).first2).toBe(1 * MS)
  })

  it('idles only 2 ms for a seeky queue, and not at all on flash with command queueing', () => {
    const r = makeRig(bfq, { low_latency: false }, { queueDepth: 1, completionUs: 1000, rotational: true })
    // scattered reads, 3 ms apart: seeky (> 19 of the last 32 far apart) after the first 20; the
    // think time stays short (< slice_idle / 2), so the greedy reader is not taken for its waker
    new Proc(r, pctx(1), {
      count: 60,
      depth: 1,
      thinkNs: 3 * MS,
      sector: (i) => ((i * 7919) % 1000) * 100_000,
    })
    // the greedy reader comes once the first one's think time is known to be short
    new Proc(r, pctx(2), { count: 1e9, depth: 16, sector: (i) => 5e7 + i * 72, startAt: 50 * MS })
    r.engine.run(1500 * MS)
    expect(queueOf(sched(r).debugState(), 1).seeky).toBe(true)
    const seekyReads = r.dispatches.filter((d) => d.pid === 1).slice(21, -1)
    expect(seekyReads.length).toBeGreaterThan(10)
    for (const d1 of seekyReads) {
      const c1 = r.completions.find((c) => c.id === d1.id)!
      const next = r.dispatches.find((d) => d.t > c1.t)!
      expect(next.pid).toBe(2)
      expect(next.t - c1.t).toBe(2 * MS)
    }

    // flash taking 32 commands: the pattern of the first test, without idling
    const f = makeRig(bfq, { low_latency: false }, { queueDepth: 32, completionUs: 1000 })
    new Proc(f, pctx(1), { count: 20, depth: 1, thinkNs: 3 * MS, sector: (i) => i * 72 })
    new Proc(f, pctx(2), { count: 1e9, depth: 16, sector: (i) => 5e7 + i * 72 })
    f.engine.run(20 * MS)
    expect(f.dispatches.filter((d) => d.pid === 2 && d.t < 4 * MS).length).toBeGreaterThan(0)
  })
})

describe('bfq: tag depth limits (limit_depth)', () => {
  it('lets async writes take at most half of nr_requests, sync writes three quarters, sync reads all', () => {
    const r = makeRig(bfq, {}, { queueDepth: 1, completionUs: 10_000 })
    const s = sched(r)
    expect(s.limitDepth(WRITE, false)).toBe(64)
    expect(s.limitDepth(WRITE, true)).toBe(96)
    expect(s.limitDepth(READ, true)).toBeUndefined()
    // 100 scattered async writes at once: 64 get a request, the 65th waits
    let accepted = 0
    while (r.submit(accepted * 1000, 8, WRITE, ctx(1), false)) accepted++
    expect(accepted).toBe(64)
    // a sync read still gets a request
    expect(r.submit(9e7, 8, READ, ctx(2))).toBe(true)
  })

  it('cuts async to 3/16 and sync writes to 6/16 while a queue is weight-raised', () => {
    const r = makeRig(bfq, {}, { queueDepth: 1, completionUs: 10_000 })
    for (let i = 0; i < 4; i++) r.submit(9e7 + i * 1000, 8, READ, ctx(2)) // a new sync queue: raised
    r.engine.run(MS)
    const s = sched(r)
    expect(s.debugState().wrBusyQueues).toBe(1)
    expect(s.limitDepth(WRITE, false)).toBe(24)
    expect(s.limitDepth(WRITE, true)).toBe(48)
    let accepted = 0
    while (r.submit(accepted * 1000, 8, WRITE, ctx(1), false)) accepted++
    expect(accepted).toBe(24 - 4) // tags are shared: the 4 reads hold 4
  })
})

describe('bfq: next request within a queue', () => {
  function secondSector(tunables: Partial<ParamValues>): number {
    const r = makeRig(bfq, tunables, { queueDepth: 1, completionUs: 100 })
    r.submit(100_000, 8, READ, ctx(1))
    r.engine.run(1000) // dispatched; the head is at 100 008
    r.submit(101_000, 8, READ, ctx(1)) // 992 sectors ahead
    r.submit(99_600, 8, READ, ctx(1)) // 408 behind: counts 408 × back_seek_penalty
    r.engine.run()
    return r.dispatches[1].sector
  }

  it('takes a short backward seek at back_seek_penalty times its distance', () => {
    expect(secondSector({})).toBe(99_600) // 816 < 992
    expect(secondSector({ back_seek_penalty: 3 })).toBe(101_000) // 1224 > 992
    expect(secondSector({ back_seek_max: 100 })).toBe(101_000) // 408 sectors > 200: wraps
  })

  it('serves a request left behind the sweep once its FIFO deadline (fifo_expire_sync) passed', () => {
    const r = makeRig(bfq, { low_latency: false }, { queueDepth: 1, completionUs: 2000 })
    r.submit(5e7, 64, READ, ctx(1))
    r.engine.run(1000) // dispatched: the head is at 50 M
    r.submit(1000, 8, READ, ctx(1)) // far behind the head: never chosen by sector order
    for (let i = 1; i < 100; i++) r.submit(5e7 + i * 72, 64, READ, ctx(1))
    r.engine.run()
    const low = r.dispatches.findIndex((d) => d.sector === 1000)
    // the FIFO is looked at once per service slot; the slot times out at 125 ms (timeout_sync),
    // the next one starts with the expired request
    expect(r.dispatches[low].t).toBe(128 * MS)
    expect(low).toBe(64)
    // without the FIFO it would have waited for the 99 others: the sweep goes on after it
    expect(r.dispatches.slice(low + 1).every((d) => d.sector > 5e7)).toBe(true)
  })
})
