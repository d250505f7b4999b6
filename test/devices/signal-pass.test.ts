// A virtio host that serves its queue in passes and signals once per pass (devices/signal-pass.ts,
// Firecracker's process_queue): nothing of a pass completes before all of it has, so a small read
// that arrives behind a burst of large writes completes with the burst; one request alone is
// served as before.
import { describe, expect, it } from 'vitest'
import { Engine } from '../../src/shared/sim/engine'
import { Rng } from '../../src/shared/sim/rng'
import { READ, Request, WRITE } from '../../src/shared/block/types'
import type { Op } from '../../src/shared/block/types'
import { VirtualDevice } from '../../src/shared/devices/virtual'
import { VIRTUAL_PARAMS, virtualConfig } from '../../src/shared/devices/virtual-params'
import { resolveParams } from '../../src/shared/util/params'

function device(
  signalPerPass: boolean,
  sharedLanes = true,
  irqCompleteUs = 0,
  more: Record<string, unknown> = {},
) {
  const engine = new Engine()
  const issues: { path: string; message: string }[] = []
  const values = resolveParams(
    VIRTUAL_PARAMS,
    {
      readServiceUs: '0:50, 100:50',
      writeServiceUs: '0:50, 100:50',
      readContentionUs: 10,
      writeContentionUs: 10,
      writeMBps: 1000,
      pathThreads: 0,
      signalPerPass,
      sharedLanes,
      irqCompleteUs,
      ...more,
    },
    'device',
    issues,
  )
  expect(issues).toEqual([])
  const done = new Map<number, number>()
  const dev = new VirtualDevice(
    virtualConfig(values, 'v'),
    engine,
    { deviceCompleted: (rq: Request, now: number) => (dev.inFlight--, void done.set(rq.id, now)) } as never,
    new Rng(1),
  )
  let id = 0
  const start = (op: Op, kib: number, at: number): number => {
    const rq = new Request()
    rq.id = ++id
    rq.op = op
    rq.sector = id * 4096
    rq.nsect = kib * 2
    engine.at(at, { onEvent: () => dev.start(rq, engine.now) }, 0)
    return rq.id
  }
  return { engine, start, done }
}

describe('signalled once per pass', () => {
  it('serves a request alone in its own time, as without passes', () => {
    for (const pass of [false, true]) {
      const d = device(pass)
      const r = d.start(READ, 4, 0)
      d.engine.run()
      expect(d.done.get(r)).toBe(50_000)
    }
  })

  it('completes a read behind a burst of large writes only with the burst', () => {
    const times = (pass: boolean, sharedLanes = true) => {
      const d = device(pass, sharedLanes)
      const writes = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => d.start(WRITE, 512, i * 1000))
      const read = d.start(READ, 4, 10_000)
      d.engine.run()
      return { read: d.done.get(read)!, writes: writes.map((w) => d.done.get(w)!) }
    }
    const apart = times(false, false)
    const lined = times(false)
    const pass = times(true)
    // each request on its own: a read with a line of its own is answered in its service time,
    // one in the writes' line once their data has crossed; the writes complete one by one
    expect(apart.read).toBeLessThan(200_000)
    expect(lined.read).toBeGreaterThan(4_000_000)
    expect(new Set(lined.writes).size).toBe(8)
    // in a pass everything completes at once, when the host's thread has written all the data
    // (8 × 508 KiB at 1000 MB/s ≈ 4.2 ms)
    expect(new Set([pass.read, ...pass.writes]).size).toBe(1)
    expect(pass.read).toBeGreaterThan(4_000_000)
  })

  it('opens a new pass for a request that comes after the last one ended', () => {
    const d = device(true)
    const a = d.start(READ, 4, 0)
    const b = d.start(READ, 4, 1_000_000)
    d.engine.run()
    expect(d.done.get(a)).toBe(50_000)
    expect(d.done.get(b)).toBe(1_050_000)
  })

  it('takes a request placed in the ring during a pass in its turn, with no kick, and signals the pass once', () => {
    // 50 µs alone: 20 there, 10 at the thread, 20 back. The first reaches the thread at 20 µs and
    // keeps it to 30 µs; the second, placed in the ring at 25 µs, is popped in turn (30–40 µs)
    // without a way there of its own, and both come back with the pass's one interrupt.
    const d = device(true)
    const a = d.start(READ, 4, 0)
    const b = d.start(READ, 4, 25_000)
    d.engine.run()
    expect(d.done.get(a)).toBe(60_000)
    expect(d.done.get(b)).toBe(60_000)
  })

  it('completes a pass’s requests one after another, each the guest’s completion work after the last', () => {
    // as above, with a third request in the ring at 26 µs: the thread has them 20–50 µs and the
    // pass is signalled at 70 µs; the guest's block softirq then completes them in the host's
    // order, 1.3 µs each (virtual-params.ts irqCompleteUs)
    const d = device(true, true, 1.3)
    const a = d.start(READ, 4, 0)
    const b = d.start(READ, 4, 25_000)
    const c = d.start(READ, 4, 26_000)
    d.engine.run()
    expect([a, b, c].map((r) => d.done.get(r))).toEqual([71_300, 72_600, 73_900])
  })

  it('completes a pass’s writes to a backing file after its reads, as the dio kworker does', () => {
    // a loop device on a file (a backing queue under it): the softirq completes the reads of the
    // pass in their turn, 1.3 µs each, and takes a write's disk completion only (0.65 µs); the
    // kworker then completes the writes, 1 µs each (virtual-params.ts dioDoneUs)
    const loop = { backingScheduler: 'none', dioDoneUs: 1 }
    const d = device(true, true, 1.3, loop)
    const w = d.start(WRITE, 4, 0)
    const r1 = d.start(READ, 4, 25_000)
    const r2 = d.start(READ, 4, 26_000)
    d.engine.run()
    // the thread has them 20–50 µs and signals the pass at 70 µs
    expect([r1, r2, w].map((r) => d.done.get(r))).toEqual([71_950, 73_250, 74_250])
    // without the kworker's share, in the host's order
    const e = device(true, true, 1.3, { backingScheduler: 'none' })
    const ids = [e.start(WRITE, 4, 0), e.start(READ, 4, 25_000), e.start(READ, 4, 26_000)]
    e.engine.run()
    expect(ids.map((r) => e.done.get(r))).toEqual([71_300, 72_600, 73_900])
  })
})
