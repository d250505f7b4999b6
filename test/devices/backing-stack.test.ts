// The device under a loop device (devices/backing-stack.ts): what the loop hands down meets the
// backing disk's own scheduler and its virtio ring. Measured on this machine (ftrace, Linux 6.18,
// loop over ext4 over a Firecracker virtio disk under mq-deadline): a QD1 reader beside a QD4
// stream of 1 MiB direct writes waited ~3 ms in the disk's scheduler while ~15 writes went ahead
// — the ring held one or two 1 MiB writes, and mq-deadline went on with its write batch. Beside a QD1 or
// QD2 writer (the ring not full) the read went straight through.
import { describe, expect, it } from 'vitest'
import { simulate } from '../../src/shared/experiment/runner'
import { resolveSpec } from '../../src/shared/experiment/validate'
import { LatencyHistogram } from '../../src/shared/metrics/histogram'
import type { ParamValues } from '../../src/shared/util/params'
import { Request, WRITE } from '../../src/shared/block/types'
import { BackingStack } from '../../src/shared/devices/backing-stack'
import { backingConfig } from '../../src/shared/devices/backing-params'
import { Engine } from '../../src/shared/sim/engine'
import { Rng } from '../../src/shared/sim/rng'
import { job } from '../../src/shared/validate/matrix'

const BACKED = {
  backingScheduler: 'mq-deadline',
  backingTunables: 'batch_rule=6.8',
  ringSlots: 256,
  segmentKiB: '0:10, 100:10',
}

function spec(writerDepth: number, overrides: ParamValues) {
  const fio = (rw: string, bs: string, iodepth: number) => ({
    ...job(rw, bs, iodepth),
    size: '64M',
    time_based: true,
    runtime: 1,
  })
  return resolveSpec({
    device: {
      preset: 'loop-dio-virtio',
      overrides: {
        readServiceUs: '0:40, 100:60',
        writeServiceUs: '0:50, 100:70',
        readContentionUs: 15,
        writeContentionUs: 12,
        writeMBps: 3300,
        pathUs: 0,
        pathThreads: 0,
        // each request signalled on its own: the ring and the disk's scheduler alone (passes: signal-pass.test.ts)
        signalPerPass: false,
        ...overrides,
      },
    },
    workload: {
      processes: [
        { name: 'reader', type: 'fio', params: fio('randread', '4k', 1) },
        { name: 'writer', type: 'fio', params: fio('write', '1M', writerDepth) },
      ],
    },
    schedulers: ['none'],
  })
}

/** The reader's median latency (ms) and the writer's MB/s. */
function run(writerDepth: number, overrides: ParamValues, repetition = 0) {
  const r = simulate(spec(writerDepth, overrides), 0, repetition)
  const [reader, writer] = r.processes
  return {
    readerP50: LatencyHistogram.fromJSON(reader.latency).percentile(50) / 1e6,
    writerMBps: writer.MBps,
  }
}

describe('backing stack: the disk under a loop device', () => {
  it('holds a read behind a write batch once a QD4 stream of 1 MiB writes fills the ring', () => {
    const opaque = run(4, { ringSlots: 0 }) // no ring bound: indirect descriptors
    const backed = run(4, BACKED)
    expect(opaque.readerP50).toBeLessThan(1.5)
    // a batch of 16 writes of 1 MiB at 3.3 GB/s is ~5 ms; the read joins one under way
    expect(backed.readerP50).toBeGreaterThan(3)
    // the writes keep the link busy either way
    expect(backed.writerMBps).toBeGreaterThan(0.8 * opaque.writerMBps)
  })

  it('lets the read through where the ring has room: a QD1 writer, or a ring with indirect descriptors', () => {
    expect(run(1, BACKED).readerP50).toBeLessThan(1)
    expect(run(4, { ...BACKED, ringSlots: 0 }).readerP50).toBeLessThan(1.5)
  })

  it('the 5.16 batch rule ends a batch when no write is queued at the moment one leaves', () => {
    const old = run(4, { ...BACKED, backingTunables: 'batch_rule=5.16' })
    expect(old.readerP50).toBeLessThan(run(4, BACKED).readerP50 / 2)
  })

  it('draws the buffers’ contiguity once per run: with long segments the ring holds the whole stream', () => {
    // the two modes measured here: ~10 KiB segments (two 1 MiB writes fill the ring) or long ones
    const modes = { ...BACKED, segmentKiB: '0:10, 50:10, 50.01:64, 100:64' }
    const p50s = Array.from({ length: 8 }, (_, i) => run(4, modes, i).readerP50)
    expect(p50s.filter((ms) => ms > 3).length).toBeGreaterThan(0)
    expect(p50s.filter((ms) => ms < 1.5).length).toBeGreaterThan(0)
    expect(run(4, { ...BACKED, segmentKiB: '0:64, 100:64' }).readerP50).toBeLessThan(1.5)
  })

  it('with a host that signals per pass, holds the read only where the ring takes one write at a time', () => {
    const passes = { ...BACKED, signalPerPass: true }
    // ~10 KiB segments: two 1 MiB writes fit (105 descriptors each); a pass frees both, the
    // queued ones go, and the read finds mq-deadline without a next write
    expect(run(4, passes).readerP50).toBeLessThan(1.5)
    // 8 KiB: 130 descriptors each, one at a time — a write is always queued, the batch runs its
    // 16 (traced on this machine: each write completed alone, the read waited 3.95 ms)
    expect(run(4, { ...passes, segmentKiB: '0:8, 100:8' }).readerP50).toBeGreaterThan(3)
  })

  it('on this machine’s preset, holds the read behind a batch in most runs and lets it through in some', () => {
    // the preset's own buffers (segmentKiB): measured slow in 74 % of the runs, fast in the rest
    const p50s = Array.from({ length: 8 }, (_, i) => run(4, { signalPerPass: true }, i).readerP50)
    expect(p50s.filter((ms) => ms > 3).length).toBeGreaterThanOrEqual(4)
    expect(p50s.filter((ms) => ms < 1.5).length).toBeGreaterThan(0)
  })

  it('on this machine’s preset, a slow run splits each 1 MiB write at the loop’s 128 one-page segments', () => {
    // traced 2026-12-06: all 18 164 loop writes of the QD4 1 MiB writer were 512 KiB, and the read
    // waited 3.1 ms for 16 of them; segments of 8 KiB had made them 1 MiB and the batch twice as long
    const kib = Array.from({ length: 8 }, (_, i) => {
      const r = simulate(spec(4, { signalPerPass: true }), 0, i)
      return r.totals.meanRequestKiB
    })
    const slow = kib.filter((k) => k < 520)
    expect(slow.length).toBeGreaterThanOrEqual(4)
    for (const k of slow) expect(k).toBeGreaterThan(480)
  })

  it('is deterministic', () => {
    expect(run(4, BACKED)).toEqual(run(4, BACKED))
  })

  it('says which backing tunable is wrong, and where', () => {
    expect(() => spec(4, { ...BACKED, backingTunables: 'fifo_batch=sixteen' })).toThrow(
      /device\.overrides\.backingTunables\.fifo_batch/,
    )
    expect(() => spec(4, { ...BACKED, backingTunables: 'no equals sign' })).toThrow(/expected "name=value"/)
    expect(() => spec(4, { ...BACKED, backingScheduler: 'cfq' })).toThrow(/backingScheduler/)
  })
})

describe('backing stack: merges at the disk below', () => {
  const UPPER = {
    name: 'loop',
    capacitySectors: 1 << 30,
    rotational: true,
    queueDepth: 128,
    maxTransferSectors: 2048,
  }
  /** A backing stack whose service takes 1 ms per request; `served` gets each request's KiB. */
  function stackOf(served: number[], inFlight: number[] = []): { stack: BackingStack; engine: Engine } {
    const engine = new Engine()
    const cfg = backingConfig(
      {
        backingScheduler: 'mq-deadline',
        backingTunables: '',
        backingRotational: true,
        backingNrRequests: 256,
        backingQueueDepth: 128,
        backingMaxTransferKiB: 4096,
        ringSlots: 256,
      },
      [],
      '',
    )!
    const stack: BackingStack = new BackingStack(
      cfg,
      engine,
      new Rng(1),
      250,
      10 * 1024,
      2048 * 1024,
      { ...UPPER, pageMaxSectors: 1024 },
      (rq, now) => {
        served.push(rq.nsect / 2)
        inFlight.push(stack.inFlight)
        engine.at(now + 1_000_000, { onEvent: () => stack.served(rq, engine.now) }, 0)
      },
      () => {},
    )
    return { stack, engine }
  }

  /** `n` contiguous upper writes of `kib` each, handed down at once. */
  function writes(stack: BackingStack, n: number, kib: number, pages: boolean): void {
    for (let i = 0; i < n; i++) {
      const rq = new Request()
      rq.sector = i * kib * 2
      rq.nsect = kib * 2
      rq.op = WRITE
      rq.pages = pages
      stack.submit(rq)
    }
  }

  it('merge the loop’s writes, never past the segments one ring holds', () => {
    const served: number[] = []
    const { stack, engine } = stackOf(served)
    // 64 contiguous 1 MiB direct writes (a process's buffers: segments of 10 KiB)
    writes(stack, 64, 1024, false)
    engine.run()
    expect(served.reduce((a, b) => a + b, 0)).toBe(64 * 1024)
    // (256 − 2) segments of 10 KiB: 2540 KiB; requests did merge beyond one 1 MiB write
    expect(Math.max(...served)).toBeLessThanOrEqual(2540)
    expect(Math.max(...served)).toBeGreaterThan(1024)
  })

  it('page-cache writes count a segment per page toward merges, and a descriptor per folio in the ring', () => {
    const served: number[] = []
    const inFlight: number[] = []
    const { stack, engine } = stackOf(served, inFlight)
    // 128 contiguous 512 KiB writeback requests (128 one-page segments each, as the loop made them)
    writes(stack, 128, 512, true)
    engine.run()
    // 128 + 128 pages exceed the 254 segments a request may have: none merged (measured: none did)
    expect(served.every((k) => k === 512)).toBe(true)
    // each maps to one contiguous run (a folio): 3 descriptors, so 85 fit the 256-slot ring at once
    expect(Math.max(...inFlight)).toBe(85)
  })
})
