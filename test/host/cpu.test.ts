import { describe, expect, it } from 'vitest'
import { Engine } from '../../src/shared/sim/engine'
import type { Handler } from '../../src/shared/sim/engine'
import { CpuScheduler, niceWeight } from '../../src/shared/host/cpu'
import type { CpuPolicy, CpuTask } from '../../src/shared/host/cpu'
import { MS } from '../../src/shared/sim/time'

/** A task that runs a script of bursts; `onDone` runs between bursts (its continuation). */
class ScriptTask implements CpuTask {
  cpuWork = 0
  cpuTime = 0
  vruntime = 0
  onCpu = -1
  readonly weight: number
  readonly log: [number, string][] = []
  onDone: (() => void) | null = null

  constructor(
    readonly pid: number,
    private readonly cpu: CpuScheduler,
    private readonly engine: Engine,
    private readonly bursts: number[],
    nice = 0,
  ) {
    this.weight = niceWeight(nice)
  }

  cpuDone(): void {
    this.log.push([this.engine.now, 'done'])
    this.onDone?.()
    const next = this.bursts.shift()
    if (next === undefined) this.cpu.release(this)
    else this.cpu.run(this, next)
  }
}

const sched = (policy: CpuPolicy) => {
  const engine = new Engine()
  const cpu = new CpuScheduler(engine, {
    cpus: 1,
    policy,
    quantum: 50 * MS,
    latency: 6 * MS,
    minGranularity: 0.75 * MS,
    wakeupGranularity: 1 * MS,
  })
  return { engine, cpu }
}

describe('CPU scheduler', () => {
  it('under `tick`, a task woken while a hog runs waits for the round-robin boundary', () => {
    const { engine, cpu } = sched('tick')
    const hog = new ScriptTask(1, cpu, engine, Array(100).fill(10 * MS))
    cpu.run(hog, 10 * MS)
    const io = new ScriptTask(2, cpu, engine, [])
    const wake: Handler = { onEvent: () => cpu.run(io, 0.1 * MS) }
    engine.at(12 * MS, wake, 0)
    engine.run(200 * MS)
    expect(io.log[0][0]).toBe(50 * MS + 0.1 * MS) // ran at the 50 ms boundary
  })

  it('under `preemptive`, a woken sleeper preempts a CPU hog at once', () => {
    const { engine, cpu } = sched('preemptive')
    const hog = new ScriptTask(1, cpu, engine, Array(100).fill(10 * MS), 19)
    cpu.run(hog, 10 * MS)
    engine.run(30 * MS) // the hog builds up vruntime
    const io = new ScriptTask(2, cpu, engine, [])
    const wake: Handler = { onEvent: () => cpu.run(io, 0.1 * MS) }
    engine.at(32 * MS, wake, 0)
    engine.run(40 * MS)
    expect(io.log[0][0]).toBe(32 * MS + 0.1 * MS)
  })

  it('defers a preemption asked for during a continuation to the end of that continuation', () => {
    const { engine, cpu } = sched('preemptive')
    const parent = new ScriptTask(1, cpu, engine, [5 * MS, 1 * MS], 19)
    cpu.run(parent, 20 * MS)
    const child = new ScriptTask(2, cpu, engine, [])
    // at its first burst's end the parent wakes the child (a fork), then asks for more CPU
    parent.onDone = () => {
      if (child.log.length === 0 && child.onCpu < 0 && child.cpuTime === 0) cpu.run(child, 2 * MS)
      parent.onDone = null
    }
    engine.run()
    // the child preempts the (niced) parent only once the parent's continuation has finished
    expect(child.log).toEqual([[22 * MS, 'done']])
    expect(parent.log.map((x) => x[0])).toEqual([20 * MS, 27 * MS, 28 * MS])
    // CPU time is exactly the work done, for both
    expect(parent.cpuTime).toBe(26 * MS)
    expect(child.cpuTime).toBe(2 * MS)
    expect(cpu.busyTime).toBe(28 * MS)
  })
})
