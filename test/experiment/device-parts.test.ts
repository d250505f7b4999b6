import { afterEach, describe, expect, it, vi } from 'vitest'
import { BlockQueue } from '../../src/shared/block/queue'
import { resolveSpec } from '../../src/shared/experiment/validate'
import { simulate } from '../../src/shared/experiment/runner'
import type { RunResult } from '../../src/shared/experiment/result'
import type { RequestRecord } from '../../src/shared/experiment/request-tap'
import { expectRequestsAddUp } from '../helpers/requests-add-up'
import type { ProcessStages } from '../../src/shared/metrics/why'
import { LOOP_LANES } from '../helpers/loop-lanes'

// Issue 14: each request's device time (D2C) split into the device model's physical parts.

type Params = Record<string, unknown>

const fio = (name: string, rw: string, bs: string, extra: Params = {}): Params => ({
  name,
  type: 'fio',
  params: { rw, bs, iodepth: 4, ioengine: 'libaio', direct: true, size: '4m', ...extra },
})

/** Reads and writes, random and sequential, small and large: every kind of request a device sees. */
const MIXED = [
  fio('rr', 'randread', '4k'),
  fio('sr', 'read', '64k', { size: '16m' }),
  fio('rw', 'randwrite', '4k'),
  fio('sw', 'write', '128k', { size: '16m' }),
]

function spec(
  preset: string,
  overrides: Params,
  processes: Params[],
  maxSeconds = 5,
): ReturnType<typeof resolveSpec> {
  return resolveSpec({
    name: `parts-${preset}`,
    device: { preset, overrides },
    workload: { processes, stop: { maxSeconds } },
    schedulers: ['mq-deadline'],
  })
}

const proc = (r: RunResult, name: string): ProcessStages => r.why!.processes.find((p) => p.process === name)!
/** A part's mean per request, µs. */
const mean = (p: ProcessStages, part: string): number => p.device![part] / p.requests / 1000

/**
 * The run of `s`'s first scheduler, checked request by request: each request's stages add up to its
 * Q2C and its parts to its D2C (within rounding, 1 ns), and they are the run's (requests-add-up.ts).
 */
function checked(s: ReturnType<typeof resolveSpec>, i: number): RunResult {
  const records: RequestRecord[] = []
  const r = simulate(s, i, 0, { requests: (x) => records.push(x) })
  expect(r.why!.processes.length).toBeGreaterThan(0)
  for (const p of r.why!.processes) expect(p.requests).toBeGreaterThan(0)
  expectRequestsAddUp(r, records)
  return r
}

describe('device parts of D2C', () => {
  it('hdd: a mixed workload’s parts add up; random reads seek and wait for the platter, sequential ones hardly seek', () => {
    const mixed = checked(spec('hdd-7200-sata', {}, MIXED), 0)
    expect(mean(proc(mixed, 'sw'), 'write cache')).toBeGreaterThan(0)
    expect(mean(proc(mixed, 'sr'), 'read buffer')).toBeGreaterThan(0)
    const timed = { size: '1g', time_based: true, runtime: 1 }
    const random = checked(spec('hdd-7200-sata', {}, [fio('rr', 'randread', '4k', timed)], 2), 0)
    const sequential = checked(spec('hdd-7200-sata', {}, [fio('sr', 'read', '4k', timed)], 2), 0)
    const rr = proc(random, 'rr')
    const sr = proc(sequential, 'sr')
    expect(mean(rr, 'seek')).toBeGreaterThan(1000) // ms-scale seeks over a GiB
    expect(mean(rr, 'rotation')).toBeGreaterThan(1000) // half a turn at 7200 rpm ≈ 4.2 ms
    expect(mean(rr, 'media transfer')).toBeGreaterThan(0)
    expect(mean(sr, 'seek')).toBeLessThan(mean(rr, 'seek') / 20)
  })

  it('hdd: without a write cache, writes seek and settle; a queue of them waits in the drive (NCQ)', () => {
    const r = checked(
      spec('hdd-7200-sata', { writeCacheKiB: 0 }, [fio('rw', 'randwrite', '4k', { size: '1g' })], 1),
      0,
    )
    const w = proc(r, 'rw')
    expect(mean(w, 'write settle')).toBeGreaterThan(0)
    expect(mean(w, 'queued')).toBeGreaterThan(0)
    expect(w.device!['write cache']).toBe(0)
  })

  it('flash (SATA SSD, NVMe): a mixed workload’s parts add up, reads show array, channel and host link time', () => {
    for (const preset of ['ssd-sata-mlc', 'nvme-tlc']) {
      const r = checked(spec(preset, {}, MIXED), 0)
      const rr = proc(r, 'rr')
      for (const part of ['command overhead', 'array', 'channel transfer', 'host transfer'])
        expect(mean(rr, part), `${preset} ${part}`).toBeGreaterThan(0)
    }
  })

  it('flash: reads retried on a worn drive, and reads the host link holds up, add up', () => {
    // both paths a read's parts are told along (flash-parts.ts takeFlashParts): the die's work with
    // read retries after it, and the host link's earlier transfers after its first page
    const worn = { readRetryPct: 30, readRetryMax: 3 }
    const r = checked(
      spec('ssd-sata-mlc', worn, [
        fio('rr', 'randread', '4k', { iodepth: 32 }),
        fio('sr', 'read', '256k', { iodepth: 32, size: '64m' }),
      ]),
      0,
    )
    expect(mean(proc(r, 'rr'), 'read retry')).toBeGreaterThan(0)
    expect(mean(proc(r, 'sr'), 'waiting for the host link')).toBeGreaterThan(0)
    expect(mean(proc(r, 'sr'), 'array')).toBeGreaterThan(0)
  })

  it('flash: random writes on a full drive without a write buffer pay for garbage collection', () => {
    const full = { writeBufferKiB: 0, initialFreePct: 5 }
    const r = checked(spec('ssd-sata-mlc', full, [fio('rw', 'randwrite', '4k', { size: '64m' })], 1), 0)
    const w = proc(r, 'rw')
    expect(mean(w, 'garbage collection')).toBeGreaterThan(0)
    expect(mean(w, 'array')).toBeGreaterThan(0)
    // with free space to spare, none
    const fresh = checked(spec('ssd-sata-mlc', { writeBufferKiB: 0 }, [fio('rw', 'randwrite', '4k')], 1), 0)
    expect(proc(fresh, 'rw').device!['garbage collection']).toBe(0)
  })

  it('flash: partial mapping units are read-modify-writes, a block-mapped card erases', () => {
    const emmc = checked(spec('emmc-4.5', {}, [fio('rw', 'randwrite', '4k', { iodepth: 1 })], 2), 0)
    expect(mean(proc(emmc, 'rw'), 'read-modify-write')).toBeGreaterThan(0)
    const cf = checked(
      spec('cf-2006-100x', {}, [fio('rw', 'randwrite', '4k', { iodepth: 1, size: '1m' })], 2),
      0,
    )
    expect(mean(proc(cf, 'rw'), 'erase')).toBeGreaterThan(0)
  })

  it('flash: a write buffer takes writes at the host link’s speed', () => {
    const r = checked(spec('ssd-sata-mlc', {}, [fio('sw', 'write', '128k', { size: '16m' })]), 0)
    const w = proc(r, 'sw')
    expect(w.device!.array).toBe(0)
    expect(mean(w, 'host transfer')).toBeGreaterThan(0)
  })

  it('virtual (loop over virtio): the host path, the backing queue, the lanes and the link', () => {
    const r = checked(
      spec('loop-dio-virtio', LOOP_LANES, [
        fio('rr', 'randread', '4k', { size: '8m' }),
        fio('sw', 'write', '1m', { iodepth: 32, size: '256m' }),
      ]),
      0,
    )
    const rr = proc(r, 'rr')
    const sw = proc(r, 'sw')
    for (const part of ['host path', 'backing queue', 'service'])
      expect(mean(rr, part), part).toBeGreaterThan(0)
    expect(mean(sw, 'link transfer')).toBeGreaterThan(0)
  })

  it('virtual in contention mode, with and without signals per pass', () => {
    const contention = { readContentionUs: 14, writeContentionUs: 20, stallEveryMs: 1 }
    const plain = checked(
      spec('loop-dio-virtio', { ...LOOP_LANES, ...contention, signalPerPass: false }, MIXED),
      0,
    )
    const rr = proc(plain, 'rr')
    for (const part of ['service', 'contention', 'host stall'])
      expect(mean(rr, part), part).toBeGreaterThan(0)
    const passes = checked(spec('loop-dio-virtio', { ...LOOP_LANES, ...contention }, MIXED), 0)
    const pr = proc(passes, 'rr')
    for (const part of ['signalling', 'host thread', 'waiting for the pass'])
      expect(mean(pr, part), part).toBeGreaterThan(0)
  })

  it('nullblk: its completion time and its transfer', () => {
    const r = checked(spec('nullblk', { completionUs: 10, bandwidthMBps: 1000 }, MIXED), 0)
    for (const p of r.why!.processes) expect(p.device!['completion time']).toBe(p.requests * 10_000)
    expect(mean(proc(r, 'sw'), 'transfer')).toBeCloseTo(131.072, 0)
  })
})

describe('device parts cost nothing without the why', () => {
  afterEach(() => vi.restoreAllMocks())

  it.each([
    ['hdd-7200-sata', {}],
    ['ssd-sata-mlc', {}],
    ['loop-dio-virtio', LOOP_LANES],
    ['loop-dio-virtio', { ...LOOP_LANES, readContentionUs: 14, writeContentionUs: 20 }],
    ['nullblk', {}],
  ])('%s %j: the rest of the result is the same with and without; the why is deterministic', (preset, o) => {
    const s = spec(preset, o, MIXED, 2)
    // requests carry parts for the device to fill only when the run keeps them
    const done = vi.spyOn(BlockQueue.prototype, 'deviceCompleted')
    const carried = (): number => done.mock.calls.filter(([rq]) => rq.devParts !== null).length
    const a = simulate(s, 0)
    expect(carried()).toBeGreaterThan(0)
    done.mockClear()
    const without = simulate(s, 0, 0, { why: false })
    expect(done).toHaveBeenCalled()
    expect(carried()).toBe(0)
    expect(without.why).toBeUndefined()
    expect(JSON.stringify({ ...a, why: undefined })).toBe(JSON.stringify(without))
    expect(JSON.stringify(simulate(s, 0).why)).toBe(JSON.stringify(a.why))
  })
})
