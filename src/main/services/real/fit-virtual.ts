import type { LatencyHistogramJSON } from '../../../shared/metrics/histogram'
import { LatencyHistogram } from '../../../shared/metrics/histogram'
import { QuantileTable } from '../../../shared/devices/quantile-table'
import type { ParamValues } from '../../../shared/util/params'
import type { SweepName } from './fingerprint-fit'
import type { QueueFacts } from './queue-facts'
import { backingOf } from './backing-facts'
import { PER_PASS_THRESHOLD, signalsPerPass } from './virtio-signal'
import { initialStalls } from './fit-stalls'
import { initialFlush } from './fit-flush'

/**
 * Fitting the virtual device model (devices/virtual.ts) to a fingerprint sweep. Each parameter is
 * derived from the points that determine it, then the whole sweep is re-simulated and each
 * parameter corrected by its own point's residual, until every point is within a tolerance or the
 * corrections stop helping:
 *  - the service-time distributions of 4 KiB reads and writes: the QD1 latency histograms, knot by
 *    knot (percent:µs), less what the host's path adds;
 *  - the CPU of the device's own path on the host: the CPUs kept busy at QD32 beyond fio's own
 *    CPU, per request;
 *  - the host's stalls under load (either structure): the QD32 reads beyond twice their median;
 *  - the parallelism of reads and of writes: the QD32 rates (Little's law to start with);
 *  - the bandwidths: the 1 MiB sequential points;
 *  - the host's CPU per system call: fio's own CPU per I/O at QD32 (libaio, few sleeps); the
 *    CPU of a wake-up: what QD1 (psync, a sleep per I/O) takes beyond that; a direct transfer's
 *    work per KiB: what fio's 1 MiB sequential points take beyond the simulated;
 *  - a cache flush's time: the writes each followed by fsync, beyond the write (fit-flush.ts).
 * The queue attributes (rotational, tags, nr_requests, max_sectors_kb) are read from sysfs.
 * This file holds the first values (initialVirtual); the re-simulation and the corrections, and
 * the choice between the model's two structures, are in fit-virtual-refine.ts.
 */

/** A sweep point as the fit sees it: rates, the latency histogram, and the CPU it took. */
export interface FitPoint {
  name: SweepName
  iops: number
  MBps: number
  latency: LatencyHistogramJSON
  /** fio's own CPU (user + system) per I/O, µs; null when unknown. */
  fioCpuUs: number | null
  /** CPUs kept busy machine-wide while the point ran (0 … CPUs); null when unknown. */
  busyCpus: number | null
  /**
   * The buffered point's: what a write into reported memory costs beyond the others, as the
   * fresh-page probe measured it (256 pages × freshPageUs, ns). A write slow by less than half of
   * that was slow for another reason, not fresh memory (fit-fresh-pages.ts freshWrites).
   */
  freshExcessNs?: number
}

/**
 * The percents the service-time tables are kept at. Between knots a draw is interpolated
 * linearly, so the last segment holds its share of draws spread up to the slowest sample: with
 * 99.9 → 100 alone, one 46 ms outlier among 47 000 reads put 0.1 % of draws at 23 ms on average —
 * 23 µs on every read's mean. The 99.99 knot keeps that to a hundredth of a per cent.
 */
export const KNOTS = [0, 1, 5, 10, 25, 50, 75, 90, 95, 99, 99.9, 99.99, 100]

/** One re-simulation of the sweep with candidate values: the simulated points. */
export type SweepSimulator = (device: ParamValues, host: ParamValues) => FitPoint[]

export interface VirtualFit {
  values: ParamValues
  /** Host overrides the fit adjusted (syscallUs), to join the captured host. */
  host: ParamValues
  sources: Record<string, string>
  /** The re-simulated sweep after the last correction. */
  simulated: FitPoint[]
  iterations: number
}

export const r3 = (x: number): number => Math.round(x * 1000) / 1000
export const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x))

/** The sweep's point named `n`. */
export function point(points: readonly FitPoint[], n: SweepName): FitPoint {
  const p = points.find((q) => q.name === n)
  if (!p) throw new Error(`the sweep has no "${n}" point`)
  return p
}

/** The latency at each knot, µs. */
export function quantilesUs(h: LatencyHistogramJSON): number[] {
  const x = LatencyHistogram.fromJSON(h)
  return KNOTS.map((q) => x.percentile(q) / 1000)
}

/** A service-time table at the knots, from µs per knot (non-decreasing, at least 0.5 µs). */
export const tableOf = (us: readonly number[]): QuantileTable => {
  let last = 0
  return new QuantileTable(
    KNOTS.map((p, i) => {
      last = Math.max(last, us[i], 0.5)
      return [p, r3(last)] as const
    }),
  )
}

/** The device's own path CPU per request, µs, from the QD32 read point's CPU; 0 when unknown. */
export function pathCpuUs(points: readonly FitPoint[]): { us: number; why: string } {
  const p = point(points, 'qd32-randread')
  if (p.busyCpus === null || p.fioCpuUs === null || !(p.iops > 0))
    return { us: 0, why: '[assumed] 0: the CPU of the sweep was not measured' }
  const fioCpus = (p.fioCpuUs * p.iops) / 1e6
  const other = Math.max(0, p.busyCpus - fioCpus)
  // the path cannot take longer per request than the rate it sustained allows one thread
  const us = Math.min(other * (1e6 / p.iops), 0.95 * (1e6 / p.iops))
  return {
    us: r3(us),
    why: `fitted: at QD32 random reads (${Math.round(p.iops)} IOPS) the CPUs were ${r3(p.busyCpus)} busy, fio ${r3(fioCpus)} of them: the rest per request`,
  }
}

/** The loop worker's cost of handing a request to the disk, where the probe measured it. */
function dispatchValues(facts: QueueFacts): ParamValues {
  const d = facts.kind === 'loop' ? facts.dispatch : undefined
  if (!d) return {}
  return { notifyUs: d.notifyUs, ...(d.segmentUs !== null ? { segmentUs: d.segmentUs } : {}) }
}

function dispatchSources(facts: QueueFacts): Record<string, string> {
  const d = facts.kind === 'loop' ? facts.dispatch : undefined
  if (!d) return {}
  const how = `measured (dispatch-probe.ts: the loop worker's block events and switches on a scratch loop device over ${d.disk}; ${d.said})`
  return {
    notifyUs: `${how}: its time past a 4 KiB request's dispatch to ${d.disk} with no request in hand, less with some`,
    ...(d.segmentUs !== null
      ? {
          segmentUs: `${how}: its time past a dispatch of a request of one-page segments to a busy ${d.disk}, less a 4 KiB one's, per segment beyond the first`,
        }
      : {}),
  }
}

/** First values from the points that determine each, before any re-simulation. */
export function initialVirtual(
  points: readonly FitPoint[],
  facts: QueueFacts,
  sizeBytes: number,
  /** The path's time per request when the scheduler points determined it (fit-scheduler-cost.ts). */
  pathFit?: { us: number; why: string },
  /**
   * Fit the depth law (contention per request in flight, devices/virtual-depth-law.ts) rather
   * than lanes and a serial path: how a virtual device on this machine's hypervisor was measured
   * to behave.
   */
  contention = false,
): { values: ParamValues; sources: Record<string, string> } {
  const rr1 = point(points, 'qd1-randread')
  const rr32 = point(points, 'qd32-randread')
  const rw1 = point(points, 'qd1-randwrite')
  const rw32 = point(points, 'qd32-randwrite')
  const sr = point(points, 'seq-read')
  const sw = point(points, 'seq-write')
  const bw = points.find((p) => p.name === 'buffered-write')
  // contention mode: the path is the guest CPU the device's own thread takes (the host side's
  // serial work is the contention); the lane model put the whole QD32 time per request there
  const path = facts.kind === 'loop' && pathFit && !contention ? pathFit : pathCpuUs(points)
  const read = quantilesUs(rr1.latency).map((v) => v - path.us)
  const write = quantilesUs(rw1.latency).map((v) => v - path.us)
  const meanOf = (us: number[]): number => tableOf(us).mean() / 1e6
  // Little's law: requests in service = rate × time in service
  const readParallel = clamp(rr32.iops * meanOf(read), 0.05, 4096)
  const writeParallel = clamp(rw32.iops * meanOf(write), 0.05, 4096)
  // the depth law: at QD32 a request takes its QD1 time and 31 others' contention
  const meanUs = (p: FitPoint): number => LatencyHistogram.fromJSON(p.latency).mean / 1000
  const readContention = clamp((meanUs(rr32) - meanUs(rr1)) / 31, 0.05, 1e5)
  const writeContention = clamp((meanUs(rw32) - meanUs(rw1)) / 31, 0.05, 1e5)
  const stalls = initialStalls(rr32, 32)
  const backing = backingOf(facts)
  const flush = initialFlush(points, facts.writeCache)
  const values: ParamValues = {
    kind: facts.kind,
    capacityGiB: r3(sizeBytes / 2 ** 30) || 0.25,
    rotational: facts.rotational,
    ...(facts.queueDepth ? { queueDepth: facts.queueDepth } : {}),
    ...(facts.nrRequests ? { nrRequests: facts.nrRequests } : {}),
    ...(facts.maxSectorsKiB ? { maxTransferKiB: facts.maxSectorsKiB } : {}),
    ...(facts.maxSegments ? { maxSegments: facts.maxSegments } : {}),
    ...(facts.writeCache !== null ? { writeCache: facts.writeCache } : {}),
    ...(facts.wbtLatUs !== null ? { wbtLatUs: facts.wbtLatUs } : {}),
    ...(contention && facts.signal ? { signalPerPass: signalsPerPass(facts.signal) } : {}),
    ...(facts.signal?.irqCpu ? { irqCpu: facts.signal.irqCpu.cpu } : {}),
    ...dispatchValues(facts),
    readServiceUs: tableOf(read).toString(),
    writeServiceUs: tableOf(write).toString(),
    ...(contention
      ? { readContentionUs: r3(readContention), writeContentionUs: r3(writeContention) }
      : // the base preset's depth law must not turn the lanes back into it
        {
          readParallel: r3(readParallel),
          writeParallel: r3(writeParallel),
          readContentionUs: 0,
          writeContentionUs: 0,
        }),
    ...stalls.values,
    ...backing.values,
    readMBps: r3(Math.max(1, sr.MBps)),
    writeMBps: r3(Math.max(1, sw.MBps)),
    // writeback's own rate starts at the direct writes'; the buffered point's rate corrects it
    ...(bw ? { cacheWriteMBps: r3(Math.max(1, sw.MBps)) } : {}),
    pathThreads: facts.kind === 'loop' ? 1 : 0,
    pathUs: facts.kind === 'loop' ? path.us : 0,
    ...flush?.values,
  }
  const sources: Record<string, string> = {
    kind: facts.sources.kind,
    capacityGiB: 'the device size',
    rotational: facts.sources.rotational,
    queueDepth: facts.sources.queueDepth,
    nrRequests: facts.sources.nrRequests,
    maxTransferKiB: facts.sources.maxTransferKiB,
    ...(facts.maxSegments ? { maxSegments: facts.sources.maxSegments } : {}),
    ...(facts.writeCache !== null ? { writeCache: facts.sources.writeCache } : {}),
    ...(facts.wbtLatUs !== null ? { wbtLatUs: facts.sources.wbtLatUs } : {}),
    ...(contention && facts.signal
      ? {
          signalPerPass: `measured: ${r3(facts.signal.perInterrupt)} completions per interrupt of ${facts.signal.disk} during ${facts.signal.during} (${PER_PASS_THRESHOLD} or more: the host signals once per pass over its queue — see devices/signal-pass.ts)`,
        }
      : {}),
    ...dispatchSources(facts),
    ...(facts.signal?.irqCpu
      ? {
          irqCpu: `measured: CPU${facts.signal.irqCpu.cpu} took ${r3(100 * facts.signal.irqCpu.share)} % of ${facts.signal.disk}'s request-queue interrupts (/proc/interrupts) during ${facts.signal.during}`,
        }
      : {}),
    readServiceUs: `fitted: the QD1 4 KiB random reads' latency histogram (${Math.round(rr1.iops)} IOPS), knot by knot, less the host path`,
    writeServiceUs: `fitted: the QD1 4 KiB random writes' latency histogram (${Math.round(rw1.iops)} IOPS), knot by knot, less the host path`,
    ...(contention
      ? {
          readContentionUs: `fitted: the QD32 4 KiB random reads' mean latency beyond QD1's, per other request in flight (${r3(meanUs(rr32))} − ${r3(meanUs(rr1))} µs over 31), then re-simulated against their rate`,
          writeContentionUs: `fitted: the QD32 4 KiB random writes' mean latency beyond QD1's, per other request in flight (${r3(meanUs(rw32))} − ${r3(meanUs(rw1))} µs over 31), then re-simulated`,
        }
      : {
          readParallel: `fitted: QD32 random reads at ${Math.round(rr32.iops)} IOPS (Little's law on the QD1 service time, then re-simulated)`,
          writeParallel: `fitted: QD32 random writes at ${Math.round(rw32.iops)} IOPS (Little's law, then re-simulated)`,
        }),
    ...stalls.sources,
    ...backing.sources,
    readMBps: `fitted: 1 MiB sequential reads at ${r3(sr.MBps)} MB/s`,
    writeMBps: `fitted: 1 MiB sequential writes at ${r3(sw.MBps)} MB/s`,
    ...(bw
      ? {
          cacheWriteMBps: `fitted: the buffered point's rate (${r3(bw.MBps)} MB/s), whose time includes writing back its first pass's 64 MiB at once, re-simulated from the 1 MiB sequential writes' rate`,
        }
      : {}),
    pathThreads:
      facts.kind === 'loop'
        ? 'drivers/block/loop.c (6.x): one worker per blkcg runs the file I/O of each request'
        : '[assumed] no host thread of its own (the path runs in the submitter and interrupts)',
    pathUs: facts.kind === 'loop' ? path.why : '[assumed] 0: no host thread of its own',
    ...flush?.sources,
  }
  return { values, sources }
}
