import { describe, expect, it } from 'vitest'
import { ImportError } from '../../src/shared/formats/import-error'
import { LatencyHistogram } from '../../src/shared/metrics/histogram'
import { importText } from '../../src/shared/import/import-text'
import { validateSpec } from '../../src/shared/experiment/validate'
import { BLKPARSE } from './fixtures'
import { thrown } from './tools'

describe('blkparse import', () => {
  const f = importText(BLKPARSE, 'trace.txt')
  const { run } = f.runs[0]

  it('is a run: a process per pid, Q→C latencies, D→C service times measured', () => {
    expect(f.format).toBe('blkparse')
    expect(run.processes.map((p) => [p.name, p.pid, p.readBytes, p.writeBytes, p.ops])).toEqual([
      ['kjournald', 697, 0, 4096, 1],
      ['cat', 1234, 2 * 256 * 512, 0, 2],
    ])
    const svc = LatencyHistogram.fromJSON(run.measuredServiceLatency!)
    expect(svc.count).toBe(3)
    expect(svc.min).toBe(3_000_000)
    expect(svc.max).toBe(8_500_000)
    expect(run.serviceLatency).toEqual(run.measuredServiceLatency)
    const cat = LatencyHistogram.fromJSON(run.processes[1].latency)
    expect(cat.max).toBe(8_510_000)
    expect(run.totals).toMatchObject({ requests: 3, readBytes: 2 * 256 * 512, writeBytes: 4096 })
    expect(run.dispatches.sector).toEqual([223490, 1000, 1256])
    // 223490+8, then 1000 (a seek), then 1256 (where 1000+256 ended: no seek)
    expect(run.totals.seeks).toBe(1)
    expect(run.timeSeries.tMs.length).toBeGreaterThan(0)
    expect(run.seconds).toBeCloseTo(0.01301, 9)
  })

  it('replays as the trace-replay workload', () => {
    expect(f.workload).toEqual({ name: 'trace', type: 'trace-replay', params: { trace: BLKPARSE } })
    const v = validateSpec({
      device: { preset: 'hdd-2003-ide' },
      workload: { processes: [f.workload] },
      schedulers: ['deadline'],
    })
    expect(v.ok).toBe(true)
  })

  it('names the line of a malformed event', () => {
    const e = thrown(() => importText('  8,0 1 1 0.1 42 Q R banana\n', 'bad.trace')) as ImportError
    expect(e).toBeInstanceOf(ImportError)
    expect(e.describe()).toBe(
      'bad.trace: line 1, field event: expected "sector + nsectors" after "Q R", got "banana"',
    )
  })
})
