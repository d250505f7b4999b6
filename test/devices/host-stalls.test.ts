// The host's stalls under load (devices/host-stalls.ts): a virtual device whose host thread is
// kept busy stops now and then, and every request in flight completes that much later — the tail
// of a deep queue — while a device served one request at a time never runs up the debt. The stalls
// are the host's: the depth law and the lanes both have them.
import { describe, expect, it } from 'vitest'
import { simulate } from '../../src/shared/experiment/runner'
import { resolveSpec } from '../../src/shared/experiment/validate'
import { LatencyHistogram } from '../../src/shared/metrics/histogram'
import type { ParamValues } from '../../src/shared/util/params'
import { LOOP_LANES } from '../helpers/loop-lanes'

/** The two structures of the virtual model (devices/virtual.ts), serving 4 KiB reads in 40–60 µs. */
const STRUCTURES: [string, ParamValues][] = [
  ['the depth law', { readContentionUs: 15, writeContentionUs: 12 }],
  ['lanes', { readContentionUs: 0, writeContentionUs: 0, readParallel: 3.5, writeParallel: 3.5 }],
]

function run(depth: number, overrides: ParamValues, seconds = 2, structure = STRUCTURES[0][1]) {
  const p = simulate(
    resolveSpec({
      device: {
        preset: 'loop-dio-virtio',
        overrides: {
          ...LOOP_LANES,
          readServiceUs: '0:40, 100:60',
          ...structure,
          pathUs: 0,
          pathThreads: 0,
          ...overrides,
        },
      },
      workload: {
        processes: [
          {
            name: 'r',
            type: 'fio',
            params: {
              rw: 'randread',
              bs: '4k',
              iodepth: depth,
              ioengine: depth > 1 ? 'libaio' : 'psync',
              direct: true,
              filename: '/dev',
              size: '64M',
              time_based: true,
              runtime: seconds,
            },
          },
        ],
      },
      schedulers: ['none'],
    }),
    0,
    0,
  ).processes[0]
  const h = LatencyHistogram.fromJSON(p.latency)
  return { iops: p.ops / p.seconds, h, ops: p.ops }
}

/** The share of requests that took longer than `ms`. */
function beyond(h: LatencyHistogram, ms: number): number {
  return 1 - h.fractionAtMost(ms * 1e6)
}

const STALLS = { stallEveryMs: 40, stallMs: '0:2, 100:2' }

describe.each(STRUCTURES)('stalls of the host under load (%s)', (_, structure) => {
  it('a deep queue has a tail of stalled requests, each about a stall beyond the median', () => {
    const plain = run(32, {}, 2, structure)
    const stalled = run(32, STALLS, 2, structure)
    // the drawn service times alone put nothing 1.5 ms beyond the median
    expect(beyond(plain.h, 2)).toBe(0)
    // busy throughout: a 2 ms stall every ~42 ms, each holding back the 32 requests in flight
    // and those that would have completed meanwhile — about 1.5 % of them
    const share = beyond(stalled.h, plain.h.percentile(50) / 1e6 + 1.5)
    expect(share).toBeGreaterThan(0.005)
    expect(share).toBeLessThan(0.04)
    expect(stalled.h.max / 1e6).toBeGreaterThan(2)
    expect(stalled.h.max / 1e6).toBeLessThan(2 + (3 * plain.h.max) / 1e6)
    // the median stays: the host is away 2 ms in 42
    expect(stalled.h.percentile(50)).toBeLessThan(plain.h.percentile(50) * 1.1)
    expect(stalled.iops).toBeLessThan(plain.iops)
    expect(stalled.iops).toBeGreaterThan(plain.iops * 0.9)
  })

  it('one request at a time leaves the host thread idle most of the time: no stalls', () => {
    const plain = run(1, {}, 2, structure)
    const stalled = run(1, STALLS, 2, structure)
    expect(stalled.ops).toBe(plain.ops)
    expect(stalled.h.max).toBe(plain.h.max)
  })

  it('stalls less often the more idle time pays the busy time back', () => {
    const at = (depth: number) => beyond(run(depth, STALLS, 2, structure).h, 1.5)
    const q32 = at(32)
    const q4 = at(4)
    expect(q4).toBeLessThan(q32)
  })

  it('the same spec and seed give the same stalls', () => {
    const a = run(32, { stallEveryMs: 30, stallMs: '0:1, 50:2, 100:4' }, 0.5, structure)
    const b = run(32, { stallEveryMs: 30, stallMs: '0:1, 50:2, 100:4' }, 0.5, structure)
    expect(b.h.toJSON()).toEqual(a.h.toJSON())
  })
})
