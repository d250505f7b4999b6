// How long a task woken for an idle CPU waits for it (real/idle-wake-trace.ts): read from a trace
// of the scheduler's wake-ups and switches — here one written for the test, in tracefs' format —
// and put in the fingerprint's host preset with where it came from.
import { describe, expect, it } from 'vitest'
import { idleWakeHost, idleWakeLatencies } from '../../src/main/services/real/idle-wake-trace'
import type { IdleWake } from '../../src/main/services/real/idle-wake-trace'

/** A trace written event by event, in the order given (the kernel's: by time). */
class Trace {
  private readonly lines: string[] = []
  /** µs since the trace's clock began (a machine's uptime: large, as real stamps are). */
  us = 51_674_000_000

  private line(task: string, cpu: number, flags: string, event: string): void {
    const t = (this.us / 1e6).toFixed(6)
    this.lines.push(`${task.padStart(16)} [00${cpu}] ${flags} ${t}: ${event}`)
  }

  /** `task` on `cpu` (or an interrupt there) wakes pid `pid` for `target`. */
  waking(task: string, cpu: number, pid: number, target: number): this {
    this.line(task, cpu, 'd..3.', `sched_waking: comm=p${pid} pid=${pid} prio=120 target_cpu=00${target}`)
    return this
  }

  /** The wake-up done: printed on the target where it came by IPI (the wake list), as here. */
  wakeup(cpu: number, pid: number, target: number): this {
    this.line(
      '<idle>-0',
      cpu,
      'dNh3.',
      `sched_wakeup: comm=p${pid} pid=${pid} prio=120 target_cpu=00${target}`,
    )
    return this
  }

  /** `cpu` switches from pid `prev` to pid `next` (0: the idle task). */
  switch(cpu: number, prev: number, next: number): this {
    const comm = (p: number): string => (p === 0 ? `swapper/${cpu}` : `p${p}`)
    this.line(
      `${comm(prev)}-${prev}`,
      cpu,
      'd..2.',
      `sched_switch: prev_comm=${comm(prev)} prev_pid=${prev} prev_prio=120 prev_state=${prev === 0 ? 'R' : 'S'} ==> next_comm=${comm(next)} next_pid=${next} next_prio=120`,
    )
    return this
  }

  after(us: number): this {
    this.us += us
    return this
  }

  lost(cpu: number): this {
    this.lines.push(`CPU:${cpu} [LOST 812 EVENTS]`)
    return this
  }

  get text(): string {
    return this.lines.join('\n')
  }
}

/**
 * Two CPUs, fio (pid 100) on CPU 0 and the loop worker (pid 200) woken on CPU 1: `remote` times a
 * wake-up by fio of the worker onto idle CPU 1 (it runs 40 µs later), `local` times one by an
 * interrupt on idle CPU 1 of the worker there (9 µs).
 */
function trace(remote: number, local: number): Trace {
  const t = new Trace().switch(0, 0, 100).switch(1, 200, 0)
  for (let i = 0; i < remote; i++)
    t.after(100)
      .waking('p100-100', 0, 200, 1)
      .after(35)
      .wakeup(1, 200, 1)
      .after(5)
      .switch(1, 0, 200)
      .after(20)
      .switch(1, 200, 0)
  for (let i = 0; i < local; i++)
    t.after(100)
      .waking('<idle>-0', 1, 200, 1)
      .wakeup(1, 200, 1)
      .after(9)
      .switch(1, 0, 200)
      .after(20)
      .switch(1, 200, 0)
  return t
}

/**
 * The trace gives `trace(60, 60)`'s figures: the wake-ups added to it are left out, but for
 * `remote` and `local` more at its 40 and 9 µs.
 */
function expectTheSixty(text: string, remote = 0, local = 0): void {
  const w = idleWakeLatencies(text)!
  expect(w).toMatchObject({ remote: 60 + remote, local: 60 + local })
  expect(w.idleWakeUs).toBeCloseTo(40, 2)
  expect(w.idleExitUs).toBeCloseTo(9, 2)
}

describe('wake-ups onto idle CPUs, from a trace', () => {
  it('times a wake-up from another CPU and one on the idle CPU itself, each apart', () => {
    const w = idleWakeLatencies(trace(60, 60).text)!
    expect(w.remote).toBe(60)
    expect(w.local).toBe(60)
    expect(w.idleWakeUs).toBeCloseTo(40, 2)
    expect(w.idleExitUs).toBeCloseTo(9, 2)
  })

  it('leaves out a target that was busy at the wake-up, even one that idled before the task ran', () => {
    const t = trace(60, 60)
    // CPU 1 runs pid 300 when fio wakes the worker for it: the worker waits for 300's sleep
    t.after(100).switch(1, 0, 300).after(10).waking('p100-100', 0, 200, 1).wakeup(0, 200, 1)
    t.after(200).switch(1, 300, 200).after(20).switch(1, 200, 0)
    // again, but 300 goes to sleep first: idle, then the worker — not idle at the wake-up
    t.after(100).switch(1, 0, 300).after(10).waking('p100-100', 0, 200, 1).wakeup(0, 200, 1)
    t.after(200).switch(1, 300, 0).after(1).switch(1, 0, 200).after(20).switch(1, 200, 0)
    // an interrupt on CPU 1 wakes the worker while 300 runs there
    t.after(100).switch(1, 0, 300).after(10).waking('p300-300', 1, 200, 1).wakeup(1, 200, 1)
    t.after(300).switch(1, 300, 200).after(20).switch(1, 200, 0)
    expectTheSixty(t.text)
  })

  it('leaves out a wake-up whose idle target ran another task first', () => {
    const t = trace(60, 60)
    // CPU 1 idle at the wake-up, but pid 300 (woken too) runs there first
    t.after(100).waking('p100-100', 0, 200, 1).waking('p100-100', 0, 300, 1)
    t.after(35).wakeup(1, 300, 1).wakeup(1, 200, 1).after(5).switch(1, 0, 300)
    t.after(400).switch(1, 300, 200).after(20).switch(1, 200, 0)
    // … and again, 300 sleeping before the worker runs: from idle, but not idle all along
    t.after(100).waking('<idle>-0', 1, 200, 1).waking('<idle>-0', 1, 300, 1)
    t.wakeup(1, 300, 1).wakeup(1, 200, 1).after(9).switch(1, 0, 300)
    t.after(400).switch(1, 300, 0).after(1).switch(1, 0, 200).after(20).switch(1, 200, 0)
    // pid 300's own wake-ups were from idle, at 40 and 9 µs: counted
    expectTheSixty(t.text, 1, 1)
  })

  it('leaves out a task that ran elsewhere than its target, one still on a CPU, and a gap the buffer lost', () => {
    const t = trace(60, 60)
    // woken for CPU 1, moved and run on CPU 0 (idle by then)
    t.after(100).switch(0, 100, 0).after(5).waking('<idle>-0', 1, 200, 1).wakeup(1, 200, 1)
    t.after(300).switch(0, 0, 200).after(20).switch(0, 200, 100)
    // fio still on CPU 0 (about to sleep) when an interrupt on idle CPU 1 wakes it there
    t.after(100).waking('<idle>-0', 1, 100, 1).wakeup(1, 100, 1)
    t.after(50).switch(0, 100, 0).after(1).switch(1, 0, 100).after(20).switch(1, 100, 0)
    t.after(5).switch(0, 0, 100)
    // events lost after a wake-up: what CPU 1 did meanwhile is unknown
    t.after(100).waking('p100-100', 0, 200, 1).lost(1).wakeup(1, 200, 1).after(500).switch(1, 0, 200)
    t.after(20).switch(1, 200, 0)
    expectTheSixty(t.text)
  })

  it('gives a figure only from 50 wake-ups, and null when it has neither', () => {
    expect(idleWakeLatencies(trace(60, 49).text)).toEqual({
      idleWakeUs: expect.closeTo(40, 2) as number,
      idleExitUs: null,
      remote: 60,
      local: 49,
    })
    expect(idleWakeLatencies(trace(49, 49).text)).toBeNull()
    expect(idleWakeLatencies('')).toBeNull()
  })

  it('counts no wake-up without its sched_wakeup (its target unknown)', () => {
    const t = trace(0, 0)
    for (let i = 0; i < 60; i++)
      t.after(100).waking('p100-100', 0, 200, 1).after(40).switch(1, 0, 200).after(20).switch(1, 200, 0)
    expect(idleWakeLatencies(t.text)).toBeNull()
  })

  it('takes the mean of the middle 80 %', () => {
    const t = trace(0, 0)
    // 30 wake-ups at 39 µs, 15 at 42, 5 at 1 ms (the CPU taken meanwhile by the hypervisor)
    for (let i = 0; i < 50; i++)
      t.after(100)
        .waking('p100-100', 0, 200, 1)
        .after(1)
        .wakeup(1, 200, 1)
        .after(i < 30 ? 38 : i < 45 ? 41 : 999)
        .switch(1, 0, 200)
        .after(20)
        .switch(1, 200, 0)
    // the five longest and five shortest left out: (25 × 39 + 15 × 42) / 40, not the median's 39
    expect(idleWakeLatencies(t.text)!.idleWakeUs).toBeCloseTo(40.125, 2)
  })
})

describe('the wake-up latencies in the host preset', () => {
  const found: IdleWake = { idleWakeUs: 41.2, idleExitUs: 9.1, remote: 4000, local: 6000 }
  const fresh = () => ({
    overrides: { cpus: 2 } as Record<string, unknown>,
    sources: {} as Record<string, string>,
  })

  it('puts each measured figure there, saying how it was measured', () => {
    const host = fresh()
    const notices: string[] = []
    idleWakeHost(host, found, (m) => notices.push(m))
    expect(host.overrides).toEqual({ cpus: 2, idleWakeUs: 41.2, idleExitUs: 9.1 })
    expect(host.sources.idleWakeUs).toMatch(
      /^measured: .*another that was idle \(ftrace sched_waking → sched_switch on an idle CPU, 4000 wake-ups, trimmed mean of the middle 80 %\)/,
    )
    expect(host.sources.idleExitUs).toMatch(/^measured: .*interrupt on an idle CPU.* 6000 wake-ups/)
    expect(notices).toEqual([
      'a task woken for an idle CPU runs from another CPU after 41.2 µs, from an interrupt on it after 9.1 µs (traced)',
    ])
  })

  it('leaves out a figure it saw too few wake-ups for, and all where the probe did not trace them, saying so', () => {
    const host = fresh()
    const notices: string[] = []
    idleWakeHost(host, { ...found, idleExitUs: null, local: 12 }, (m) => notices.push(m))
    expect(host.overrides).toEqual({ cpus: 2, idleWakeUs: 41.2 })
    expect(host.sources.idleExitUs).toBeUndefined()
    expect(notices.at(-1)).toMatch(/not measured on the idle CPU itself \(12 wake-ups of 50 needed\): .*as 0/)
    const none = fresh()
    idleWakeHost(none, 'the kernel has no sched/sched_waking tracepoint', (m) => notices.push(m))
    expect(none).toEqual(fresh())
    expect(notices.at(-1)).toBe(
      "the idle CPUs' wake-up latencies were not measured (the kernel has no sched/sched_waking tracepoint): the model takes them as 0",
    )
  })
})
