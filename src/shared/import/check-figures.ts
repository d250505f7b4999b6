import type { RunResult } from '../experiment/result'
import type { FigureKind } from '../formats/figure-bounds'
import { figureProblem } from '../formats/figure-bounds'
import { ImportError } from '../formats/import-error'
import type { LatencyHistogramJSON } from '../metrics/histogram'
import type { ImportedRun } from './types'

type Check = (path: string, kind: FigureKind, value: number, scale?: number) => void

/**
 * The one check every imported run passes before it is returned: each figure of the run —
 * durations, bytes, rates, counts, latencies, the time series — is a number a measurement can
 * have (FIGURE_BOUNDS), and the time series does not go back in time. The parsers check what they
 * read with its exact line and field; this is the same rule over what the importers computed from
 * it (a throughput from bytes and a time, a phase's time from a rate), located at the run's line
 * and named by the run's field path (`processes[0].MBps`).
 */
export function checkImportedRun(r: ImportedRun): void {
  const line = r.line ?? 1
  const check: Check = (path, kind, value, scale = 1) => {
    const p = figureProblem(kind, value * scale)
    if (p !== null) throw new ImportError(`${p} (computed from the tool's figures)`, line, path)
  }
  checkRun(r.run, check, line)
  r.metrics.forEach((m, k) => {
    if (m.value !== null && !Number.isFinite(m.value))
      throw new ImportError(`${m.name}: ${m.value} ${m.unit} is not a finite number`, line, `metrics[${k}]`)
  })
}

function checkRun(run: RunResult, check: Check, line: number): void {
  // the most specific figure first: a phase, then its process, then the run
  run.processes.forEach((p, i) => {
    const at = `processes[${i}]`
    p.phases?.forEach((ph, k) => {
      check(`${at}.phases[${k}].bytes`, 'bytes', ph.bytes)
      check(`${at}.phases[${k}].ops`, 'count', ph.ops)
      check(`${at}.phases[${k}].seconds`, 'time', ph.seconds)
      check(`${at}.phases[${k}].cpuSeconds`, 'time', ph.cpuSeconds)
      if (ph.seconds > 0) check(`${at}.phases[${k}]`, 'throughput', ph.bytes / ph.seconds)
    })
    for (const k of ['bytes', 'readBytes', 'writeBytes'] as const) check(`${at}.${k}`, 'bytes', p[k])
    for (const k of ['seconds', 'startSeconds', 'cpuSeconds'] as const) check(`${at}.${k}`, 'time', p[k])
    check(`${at}.MBps`, 'throughput', p.MBps, 1e6)
    check(`${at}.ops`, 'count', p.ops)
    histogram(`${at}.latency`, p.latency, check)
  })
  check('seconds', 'time', run.seconds)
  const t = run.totals
  check('totals.readMBps', 'throughput', t.readMBps, 1e6)
  check('totals.writeMBps', 'throughput', t.writeMBps, 1e6)
  check('totals.readIops', 'iops', t.readIops)
  check('totals.writeIops', 'iops', t.writeIops)
  check('totals.readBytes', 'bytes', t.readBytes)
  check('totals.writeBytes', 'bytes', t.writeBytes)
  check('totals.requests', 'count', t.requests)
  const ts = run.timeSeries
  ts.tMs.forEach((ms, k) => {
    check(`timeSeries.tMs[${k}]`, 'time', ms, 1e-3)
    if (k > 0 && ms < ts.tMs[k - 1])
      throw new ImportError(
        `time goes backwards: the time series is at ${ts.tMs[k - 1]} ms, then ${ms} ms`,
        line,
        `timeSeries.tMs[${k}]`,
      )
  })
  for (const k of ['readMBps', 'writeMBps'] as const)
    ts[k].forEach((v, j) => check(`timeSeries.${k}[${j}]`, 'throughput', v, 1e6))
  for (const k of ['readIops', 'writeIops'] as const)
    ts[k].forEach((v, j) => check(`timeSeries.${k}[${j}]`, 'iops', v))
  histogram('requestLatency', run.requestLatency, check)
  histogram('serviceLatency', run.serviceLatency, check)
}

/** Histograms hold ns. */
function histogram(path: string, h: LatencyHistogramJSON, check: Check): void {
  if (h.count === 0) return
  check(`${path}.count`, 'count', h.count)
  check(`${path}.min`, 'time', h.min, 1e-9)
  check(`${path}.max`, 'time', h.max, 1e-9)
}
