import { describe, expect, it } from 'vitest'
import { groupProcesses, instanceSpreads } from '../../src/shared/experiment/process-groups'
import type { ProcessResult, RunResult } from '../../src/shared/experiment/result'
import { LatencyHistogram, summarizeLatency } from '../../src/shared/metrics/histogram'

/** A fio job's result: `ops` I/Os of 4 KiB in `seconds`, each taking `ms` (clat), slat/lat as fio gives them. */
function job(name: string, ops: number, seconds: number, ms: number, slatMean?: number): ProcessResult {
  const h = new LatencyHistogram()
  for (let i = 0; i < ops; i++) h.record(ms * 1e6)
  const stage = (mean: number, max: number) => ({ p50: 1, p90: 1, p95: 1, p99: 1, p999: 1, max, mean })
  return {
    name,
    pid: 1,
    bytes: ops * 4096,
    readBytes: ops * 4096,
    writeBytes: 0,
    seconds,
    MBps: (ops * 4096) / 1e6 / seconds,
    ops,
    finished: true,
    startSeconds: 0,
    cpuSeconds: 0,
    latencyMs: summarizeLatency(h),
    latency: h.toJSON(),
    ...(slatMean !== undefined
      ? { slatMs: stage(slatMean, slatMean * 3), latMs: stage(ms + slatMean, ms * 4) }
      : {}),
  }
}

const run = (processes: ProcessResult[]): RunResult => ({ label: 'none', processes }) as unknown as RunResult

describe('a process’s instances folded as fio’s group_reporting', () => {
  it('adds the instances’ I/O, takes the latency of all their I/Os, and slat/lat’s mean over them', () => {
    const r = run([
      job('RND4K Q32T16 read/0', 1000, 1, 0.5, 0.01),
      job('RND4K Q32T16 read/1', 3000, 1, 2, 0.03),
      job('SEQ1M Q1T1 read', 10, 1, 5),
    ])
    const g = groupProcesses(r)
    expect(g.processes.map((p) => p.name)).toEqual(['RND4K Q32T16 read', 'SEQ1M Q1T1 read'])
    const f = g.processes[0]
    expect(f.ops).toBe(4000)
    expect(f.MBps).toBeCloseTo((4000 * 4096) / 1e6, 6)
    // three quarters of the I/Os took 2 ms: the group's p50 is theirs, its max the slowest
    expect(f.latencyMs.p50).toBeCloseTo(2, 1)
    expect(f.latencyMs.max).toBeCloseTo(2, 1)
    // slat and lat have no histogram: the mean over every I/O, the largest max, no percentiles
    expect(f.slatMs?.mean).toBeCloseTo((1000 * 0.01 + 3000 * 0.03) / 4000, 9)
    expect(f.slatMs?.max).toBeCloseTo(0.09, 9)
    expect(f.slatMs?.p99).toBeNaN()
    expect(f.latMs?.max).toBeCloseTo(8, 9)
    // a process of one instance is left as it was
    expect(g.processes[1]).toBe(r.processes[2])
  })

  it('names a lone instance by its process, as the why’s stages do: a trace of one pid', () => {
    const r = run([job('queue/1000', 9, 0.1, 10), job('w', 10, 1, 1)])
    const g = groupProcesses(r)
    expect(g.processes.map((p) => [p.name, p.ops])).toEqual([
      ['queue', 9],
      ['w', 10],
    ])
    expect(groupProcesses(run([job('queue/1000', 9, 0.1, 10)])).processes.map((p) => p.name)).toEqual([
      'queue',
    ])
    // nothing to rename: the run as it was
    const plain = run([job('w', 10, 1, 1)])
    expect(groupProcesses(plain)).toBe(plain)
  })

  it('says how many instances a process has and how far apart they were', () => {
    const a = run([job('rr/0', 1000, 1, 1), job('rr/1', 500, 1, 1), job('w', 10, 1, 1)])
    const b = run([job('rr/0', 900, 1, 1), job('rr/1', 900, 1, 1)])
    const [s] = instanceSpreads([a, b])
    expect(instanceSpreads([a, b])).toHaveLength(1)
    expect(s).toMatchObject({ group: 'rr', instances: 2, spread: 0.5 })
    expect(s.minMBps).toBeCloseTo((500 * 4096) / 1e6, 9)
    expect(s.maxMBps).toBeCloseTo((1000 * 4096) / 1e6, 9)
    expect(instanceSpreads([b])[0].spread).toBe(0)
  })
})
