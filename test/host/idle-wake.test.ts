// A task woken for an idle CPU runs there only once that CPU has left its idle state (cpu.ts
// `arrive`, cpu-idle-params.ts): from another CPU the wake-up IPI and the halted vCPU's return
// (idleWakeUs), from an interrupt on that CPU itself only the way out of the idle loop
// (idleExitUs). Measured on this machine (Linux 6.18 Firecracker guest, cpuidle-haltpoll with
// guest_halt_poll_ns = 0, ftrace sched_waking → sched_switch, /work/runs/s15 2026-12-07): a QD1
// direct writer's fio woken by CPU1's softirq onto idle CPU0 ran after p50 41 µs (4 066 wake-ups),
// the loop worker woken by fio onto the other, idle CPU after 41 µs (1 984); a task an interrupt
// woke on its own idle CPU after 8–9 µs (6 077); on a busy CPU 1–3 µs.
import { describe, expect, it } from 'vitest'
import { Engine } from '../../src/shared/sim/engine'
import type { Handler } from '../../src/shared/sim/engine'
import { CpuScheduler } from '../../src/shared/host/cpu'
import type { CpuTask } from '../../src/shared/host/cpu'
import { MS, US } from '../../src/shared/sim/time'
import { simulate } from '../../src/shared/experiment/runner'
import { resolveSpec } from '../../src/shared/experiment/validate'
import { randomReader } from '../helpers/fio-process'
import { LAB_VM_CPUS } from '../helpers/lab-vm-cpus'
import { TestTask, testCpuParams } from '../helpers/cpu-params'

class Burst extends TestTask implements CpuTask {
  vruntime = 0
  /** When each burst ended. */
  readonly done: number[] = []
  constructor(
    readonly pid: number,
    private readonly engine: Engine,
    private readonly cpu: CpuScheduler,
  ) {
    super()
  }
  cpuDone(now: number): void {
    this.done.push(now)
    this.cpu.release(this)
  }
  wake(work: number): void {
    this.cpu.run(this, work)
  }
}

const IDLE_WAKE = 41 * US
const IDLE_EXIT = 8 * US

const setup = (idleWake = IDLE_WAKE, idleExit = IDLE_EXIT) => {
  const engine = new Engine()
  const cpu = new CpuScheduler(engine, testCpuParams(2, { idleWake, idleExit }))
  const at = (t: number, fn: () => void): void => {
    const h: Handler = { onEvent: fn }
    engine.at(t, h, 0)
  }
  return { engine, cpu, at }
}

describe('a task woken for an idle CPU', () => {
  it('runs there after the wake-up IPI when another CPU woke it, and at once at no cost', () => {
    for (const [wake, exit] of [
      [IDLE_WAKE, IDLE_EXIT],
      [0, 0],
    ]) {
      const { engine, cpu, at } = setup(wake, exit)
      const waker = new Burst(1, engine, cpu)
      const woken = new Burst(2, engine, cpu)
      waker.lastCpu = 0
      woken.lastCpu = 1
      // the waker, on CPU0 from 0 (a wake-up from nowhere known: the CPU's own way out of idle)
      at(0, () => waker.wake(100 * US))
      // 10 µs into its burst it wakes the other task, for idle CPU1
      at(exit + 10 * US, () => cpu.within(waker, () => woken.wake(5 * US)))
      engine.run()
      expect(waker.done).toEqual([exit + 100 * US])
      expect(woken.lastCpu).toBe(1)
      expect(woken.done).toEqual([exit + 10 * US + wake + 5 * US])
    }
  })

  it('runs after the idle exit alone when an interrupt on that CPU woke it, after the IPI from another', () => {
    const { engine, cpu, at } = setup()
    const busy = new Burst(1, engine, cpu)
    const local = new Burst(2, engine, cpu)
    at(0, () => busy.wake(1 * MS)) // CPU0 busy: the interrupt's wake-up finds only CPU1 idle
    at(100 * US, () => cpu.interrupt(() => local.wake(5 * US), 1))
    engine.run()
    expect(local.lastCpu).toBe(1)
    expect(local.done).toEqual([100 * US + IDLE_EXIT + 5 * US])

    // CPU1 busy, CPU0 idle again: an interrupt on CPU1 wakes the task for CPU0
    const e = setup()
    const brief = new Burst(1, e.engine, e.cpu)
    const long = new Burst(2, e.engine, e.cpu)
    const remote = new Burst(3, e.engine, e.cpu)
    e.at(0, () => {
      brief.wake(50 * US) // to CPU0, which is then on its way out of idle …
      long.wake(1 * MS) // … so this one goes to CPU1
    })
    e.at(100 * US, () => e.cpu.interrupt(() => remote.wake(5 * US), 1))
    e.engine.run()
    expect([brief.lastCpu, long.lastCpu, remote.lastCpu]).toEqual([0, 1, 0])
    expect(remote.done).toEqual([100 * US + IDLE_WAKE + 5 * US])
  })

  it('keeps that CPU from other wake-ups on its way there', () => {
    const { engine, cpu, at } = setup()
    const waker = new Burst(1, engine, cpu)
    const first = new Burst(2, engine, cpu)
    const second = new Burst(3, engine, cpu)
    waker.lastCpu = 0
    at(0, () => waker.wake(200 * US))
    at(IDLE_EXIT + 10 * US, () => cpu.within(waker, () => first.wake(5 * US)))
    // while `first` is on its way to CPU1, a second wake-up finds no idle CPU and waits
    at(IDLE_EXIT + 20 * US, () => cpu.within(waker, () => second.wake(5 * US)))
    engine.run()
    const firstRan = IDLE_EXIT + 10 * US + IDLE_WAKE
    expect(first.done).toEqual([firstRan + 5 * US])
    // it takes CPU1 when `first` is done there, not before
    expect(second.done[0]).toBeGreaterThanOrEqual(firstRan + 10 * US)
  })
})

describe('the latency of an idle CPU', () => {
  /** A QD`qd` random reader on this machine's loop device, its mean latency (ms) and MB/s. */
  const reader = (qd: number, host: Record<string, number>) => {
    const spec = resolveSpec({
      device: { preset: 'loop-dio-virtio' },
      host: { preset: 'linux-modern', overrides: { ...LAB_VM_CPUS, ...host } },
      workload: {
        processes: [
          randomReader(0.3, {
            iodepth: qd,
            ioengine: qd > 1 ? 'libaio' : 'psync',
            filename: '/dev',
            size: '256M',
          }),
        ],
      },
      schedulers: ['none'],
    })
    const [p] = simulate(spec, 0, 0, { why: false }).processes
    return { meanMs: p.latencyMs.mean, MBps: p.MBps }
  }

  it('lengthens each QD1 read, whose CPUs idle between reads, not reads that keep them busy', () => {
    const off = { idleWakeUs: 0, idleExitUs: 0 }
    const on = { idleWakeUs: 41, idleExitUs: 8 }
    const qd1 = [reader(1, off), reader(1, on)]
    // a QD1 read wakes at least one task on an idle CPU: at least the idle exit more each
    expect((qd1[1].meanMs - qd1[0].meanMs) * 1000).toBeGreaterThan(7)
    const qd1Loss = 1 - qd1[1].MBps / qd1[0].MBps
    expect(qd1Loss).toBeGreaterThan(0.1)
    // 32 in flight keep the worker and fio busy most of the time: a small share of that
    const qd32 = [reader(32, off), reader(32, on)]
    const qd32Loss = 1 - qd32[1].MBps / qd32[0].MBps
    expect(qd32Loss).toBeLessThan(qd1Loss / 2)
  })
})
