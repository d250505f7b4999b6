import type { RunResult } from '../../src/shared/experiment/result'
import { LatencyHistogram } from '../../src/shared/metrics/histogram'
import { emptyRun, measuredProcess } from '../../src/shared/import/empty-run'

/**
 * Small synthetic results for the export tests: `reader` times per label and repetition (the
 * published A figures' shape: deadline slow, anticipatory fast), a time series and latencies.
 */
export function syntheticRuns(times: Record<string, number[]>): RunResult[] {
  const runs: RunResult[] = []
  for (const [label, seconds] of Object.entries(times))
    seconds.forEach((s, repetition) => {
      const run = emptyRun({ label, tool: 'test', file: 'synthetic', repetition, seconds: s })
      delete run.imported
      run.source = 'simulated'
      run.scheduler = label.replace(/[^a-z-]/g, '') || 'noop'
      const h = new LatencyHistogram()
      for (let i = 1; i <= 200; i++) h.record(Math.round((i * s * 1e6) / 40))
      run.processes.push(
        measuredProcess({
          name: 'reader',
          pid: 1,
          readBytes: 100 * 2 ** 20,
          writeBytes: 0,
          seconds: s,
          ops: 800,
          latency: h.toJSON(),
        }),
      )
      run.totals.readMBps = (100 * 2 ** 20) / 1e6 / s
      run.totals.writeMBps = 20
      run.totals.utilisation = 0.99
      const n = Math.ceil(s)
      run.timeSeries = {
        intervalMs: 1000,
        tMs: Array.from({ length: n }, (_, k) => k * 1000),
        readMBps: Array.from({ length: n }, () => run.totals.readMBps),
        writeMBps: Array.from({ length: n }, (_, k) => 20 + (k % 3)),
        readIops: Array.from({ length: n }, () => 0),
        writeIops: Array.from({ length: n }, () => 0),
        queued: Array.from({ length: n }, () => 0),
        inFlight: Array.from({ length: n }, () => 0),
      }
      runs.push(run)
    })
  return runs
}

/** The `iosched-lab run --json` document around some runs. */
export const runOutput = (name: string, runs: RunResult[]) => ({
  schema: 'iosched-lab/run-output@1',
  experiment: name,
  device: 'hdd-2003-ide',
  host: 'linux-2003',
  repetitions: Math.max(...runs.map((r) => r.repetition + 1)),
  seed: 1,
  schedulers: [],
  runs,
})
