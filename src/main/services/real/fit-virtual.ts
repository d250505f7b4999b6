import type { LatencyHistogramJSON } from '../../../shared/metrics/histogram'
import { LatencyHistogram } from '../../../shared/metrics/histogram'
import { QuantileTable } from '../../../shared/devices/quantile-table'
import { parseQuantileTable } from '../../../shared/devices/quantile-table'
import type { ParamValues } from '../../../shared/util/params'
import type { SweepName } from './fingerprint-fit'
import type { QueueFacts } from './queue-facts'
import { backingOf } from './backing-facts'
import { PER_PASS_THRESHOLD } from './virtio-signal'
import { judgedBy, medianResidual, residualSize } from './fingerprint-sweep'
import { correctStalls, initialStalls } from './fit-stalls'
import { correctHost } from './fit-host'
import { correctFlush, initialFlush } from './fit-flush'

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
 *    CPU of a wake-up: what QD1 (psync, a sleep per I/O) takes beyond that;
 *  - a cache flush's time: the writes each followed by fsync, beyond the write (fit-flush.ts).
 * The queue attributes (rotational, tags, nr_requests, max_sectors_kb) are read from sysfs.
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

const r3 = (x: number): number => Math.round(x * 1000) / 1000
const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x))

function point(points: readonly FitPoint[], n: SweepName): FitPoint {
  const p = points.find((q) => q.name === n)
  if (!p) throw new Error(`the sweep has no "${n}" point`)
  return p
}

/** The latency at each knot, µs. */
function quantilesUs(h: LatencyHistogramJSON): number[] {
  const x = LatencyHistogram.fromJSON(h)
  return KNOTS.map((q) => x.percentile(q) / 1000)
}

const tableOf = (us: readonly number[]): QuantileTable => {
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
    ...(contention && facts.signal ? { signalPerPass: facts.signal.perInterrupt >= PER_PASS_THRESHOLD } : {}),
    ...(facts.signal?.irqCpu ? { irqCpu: facts.signal.irqCpu.cpu } : {}),
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

/** Relative error of simulated against measured. */
const rel = (sim: number, meas: number): number => (meas > 0 ? sim / meas - 1 : 0)

/** Each measured point's residual size against its simulated twin. */
function residualSizes(meas: readonly FitPoint[], sim: readonly FitPoint[]): number[] {
  const out: number[] = []
  for (const m of meas) {
    const s = sim.find((x) => x.name === m.name)
    if (!s) continue
    const r = {
      iops: rel(s.iops, m.iops),
      p50: medianResidual(m.name, m.latency, s.latency, m.freshExcessNs),
      ...judgedBy(m.name),
    }
    out.push(residualSize(r))
  }
  return out
}

/**
 * A fit's standing: its worst residual, and their mean. One fit beats another with a worst
 * residual lower by more than half a per cent, or one as large with the other points closer on
 * average — else a point no parameter corrects, the worst from the start, would keep the first
 * step however much the corrections improve every other point.
 */
export function fitStanding(
  meas: readonly FitPoint[],
  sim: readonly FitPoint[],
): { err: number; mean: number } {
  const xs = residualSizes(meas, sim)
  return { err: Math.max(0, ...xs), mean: xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0 }
}

export const betterFit = (a: { err: number; mean: number }, b: { err: number; mean: number }): boolean =>
  a.err < b.err - 0.005 || (a.err <= b.err + 0.005 && a.mean < b.mean)

/** Sweep points no correction uses: they tell the model's structures apart (fitVirtual). */
export const HELD_OUT: ReadonlySet<string> = new Set(['qd8-randread'])

/**
 * Re-simulate and correct until every point's rate and median are within `tolerance`, or
 * `maxIterations`; keeps the best values seen.
 */
export function refineVirtual(
  start: ParamValues,
  host: ParamValues,
  meas: readonly FitPoint[],
  simulate: SweepSimulator,
  o: {
    tolerance?: number
    maxIterations?: number
    /** Host values measured directly (the fresh-page probe): the corrections leave them. */
    measured?: ReadonlySet<string>
  } = {},
): { values: ParamValues; host: ParamValues; simulated: FitPoint[]; iterations: number } {
  const tol = o.tolerance ?? 0.03
  const maxIt = o.maxIterations ?? 8
  let v = { ...start }
  let h = { ...host }
  // the points the corrections aim at: a held-out point (QD8) judges the fit, it does not steer it
  const fitted = meas.filter((p) => !HELD_OUT.has(p.name))
  const first = simulate(v, h)
  let best = { values: v, host: h, simulated: first, ...fitStanding(fitted, first) }
  let sim = best.simulated
  let it = 0
  while (it < maxIt && best.err > tol) {
    it++
    const next = correct(v, h, meas, sim)
    v = next.values
    h = next.host
    for (const k of o.measured ?? []) if (k in host) h[k] = host[k]
    sim = simulate(v, h)
    const standing = fitStanding(fitted, sim)
    if (betterFit(standing, best)) best = { values: v, host: h, simulated: sim, ...standing }
  }
  return { values: best.values, host: best.host, simulated: best.simulated, iterations: it }
}

/**
 * Both structures of the virtual model fitted to the sweep — lanes behind a serial path, and the
 * depth law (a contention per request in flight) — and the one whose re-simulated sweep is
 * closer kept. Neither fit uses the QD8 reads, so they tell the two apart: lanes behind a
 * serial path saturate by QD8, a hypervisor's shared I/O thread climbs slowly to QD32.
 */
export function fitVirtual(
  points: readonly FitPoint[],
  facts: QueueFacts,
  sizeBytes: number,
  pathFit: { us: number; why: string } | undefined,
  host: ParamValues,
  simulate: SweepSimulator,
  /** Host values measured directly, which the corrections leave (refineVirtual). */
  measured: ReadonlySet<string> = new Set(),
): {
  first: { values: ParamValues; sources: Record<string, string> }
  refined: ReturnType<typeof refineVirtual>
  structure: 'lanes' | 'depth law'
  errors: Record<'lanes' | 'depth law', number>
} {
  const fits = ([false, true] as const).map((contention) => {
    const first = initialVirtual(points, facts, sizeBytes, pathFit, contention)
    const refined = refineVirtual(first.values, host, points, simulate, { measured })
    return { first, refined, standing: fitStanding(points, refined.simulated) }
  })
  // the worst residual decides, and where it is the same point's in both (a point neither
  // structure moves, as the buffered writes: fp35, 33 % and 33 %) the others on average
  const pick = betterFit(fits[1].standing, fits[0].standing) ? 1 : 0
  return {
    first: fits[pick].first,
    refined: fits[pick].refined,
    structure: pick === 1 ? 'depth law' : 'lanes',
    errors: { lanes: fits[0].standing.err, 'depth law': fits[1].standing.err },
  }
}

/** One correction step: each parameter by the residual of the point that determines it. */
function correct(
  v: ParamValues,
  host: ParamValues,
  meas: readonly FitPoint[],
  sim: readonly FitPoint[],
): { values: ParamValues; host: ParamValues } {
  const m = (n: SweepName): FitPoint => point(meas, n)
  const s = (n: SweepName): FitPoint => point(sim, n)
  const knots = (key: string, n: SweepName): string => {
    const t = parseQuantileTable(v[key] as string, key, [])!
    const mq = quantilesUs(m(n).latency)
    const sq = quantilesUs(s(n).latency)
    return tableOf(KNOTS.map((_, i) => t.v[i] + (mq[i] - sq[i]))).toString()
  }
  // damped multiplicative steps for the rates: a point limited by something else moves less
  const step = (x: number, meas: number, sim: number, lo: number, hi: number): number =>
    sim > 0 && meas > 0 ? r3(clamp(x * (meas / sim) ** 0.8, lo, hi)) : x
  // The host path alone (its CPU, the system calls) already takes longer than the fastest
  // measured reads: the path is shorter than its CPU measure said.
  const fastest = (n: SweepName): number => quantilesUs(s(n).latency)[1] - quantilesUs(m(n).latency)[1]
  const floorHit = (key: string): boolean => parseQuantileTable(v[key] as string, key, [])!.v[1] <= 0.5
  const over = Math.max(
    floorHit('readServiceUs') ? fastest('qd1-randread') : 0,
    floorHit('writeServiceUs') ? fastest('qd1-randwrite') : 0,
  )
  // The path's first value is the deep reads' time per request under none (1 / their rate): the
  // most it can be if it alone limits them. Where the re-simulated deep reads fall short, it is
  // that bound less what the model adds on the same requests (fio's CPU, the worker's wake-ups on
  // two CPUs): shortened as their rate is short, never lengthened past the bound it started from.
  const short = s('qd32-randread').iops > 0 ? s('qd32-randread').iops / m('qd32-randread').iops : 1
  const bounded = (v.pathUs as number) * (short < 1 ? short ** 0.8 : 1)
  const pathUs = r3(Math.max(0, over > 0 ? bounded - over : bounded))
  const contentionMode = ((v.readContentionUs as number | undefined) ?? 0) > 0
  const mb = meas.find((p) => p.name === 'buffered-write')
  const sb = sim.find((p) => p.name === 'buffered-write')
  const values: ParamValues = {
    ...v,
    pathUs,
    readServiceUs: knots('readServiceUs', 'qd1-randread'),
    writeServiceUs: knots('writeServiceUs', 'qd1-randwrite'),
    ...(contentionMode
      ? {
          // more contention, a lower rate: the step goes the other way round
          readContentionUs: step(
            v.readContentionUs as number,
            s('qd32-randread').iops,
            m('qd32-randread').iops,
            0.05,
            1e5,
          ),
          writeContentionUs: step(
            v.writeContentionUs as number,
            s('qd32-randwrite').iops,
            m('qd32-randwrite').iops,
            0.05,
            1e5,
          ),
        }
      : {
          readParallel: step(
            v.readParallel as number,
            m('qd32-randread').iops,
            s('qd32-randread').iops,
            0.05,
            4096,
          ),
          writeParallel: step(
            v.writeParallel as number,
            m('qd32-randwrite').iops,
            s('qd32-randwrite').iops,
            0.05,
            4096,
          ),
        }),
    ...correctStalls(v, m('qd32-randread').latency, s('qd32-randread').latency),
    ...correctFlush(v, meas, sim),
    readMBps: step(v.readMBps as number, m('seq-read').MBps, s('seq-read').MBps, 1, 1e6),
    writeMBps: step(v.writeMBps as number, m('seq-write').MBps, s('seq-write').MBps, 1, 1e6),
    // the buffered point's time is its copies and, at its second pass, writing back the first
    // pass's pages at once: its rate corrects writeback's own link rate
    ...(v.cacheWriteMBps !== undefined && mb && sb
      ? {
          // within a factor of 4 of the direct writes' rate: where the copies bound the point
          // its rate hardly moves with the writeback's, and nothing else says how far to go
          cacheWriteMBps: step(
            v.cacheWriteMBps as number,
            mb.MBps,
            sb.MBps,
            (v.writeMBps as number) / 4,
            (v.writeMBps as number) * 4,
          ),
        }
      : {}),
  }
  return { values, host: correctHost(host, meas, sim) }
}
