// The mechanism behind a process's time blocked on I/O (explain.ts): the stage of its requests
// that grew from the better scheduler to the worse, and which decisions of theirs the figures show
// — anticipation, deceptive idleness, read-over-write priority, batching, request slots, seeks, device queueing.
import { LatencyHistogram } from '../metrics/histogram'
import type { ProcessStages, StageName } from '../metrics/why'
import { bytes, millis, num } from '../util/people-numbers'
import type { Mechanism, Side } from './explain'
import type { ProcessResult, RunResult } from './result'
import { machineryOf } from './explain-machinery'

/** MB a process moved (never 0: figures are divided by it). */
export const MB = (p: ProcessResult): number => Math.max(p.bytes / 1e6, 1e-6)

/** Per request: mean of a stage, ms; its total per MB moved, ms/MB. */
function stage(s: ProcessStages | undefined, k: StageName): { mean: number; total: number } {
  if (!s) return { mean: NaN, total: NaN }
  const h = LatencyHistogram.fromJSON(s.stages[k])
  return { mean: h.count > 0 ? h.mean / 1e6 : 0, total: h.sum / 1e6 }
}

/** The stage whose total per MB grew most from best to worst. */
function dominantStage(w: Side, b: Side): StageName | undefined {
  if (!w.stages || !b.stages) return undefined
  let top: StageName | undefined
  let most = 0
  for (const k of ['q2g', 'g2i', 'i2d', 'd2c'] as const) {
    const d = stage(w.stages, k).total / MB(w.proc) - stage(b.stages, k).total / MB(b.proc)
    if (d > most) {
      most = d
      top = k
    }
  }
  return top
}

/** The other process that had the most device time in a run (the one the process competed with). */
function rival(side: Side): ProcessStages | undefined {
  const others = side.run.why?.processes.filter((p) => p.process !== side.proc.name) ?? []
  let top: ProcessStages | undefined
  let most = 0
  for (const o of others) {
    const t = stage(o, 'd2c').total
    if (t > most) {
      most = t
      top = o
    }
  }
  return top
}

const perRequest = (n: number, s: ProcessStages): number => n / Math.max(1, s.requests)

/**
 * The stage `k` per MB beside its means per request, when the two sides' requests differ in size
 * by a quarter or more: smaller requests take less time each and more per MB, the figure the
 * stages are ranked by (dominantStage). A real direct writer on a loop device sent requests about
 * half the size under none as under kyber, 0.547 ms each at the device against 0.702 ms, and more
 * device time per MB: without their sizes, the figure that made it slower read as shorter.
 */
function perMB(w: Side, b: Side, k: StageName): string {
  const size = (x: Side): number => x.proc.bytes / Math.max(1, x.stages?.requests ?? 0)
  const [sw, sb] = [size(w), size(b)]
  if (!(sw > 0 && sb > 0) || Math.max(sw, sb) < 1.25 * Math.min(sw, sb)) return ''
  const each = (x: Side): string => millis(stage(x.stages, k).total / MB(x.proc))
  return ` — requests of ${bytes(sw)} against ${bytes(sb)}, ${each(w)} per MB against ${each(b)}`
}

/**
 * Requests at the device on average over the run (its time series' in-flight level), or NaN when
 * the run has no such level: no samples, or only zeros from a run that did I/O (a real run's
 * sampling missed it), which would otherwise read as a device that held nothing.
 */
function meanInFlight(r: RunResult): number {
  const xs = r.timeSeries.inFlight
  const sum = xs.reduce((a, x) => a + x, 0)
  return sum > 0 ? sum / xs.length : NaN
}

/** Blocked on I/O (or a real run, which has no time split): the stage that grew says where. */
export function ioMechanism(name: string, w: Side, b: Side): { mechanism: Mechanism; detail: string } {
  const k = dominantStage(w, b)
  const sw = w.stages
  const sb = b.stages
  if (k === undefined || !sw || !sb) return { mechanism: 'none', detail: '' }
  const ms = (side: ProcessStages, s: StageName): string => millis(stage(side, s).mean)
  if (k === 'q2g')
    return {
      mechanism: 'request-slots',
      detail:
        `Its requests waited ${ms(sw, 'q2g')} each for a request slot (nr_requests, tags, writeback throttling) under ${w.label},` +
        ` ${ms(sb, 'q2g')} under ${b.label}${perMB(w, b, 'q2g')}${rivalClause(w)}.`,
    }
  if (k === 'd2c') {
    const at = `Its requests took ${ms(sw, 'd2c')} each at the device under ${w.label}, ${ms(sb, 'd2c')} under ${b.label}${perMB(w, b, 'd2c')}`
    const machinery = machineryOf('d2c', w, b, at)
    if (machinery !== null) return machinery
    const tw = perRequest(sw.travelSectors, sw)
    const tb = perRequest(sb.travelSectors, sb)
    // head travel explains device time on a disk with an arm only (a simulated disk counts it)
    const arm = w.run.totals.seekCylinders !== undefined && b.run.totals.seekCylinders !== undefined
    const seeks = arm && tw > 2 * tb && tw > 0
    if (seeks)
      return {
        mechanism: 'seeks',
        detail: `${at}: the head travelled ${num(tw / 2048)} MiB to reach each one, against ${num(tb / 2048)} MiB (${sw.seeks} seeks against ${sb.seeks}).`,
      }
    const dw = meanInFlight(w.run)
    const db = meanInFlight(b.run)
    return {
      mechanism: 'device-service',
      detail:
        at +
        // both levels measured (NaN compares false)
        (dw > db * 1.5
          ? `: the device held ${num(dw)} requests at a time on average, against ${num(db)}${rivalClause(w)}, and each waited inside it for the others.`
          : '.'),
    }
  }
  const waited = `Its requests waited ${ms(sw, 'i2d')} each in the scheduler under ${w.label}, ${ms(sb, 'i2d')} under ${b.label}${perMB(w, b, 'i2d')}`
  const iw = sb.idle
  if (iw && iw.waits > 0 && iw.rewarded / iw.waits >= 0.5 && (sw.idle?.waits ?? 0) < iw.waits / 2)
    return {
      mechanism: 'anticipation',
      detail:
        `${waited}. ${b.label} held the device for it ${iw.waits} times, ${millis(iw.ns / iw.waits / 1e6)} each on average,` +
        ` and ${num((iw.rewarded / iw.waits) * 100, 2)} % of those waits ended with its next request` +
        ` (${sw.idle?.waits ?? 0} such waits under ${w.label}).`,
    }
  const machinery = machineryOf('i2d', w, b, waited)
  if (machinery !== null) return machinery
  // Deceptive idleness: the worse scheduler moved on whenever the process looked idle — without
  // waiting for it (a scheduler that waits and still moves on does so for another reason: a slice
  // or a batch expired) — and its next request came far sooner than it was then served.
  const dw = sw.deceived
  const waitedFor = sw.idle?.waits ?? 0
  if (
    dw &&
    dw.switches > 0 &&
    dw.switches >= 0.1 * sw.batches &&
    waitedFor < dw.switches / 2 &&
    dw.gapNs * 2 < dw.waitNs
  )
    return {
      mechanism: 'deceptive-idleness',
      detail:
        `${waited}: ${w.label} moved on to other processes ${dw.switches} times when the ${name} looked idle, its last request sent and no other queued, without waiting for it;` +
        ` its next request came ${millis(dw.gapNs / dw.switches / 1e6)} later on average, then waited ${millis(dw.waitNs / dw.switches / 1e6)}` +
        ` (${sb.deceived?.switches ?? 0} such switches under ${b.label}): deceptive idleness.`,
    }
  const runsW = sw.requests / Math.max(1, sw.batches)
  const runsB = sb.requests / Math.max(1, sb.batches)
  const rw = rival(w)
  const rb = rival(b)
  const reads = sw.readRequests >= sw.writeRequests
  if (reads && rw && rb && rb.process === rw.process && rw.writeRequests > rw.readRequests) {
    // Reads against writes: the better scheduler let fewer of the writes in between its reads, or
    // made the writes wait where the reads did not.
    const ownB = stage(sb, 'i2d').mean
    const theirB = stage(rb, 'i2d').mean
    const ownW = stage(sw, 'i2d').mean
    const theirW = stage(rw, 'i2d').mean
    // ROW's weighted round robin (block/row-iosched.c, CodeAurora msm-3.4: row_queues_def[],
    // rp_read_quantum 75 against rp_write_quantum 4) serves a run of reads before each turn of the
    // writes; CFQ gives the writeback queue slices of its own (block/cfq-iosched.c)
    const first = `${b.label} served its reads before the ${rb.process}'s writes (read-over-write priority)`
    if (runsB > 1.5 * runsW)
      return {
        mechanism: 'read-priority',
        detail:
          `${waited}: ${first}, letting the writes in between its reads ${sb.batches} times (runs of ${num(runsB)} reads),` +
          ` where ${w.label} let them in ${sw.batches} times (runs of ${num(runsW)}); the writes waited` +
          ` ${ms(rb, 'i2d')} each in the scheduler under ${b.label}, ${ms(rw, 'i2d')} under ${w.label}.`,
      }
    if (ownB * 4 < theirB && ownB / theirB < ownW / theirW / 2)
      return {
        mechanism: 'read-priority',
        detail:
          `${waited}: ${first}, which waited ${ms(rb, 'i2d')} each there against its reads' ${ms(sb, 'i2d')};` +
          ` under ${w.label} the writes waited ${ms(rw, 'i2d')}.`,
      }
  }
  if (runsB > 2 * runsW)
    return {
      mechanism: 'batching',
      detail:
        `${waited}: ${w.label} served them in ${sw.batches} runs of ${num(runsW)} requests on average,` +
        ` switching to other processes${rivalClause(w)} in between; ${b.label} in ${sb.batches} runs of ${num(runsB)}.`,
    }
  return { mechanism: 'scheduler-queueing', detail: `${waited}${rivalClause(w)}.` }
}

function rivalClause(side: Side): string {
  const r = rival(side)
  return r ? ` (the ${r.process}'s ${r.requests} requests took the most device time)` : ''
}
