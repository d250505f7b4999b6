import type { ProcessResult } from '../../../shared/experiment/result'
import { LatencyHistogram, summarizeLatency } from '../../../shared/metrics/histogram'
import type { FioJobEntry } from './fio-job'
import type { FioJobReport, FioLatency } from '../../../shared/formats/fio-json'
import { FioOutputError } from '../../../shared/formats/fio-json'
import { fioStageLatency } from '../../../shared/formats/fio-stages'

/**
 * A latency histogram from json+ `clat_ns.bins` (bucket value in ns → count) of one or more
 * directions, re-bucketed into the lab's log-linear histogram; min, max and sum are fio's exact ones.
 */
export function histogramFromBins(lats: readonly FioLatency[], where: string): LatencyHistogram {
  const h = new LatencyHistogram()
  let min = Infinity
  let max = -Infinity
  let sum = 0
  for (const l of lats) {
    if (!(l.N > 0)) continue
    if (!l.bins)
      throw new FioOutputError(
        where,
        'no clat_ns.bins (the latency histogram): the report is plain JSON — run fio with --output-format=json+',
      )
    for (const [k, c] of Object.entries(l.bins)) {
      const v = Math.max(0, Math.round(Number(k)))
      for (let i = 0; i < c; i++) h.record(v)
    }
    min = Math.min(min, l.min)
    max = Math.max(max, l.max)
    sum += l.mean * l.N
  }
  if (h.count === 0) return h
  const json = h.toJSON()
  // a bucket's value may lie a little beyond the true extremes: fio's own min and max are exact
  json.min = min
  json.max = max
  json.sum = Math.round(sum)
  return LatencyHistogram.fromJSON(json)
}

/**
 * fio reports `job_runtime` in whole ms and checks its runtime between I/Os, so a job that ran
 * to its runtime reports at least that; one ms less is rounding, not an early end.
 */
const RUNTIME_SLACK_MS = 1

/**
 * Did the job finish as the simulated process would have: it moved its planned bytes, or it ran
 * for its own runtime (a time-based job ends so). A job ended by the run's time limit, or cut
 * short by another job's `exitall`, did not.
 */
export function jobFinished(job: FioJobReport, entry: FioJobEntry, bytes: number): boolean {
  if (entry.plannedBytes > 0 && bytes >= entry.plannedBytes) return true
  return entry.ownRuntimeMs > 0 && job.job_runtime >= entry.ownRuntimeMs - RUNTIME_SLACK_MS
}

/** One fio job → the lab's per-process result (fio's job = the spec's process). */
export function processFromJob(
  job: FioJobReport,
  entry: FioJobEntry,
  pid: number,
  source: string,
): ProcessResult {
  if (job.error !== 0)
    throw new FioOutputError(
      source,
      `fio job "${job.jobname}" (process "${entry.process}") failed with error ${job.error}`,
    )
  const dirs = [job.read, job.write, job.trim]
  const h = histogramFromBins(
    dirs.map((d) => d.clat_ns),
    `${source}: job "${job.jobname}"`,
  )
  const readBytes = job.read.io_bytes
  const writeBytes = job.write.io_bytes + job.trim.io_bytes
  const bytes = readBytes + writeBytes
  const seconds = job.job_runtime / 1000
  const slatMs = fioStageLatency(dirs, 'slat_ns')
  const latMs = fioStageLatency(dirs, 'lat_ns')
  return {
    name: entry.process,
    pid,
    bytes,
    readBytes,
    writeBytes,
    seconds,
    MBps: seconds > 0 ? bytes / 1e6 / seconds : 0,
    ops: dirs.reduce((a, d) => a + d.total_ios, 0),
    finished: jobFinished(job, entry, bytes),
    startSeconds: entry.startSeconds,
    cpuSeconds: ((job.usr_cpu + job.sys_cpu) / 100) * seconds,
    latencyMs: summarizeLatency(h),
    latency: h.toJSON(),
    ...(slatMs ? { slatMs } : {}),
    ...(latMs ? { latMs } : {}),
  }
}

/** Match the report's jobs to the plan's sections (by name, in order) and convert each. */
export function processesFromReport(
  jobs: readonly FioJobReport[],
  plan: readonly FioJobEntry[],
  source: string,
): ProcessResult[] {
  return plan.map((entry, i) => {
    const job = jobs.find((j) => j.jobname === entry.section)
    if (!job)
      throw new FioOutputError(
        source,
        `no job named "${entry.section}" in the report (it has: ${jobs.map((j) => j.jobname).join(', ')})`,
      )
    return processFromJob(job, entry, i + 1, source)
  })
}
