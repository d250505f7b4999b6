// How long a task woken for an idle CPU waits for that CPU (host idleWakeUs, idleExitUs;
// shared/host/cpu-idle-params.ts), read from a trace of the scheduler's wake-ups and switches — the
// dispatch probe's (dispatch-probe.ts), whose fio writers wake fio and the loop worker thousands of
// times a second. A wake-up from another CPU onto an idle one is an IPI the idle CPU must take (on a
// VM whose idle vCPUs halt, a vCPU the hypervisor runs again); one by an interrupt on the idle CPU
// itself only has the idle loop to leave. Traced by hand on this machine (2026-12-07, Linux 6.18
// Firecracker guest, cpuidle-haltpoll, guest_halt_poll_ns = 0; a QD1 4 KiB direct writer on a loop
// device): from another CPU p50 41 µs (6 000 wake-ups), on the idle CPU itself p50 9 µs (6 000).
import { trimmedMean } from '../../../shared/metrics/stats'

/** The scheduler's wake-up tracepoints the figures need, beside sched_switch. */
export const WAKE_EVENTS = ['sched/sched_waking', 'sched/sched_wakeup'] as const
/** Wake-ups each figure needs at least. */
const ENOUGH = 50
/** The share of each end of the latencies left out of their mean: preemptions, interrupts. */
const TRIM = 0.1

/** The wake-ups onto idle CPUs a trace showed. */
export interface IdleWake {
  /** µs from a wake-up on another CPU to the task running on the idle one (null: too few). */
  idleWakeUs: number | null
  /** µs from a wake-up on the idle CPU itself (an interrupt there) to the task running (null: too few). */
  idleExitUs: number | null
  /** Wake-ups measured of each kind. */
  remote: number
  local: number
}

const LINE = /^\s*.+-\d+\s+\[(\d+)\]\s+\S+\s+([\d.]+): (sched_waking|sched_wakeup|sched_switch): (.*)$/

/**
 * From a trace's text (tracefs `trace`: sched_waking, sched_wakeup, sched_switch) the latency of
 * each wake-up of a task P onto a CPU T that was idle: from P's sched_waking (on CPU W, at t0) to
 * P's next sched_switch in (on T, at t2) — T being the target of P's sched_wakeup, idle at t0 (its
 * last switch before t0 was to the idle task, pid 0) and switching from idle straight to P. Not
 * counted: a target that ran a task at t0 or ran another one first (that task's time is in the
 * wait), a task still on a CPU at t0 (its wait is for its own switch out), a task that ran on a
 * CPU other than its wake-up's target, and anything across a gap the ring buffer lost. A wake-up
 * from W ≠ T is `idleWakeUs`'s, one from W = T (an interrupt on the idle CPU) `idleExitUs`'s:
 * each the mean of the middle 80 %, null with fewer than 50. Null when both are.
 */
export function idleWakeLatencies(text: string): IdleWake | null {
  /** Each CPU's task (its last switch's next_pid) and that switch's place in the trace. */
  const running = new Map<string, { pid: string; seq: number }>()
  const waking = new Map<string, { t: number; cpu: string; seq: number; target?: string }>()
  const remote: number[] = []
  const local: number[] = []
  let seq = 0
  for (const l of text.split('\n')) {
    // the ring buffer dropped events here: what each CPU ran is no longer known
    if (l.includes('[LOST ')) {
      running.clear()
      waking.clear()
      continue
    }
    const m = LINE.exec(l)
    if (!m) continue
    seq++
    const [, printed, time, kind, rest] = m
    const cpu = String(Number(printed))
    const t = Number(time) * 1e6
    if (kind === 'sched_waking') {
      const pid = / pid=(\d+)/.exec(rest)?.[1]
      if (pid === undefined) continue
      waking.delete(pid)
      // still on a CPU (it has not switched out yet): left out
      let on = false
      for (const r of running.values()) if (r.pid === pid) on = true
      if (!on) waking.set(pid, { t, cpu, seq })
      continue
    }
    if (kind === 'sched_wakeup') {
      const pid = / pid=(\d+)/.exec(rest)?.[1]
      const target = /target_cpu=(\d+)/.exec(rest)?.[1]
      const w = pid === undefined ? undefined : waking.get(pid)
      if (w && target !== undefined) w.target = String(Number(target))
      continue
    }
    const prev = / prev_pid=(\d+)/.exec(rest)?.[1]
    const next = / next_pid=(\d+)/.exec(rest)?.[1]
    if (prev === undefined || next === undefined) continue
    const before = running.get(cpu)
    running.set(cpu, { pid: next, seq })
    const w = waking.get(next)
    if (w === undefined) continue
    waking.delete(next)
    // woken for this CPU, which idled from before the wake-up until it switched to the task
    if (w.target !== cpu || prev !== '0' || before?.pid !== '0' || before.seq > w.seq) continue
    ;(w.cpu === cpu ? local : remote).push(t - w.t)
  }
  const figure = (xs: number[]): number | null =>
    xs.length >= ENOUGH ? Math.round(trimmedMean(xs, TRIM) * 1000) / 1000 : null
  const idleWakeUs = figure(remote)
  const idleExitUs = figure(local)
  if (idleWakeUs === null && idleExitUs === null) return null
  return { idleWakeUs, idleExitUs, remote: remote.length, local: local.length }
}

/** A host preset's values and where each came from (host-capture.ts HostCapture). */
interface HostValues {
  overrides: Record<string, unknown>
  sources: Record<string, string>
}

/**
 * Put what the probe's trace showed of wake-ups onto idle CPUs in the host preset, with where it
 * came from: each figure it measured; one it saw too few wake-ups for, or all where it could not
 * trace them (`found`: why), stay out — the model takes them as 0 — and a notice says so.
 */
export function idleWakeHost(host: HostValues, found: IdleWake | string, notice: (m: string) => void): void {
  const how = (n: number): string =>
    `(ftrace sched_waking → sched_switch on an idle CPU, ${n} wake-ups, trimmed mean of the middle 80 %) during the dispatch probe's fio writers on a scratch loop device`
  if (typeof found === 'string') {
    notice(`the idle CPUs' wake-up latencies were not measured (${found}): the model takes them as 0`)
    return
  }
  const missing: string[] = []
  if (found.idleWakeUs !== null) {
    host.overrides.idleWakeUs = found.idleWakeUs
    host.sources.idleWakeUs = `measured: from a wake-up on one CPU to the task running on another that was idle ${how(found.remote)}`
  } else missing.push(`from another CPU (${found.remote} wake-ups of ${ENOUGH} needed)`)
  if (found.idleExitUs !== null) {
    host.overrides.idleExitUs = found.idleExitUs
    host.sources.idleExitUs = `measured: from a wake-up by an interrupt on an idle CPU to the task running there ${how(found.local)}`
  } else missing.push(`on the idle CPU itself (${found.local} wake-ups of ${ENOUGH} needed)`)
  const said = [
    found.idleWakeUs !== null ? `from another CPU after ${found.idleWakeUs} µs` : '',
    found.idleExitUs !== null ? `from an interrupt on it after ${found.idleExitUs} µs` : '',
  ].filter((s) => s !== '')
  notice(`a task woken for an idle CPU runs ${said.join(', ')} (traced)`)
  if (missing.length > 0)
    notice(
      `the idle CPUs' wake-up latency was not measured ${missing.join(' nor ')}: the model takes it as 0`,
    )
}
