// The kernel machinery behind a stage that grew (explain-io.ts) or a process's time runnable
// (explain.ts), from the waits the simulation counted (metrics/why.ts `waits`, `lag`, `events`):
// a lower I/O priority class held behind a higher one — in the device's scheduler or at the disk
// under a loop device; blk-mq's delayed run of a queue whose scheduler declined; the loop worker
// held by a flush; a woken task preempting by its EEVDF lag.
import type { LagPreemption, MachineryWait, ProcessStages, StageName, WaitName } from '../metrics/why'
import { millis, num } from '../util/people-numbers'
import type { Mechanism, Side } from './explain'
import { MB } from './explain-io'

/** The waits that lie in each stage: a scheduler's in I2D; the disk's and the loop worker's in D2C. */
const IN_STAGE: Partial<Record<StageName, readonly WaitName[]>> = {
  i2d: ['classHeld', 'delayedRun'],
  d2c: ['backingClassHeld', 'delayedRun', 'behindFlush'],
}

/** A wait must make up at least this share of the stage's growth (per MB) to be what made it. */
const SHARE = 0.5

const waitOf = (s: ProcessStages | undefined, k: WaitName): MachineryWait =>
  s?.waits?.[k] ?? { requests: 0, ns: 0 }

/** The growth of a wait (or a stage's total, ms) per MB the process moved, best to worst. */
const grew = (w: Side, b: Side, ns: (s: Side) => number): number => ns(w) / MB(w.proc) - ns(b) / MB(b.proc)

const stageNs = (s: Side, k: StageName): number => s.stages?.stages[k].sum ?? 0

const cap = (t: string): string => t.charAt(0).toUpperCase() + t.slice(1)

/** "n requests, x ms each, y s in all" of a wait. */
function told(m: MachineryWait): string {
  if (m.requests === 0) return 'no such waits'
  return `${num(m.requests)} requests, ${millis(m.ns / m.requests / 1e6)} each, ${num(m.ns / 1e9)} s summed over them`
}

/** The run's delayed runs or flushes, "n of them, x ms each". */
function events(s: Side, k: 'delayedRun' | 'flush'): string {
  const e = s.run.why?.events?.[k]
  return e && e.count > 0 ? `${num(e.count)}, ${millis(e.ns / e.count / 1e6)} each` : 'none'
}

/**
 * The machinery wait that made stage `k` grow from `b` to `w`: the one that grew most per MB, when
 * it makes up at least half the stage's growth; null otherwise. `lead`: the sentence so far.
 */
export function machineryOf(
  k: StageName,
  w: Side,
  b: Side,
  lead: string,
): { mechanism: Mechanism; detail: string } | null {
  const kinds = IN_STAGE[k]
  if (!kinds || !w.stages || !b.stages) return null
  const stage = grew(w, b, (s) => stageNs(s, k))
  if (!(stage > 0)) return null
  let top: WaitName | undefined
  let most = 0
  for (const n of kinds) {
    const d = grew(w, b, (s) => waitOf(s.stages, n).ns)
    if (d > most) {
      most = d
      top = n
    }
  }
  if (top === undefined || most < SHARE * stage) return null
  const [sw, sb] = [w.stages, b.stages]
  const name = w.proc.name
  const under = (n: WaitName): string =>
    `${told(waitOf(sw, n))} under ${w.label}; ${told(waitOf(sb, n))} under ${b.label}`
  const delayed = grew(w, b, (s) => waitOf(s.stages, 'delayedRun').ns)
  const delayedRuns =
    `blk-mq runs a queue whose scheduler declined with requests queued only BLK_MQ_BUDGET_DELAY (3 ms) later, on a tick, ` +
    `or at an insertion (delayed runs: ${events(w, 'delayedRun')} under ${w.label}; ${events(b, 'delayedRun')} under ${b.label})`
  const waitedRun = `waiting for a run once what held them had completed: ${under('delayedRun')}`
  if (top === 'classHeld' || top === 'backingClassHeld') {
    const where =
      top === 'classHeld'
        ? `${w.label} held the ${name}'s requests behind a higher I/O priority class (it serves RT before BE before IDLE, a lower class waiting while a higher one has requests even in flight)`
        : `the disk under the loop device, to which the loop device hands each request's I/O priority, held the ${name}'s requests behind a higher priority class (its scheduler serving RT before BE before IDLE)`
    // most of the holding was the wait for the queue to run again, not for the higher class
    if (delayed >= SHARE * most)
      return {
        mechanism: 'delayed-run',
        detail: `${lead}: ${where} — ${under(top)} — but most of that was the wait for the queue to run again: ${delayedRuns}. ${cap(waitedRun)}.`,
      }
    return { mechanism: 'class-priority', detail: `${lead}: ${where}: ${under(top)}.` }
  }
  if (top === 'delayedRun')
    return {
      mechanism: 'delayed-run',
      detail: `${lead}: the scheduler declined with them queued, and ${delayedRuns}. ${cap(waitedRun)}.`,
    }
  return {
    mechanism: 'loop-flush',
    detail:
      `${lead}: they queued behind cache flushes in the loop device's worker, which serves one command at a time and holds the rest while it fsyncs the backing file — ` +
      `${under('behindFlush')} (flushes in the run: ${events(w, 'flush')} under ${w.label}; ${events(b, 'flush')} under ${b.label}).`,
  }
}

const NO_LAG: LagPreemption = { busyWakeups: 0, preempts: 0, preempted: 0, waitedNs: 0 }

/** Of its wake-ups to a busy CPU, the share that preempted by lag. */
const preemptShare = (l: LagPreemption): number => l.preempts / Math.max(1, l.busyWakeups)

/**
 * Time runnable that grew from `b` to `w`, by EEVDF's preemption on wake-up (host/lag-preemptions.ts):
 * under the worse one, fewer of the process's wake-ups to a busy CPU preempted the running task by
 * its lag — by a sixth of them or more — so more waited; or woken tasks preempted it by their lag,
 * and its waits after make up at least half its runnable time's growth. Null when neither.
 */
export function lagOf(w: Side, b: Side): { mechanism: Mechanism; detail: string } | null {
  const lw = w.stages?.lag ?? NO_LAG
  const lb = b.stages?.lag ?? NO_LAG
  const name = w.proc.name
  const rw = w.proc.time?.runnable ?? 0
  const rb = b.proc.time?.runnable ?? 0
  const runnable = `it waited ${num(rw)} s runnable under ${w.label}, ${num(rb)} s under ${b.label}`
  const [fw, fb] = [preemptShare(lw), preemptShare(lb)]
  if (lb.busyWakeups > 0 && lw.busyWakeups > 0 && fb - fw >= 1 / 6)
    return {
      mechanism: 'lag-preemption',
      detail:
        `Woken to a busy CPU, the ${name} preempted the running task at once when it came back with positive lag ` +
        `(EEVDF: it had run less than its share when it slept, so it was placed that far behind the average vruntime and the running task, ahead of it, was no longer eligible) ` +
        `${num(lw.preempts)} of ${num(lw.busyWakeups)} times (${num(fw * 100, 2)} %) under ${w.label}, ${num(lb.preempts)} of ${num(lb.busyWakeups)} (${num(fb * 100, 2)} %) under ${b.label}; ` +
        `the other times it waited for the running task's slice to end, or found it over: ${runnable}.`,
    }
  const grown = grew(w, b, (s) => s.stages?.lag?.waitedNs ?? 0) / 1e9
  const runGrown = rw / MB(w.proc) - rb / MB(b.proc)
  if (lw.preempted > 0 && runGrown > 0 && grown >= SHARE * runGrown)
    return {
      mechanism: 'lag-preemption',
      detail:
        `Tasks woken with positive lag (EEVDF) preempted the ${name} within its slice ${num(lw.preempted)} times under ${w.label}, ${num(lb.preempted)} under ${b.label}, ` +
        `and it then waited ${num(lw.waitedNs / 1e9)} s for the CPU in all (${num(lb.waitedNs / 1e9)} s under ${b.label}): ${runnable}.`,
    }
  return null
}
