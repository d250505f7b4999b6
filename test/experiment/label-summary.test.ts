// The side-by-side table's rows: simulated, real and imported runs of one label are different
// rows, each carrying its source and tunables; IOPS per process; p95 of a simulated run from its
// histogram; a session saved before p95 was kept reads as "not measured".
import { describe, expect, it } from 'vitest'
import { currentSummary, summarizeRuns } from '../../src/shared/experiment/compare'
import type { RunResult } from '../../src/shared/experiment/result'
import { emptyRun, measuredProcess } from '../../src/shared/import/empty-run'
import { LatencyHistogram } from '../../src/shared/metrics/histogram'

function run(source: RunResult['source'], imported: boolean, label = 'deadline'): RunResult {
  const r = emptyRun({ label, tool: 'fio', file: 'x.json', scheduler: 'deadline', seconds: 4 })
  if (!imported) delete r.imported
  r.source = source
  r.tunables = { fifo_batch: 1 }
  const h = new LatencyHistogram()
  for (let i = 1; i <= 100; i++) h.record(i * 1_000_000)
  r.processes = [
    measuredProcess({
      name: 'job',
      pid: 1,
      readBytes: 4e6,
      writeBytes: 0,
      seconds: 4,
      ops: 1000,
      latency: h.toJSON(),
    }),
  ]
  return r
}

describe('summary rows', () => {
  it('keeps simulated, real and imported runs of one label apart, marked', () => {
    const rows = summarizeRuns([run('simulated', false), run('real', false), run('real', true)])
    expect(rows.map((r) => r.kind)).toEqual(['simulated', 'real', 'imported'])
    expect(rows[2].tool).toBe('fio')
    expect(rows[0].tool).toBeUndefined()
    expect(rows[0].tunables).toEqual({ fifo_batch: 1 })
  })

  it('gives each process its IOPS and p95 beside p50, p99 and p99.9', () => {
    const [row] = summarizeRuns([run('simulated', false)])
    const p = row.processes[0]
    expect(p.IOPS.mean).toBe(250)
    // 1 … 100 ms: nearest rank, to the bucket's upper edge (within 1/64)
    expect(p.latencyMs.p95.mean).toBeGreaterThanOrEqual(95)
    expect(p.latencyMs.p95.mean).toBeLessThan(95 * (1 + 1 / 64))
    expect(p.latencyMs.p50.mean).toBeLessThan(p.latencyMs.p95.mean)
    expect(p.latencyMs.p95.mean).toBeLessThan(p.latencyMs.p99.mean)
  })

  it('reads a run saved before p95 was kept as not measured, not 0', () => {
    const old = JSON.parse(JSON.stringify(run('simulated', false))) as RunResult
    delete (old.processes[0].latencyMs as Partial<RunResult['processes'][0]['latencyMs']>).p95
    const [row] = summarizeRuns([old])
    expect(row.processes[0].latencyMs.p95.mean).toBeNaN()
    expect(row.processes[0].latencyMs.p99.mean).toBeGreaterThan(0)
  })
})

describe('a result saved by an older version', () => {
  it('has its summary made again from its runs, with source, tunables, IOPS and p95', () => {
    const runs = [run('simulated', false)]
    const [fresh] = summarizeRuns(runs)
    const { kind: _kind, tunables: _tunables, ...old } = fresh
    const stale = [{ ...old, processes: old.processes.map(({ IOPS: _iops, ...p }) => p) }] as never
    expect(currentSummary({ summary: stale, runs })).toEqual([fresh])
    // one of this version's own is kept as it is
    const own = summarizeRuns(runs)
    expect(currentSummary({ summary: own, runs })).toBe(own)
  })
})
