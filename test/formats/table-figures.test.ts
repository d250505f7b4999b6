// The figures the comparison table reads from imported runs: fio's IOPS and percentiles (p95 and
// p99.9 from json+ bins, or fio's own from plain JSON), bonnie++'s rates per test as phases whose
// rates are the CSV's, and nothing made up where a tool did not measure (NaN, never 0).
import { describe, expect, it } from 'vitest'
import { summarizeRuns } from '../../src/shared/experiment/compare'
import { importText } from '../../src/shared/import/import-text'
import { phaseRate } from '../../src/shared/metrics/phase-rate'
import { BONNIE_103, FIO_MINI, FIO_STAGES } from './fixtures'

describe('fio: IOPS and percentiles', () => {
  it('gives each job its IOPS and p95 and p99.9 from the json+ bins', () => {
    const [{ run }] = importText(FIO_MINI, 'mini.json').runs
    const [row] = summarizeRuns([run])
    expect(row.kind).toBe('imported')
    expect(row.tool).toBe('fio')
    const reader = row.processes.find((p) => p.name === 'reader')!
    expect(reader.IOPS.mean).toBe(1024)
    // a quarter of the I/Os in the bin at 897 µs: p95 and p99.9 there (clamped to fio's max, 900 µs)
    expect(reader.latencyMs.p95.mean).toBe(0.9)
    expect(reader.latencyMs.p999.mean).toBe(0.9)
    expect(reader.latencyMs.p50.mean).toBeLessThan(0.31)
    expect(row.device.readIops.mean).toBe(1024)
    expect(row.device.writeIops.mean).toBe(512)
  })

  it('takes fio’s own p95 from plain JSON (no bins), and says not measured where it printed none', () => {
    const doc = JSON.parse(FIO_MINI)
    for (const j of doc.jobs)
      for (const d of ['read', 'write', 'trim']) {
        delete j[d].clat_ns.bins
        j[d].clat_ns.percentile['95.000000'] = 700000
      }
    delete doc.jobs[1].write.clat_ns.percentile['99.900000']
    const [{ run }] = importText(JSON.stringify(doc), 'plain.json').runs
    const [reader, writer] = run.processes
    expect(reader.latencyMs.p95).toBe(0.7)
    expect(reader.latencyMs.p999).toBe(0.88)
    expect(writer.latencyMs.p999).toBeNaN()
    // through JSON (the lab's API, a saved session) NaN is null: still not measured, not 0
    const [row] = summarizeRuns([JSON.parse(JSON.stringify(run))])
    expect(row.processes[1].latencyMs.p999.mean).toBeNaN()
    expect(row.processes[1].latencyMs.p95.mean).toBe(0.7)
  })
})

describe('bonnie++: its own figures per test', () => {
  it('makes phases whose rates are the CSV’s K/sec, seeks/s and creates/s', () => {
    const [first] = importText(BONNIE_103, 'bonnie.csv').runs
    const rates = Object.fromEntries(first.run.processes[0].phases!.map((p) => [p.name, phaseRate(p)]))
    // ide2003,496M,10386,96,25497,15,9836,8,10064,91,28498,10,202.5,1,16,1043,98,+++++,…,1128,98,+++++,+++,3737,96
    expect(rates.putc).toMatchObject({ title: 'out per chr', unit: 'K/s' })
    expect(rates.putc.value).toBeCloseTo(10386, 9)
    expect(rates.put_block.value).toBeCloseTo(25497, 9)
    expect(rates.rewrite.value).toBeCloseTo(9836, 9)
    expect(rates.getc.value).toBeCloseTo(10064, 9)
    expect(rates.get_block.value).toBeCloseTo(28498, 9)
    expect(rates.seeks).toMatchObject({ title: 'seeks', unit: '/s' })
    expect(rates.seeks.value).toBeCloseTo(202.5, 9)
    expect(rates.seq_create).toMatchObject({ title: 'seq create', unit: '/s' })
    expect(rates.seq_create.value).toBeCloseTo(1043, 9)
    expect(rates.ran_create.value).toBeCloseTo(1128, 9)
    expect(rates.ran_del.value).toBeCloseTo(3737, 9)
    expect(rates.seq_stat).toBeUndefined()
  })

  it('summarises the lines as repetitions, phase by phase; IOPS of its own calls, no device IOPS', () => {
    const runs = importText(BONNIE_103, 'bonnie.csv').runs.map((r) => r.run)
    const [row] = summarizeRuns(runs)
    expect(row.repetitions).toBe(2)
    const phases = row.processes[0].phases!
    const seeks = phases.find((p) => p.name === 'seeks')!
    expect(seeks.rate.n).toBe(2)
    expect(seeks.rate.mean).toBeCloseTo((202.5 + 198.7) / 2, 9)
    // bonnie++ counts no device operations: its bytes moved, its IOPS not measured — not 0
    expect(runs[0].totals.readBytes).toBeGreaterThan(0)
    expect(row.device.readIops.mean).toBeNaN()
    expect(row.device.writeIops.mean).toBeNaN()
    // nor did it watch the device: busy and seeks not measured (fio's disk_util fills busy)
    expect(row.device.utilisation.mean).toBeNaN()
    expect(row.device.meanSeekSectors.mean).toBeNaN()
    const [fio] = summarizeRuns(importText(FIO_MINI, 'mini.json').runs.map((r) => r.run))
    expect(fio.device.utilisation.mean).toBe(0.975)
    // its own calls (putc per character, a block per chunk, seeks) per second of the run
    const p = runs[0].processes[0]
    expect(row.processes[0].IOPS.mean).toBeCloseTo(
      (p.ops / p.seconds + runs[1].processes[0].ops / runs[1].seconds) / 2,
      6,
    )
    // bonnie++ 1.03 reports no latencies: not measured, never 0
    expect(row.processes[0].latencyMs.p95.mean).toBeNaN()
  })

  it('counts a phase that took no time as not measured', () => {
    expect(phaseRate({ name: 'put_block', bytes: 1024, ops: 1, seconds: 0, cpuSeconds: 0 }).value).toBeNaN()
    expect(phaseRate({ name: 'anything', bytes: 0, ops: 10, seconds: 2, cpuSeconds: 0 })).toMatchObject({
      title: 'anything',
      unit: '/s',
      value: 5,
    })
  })
})

describe('fio: submission (slat) and total (lat) latency beside clat', () => {
  it('keeps fio’s slat and lat, their percentiles only where fio printed them', () => {
    const [{ run }] = importText(FIO_STAGES, 'stages.json').runs
    const reader = run.processes[0]
    expect(reader.slatMs).toMatchObject({ mean: 0.004, max: 0.052 })
    expect(reader.slatMs!.p95).toBeNaN()
    expect(reader.latMs).toMatchObject({ p50: 0.29, p95: 0.91, p999: 0.94, max: 0.95, mean: 0.304 })
    expect(reader.latMs!.p99).toBeNaN()
    const [row] = summarizeRuns([JSON.parse(JSON.stringify(run))])
    expect(row.processes[0].latMs!.p95.mean).toBe(0.91)
    expect(row.processes[0].slatMs!.p95.mean).toBeNaN()
  })

  it('leaves them out where the report has none (and so do simulated runs)', () => {
    const [{ run }] = importText(FIO_MINI, 'mini.json').runs
    expect(run.processes[0].slatMs).toBeUndefined()
    expect(summarizeRuns([run])[0].processes[0].slatMs).toBeUndefined()
  })
})
