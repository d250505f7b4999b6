// A whole simulated machine from a spec, as the runner builds it, with the kernel left in reach:
// tests of host mechanisms (kswapd, reclaim, process memory) read its state and the dispatch log.
import { Engine } from '../../src/shared/sim/engine'
import type { Handler } from '../../src/shared/sim/engine'
import { Rng } from '../../src/shared/sim/rng'
import { MS, SECOND } from '../../src/shared/sim/time'
import { BlockQueue } from '../../src/shared/block/queue'
import type { Op, Request } from '../../src/shared/block/types'
import { createDevice } from '../../src/shared/devices/registry'
import { Kernel } from '../../src/shared/host/kernel'
import type { Task } from '../../src/shared/host/task'
import { findScheduler } from '../../src/shared/schedulers/registry'
import { findWorkload } from '../../src/shared/workloads/registry'
import { withProcessMemory } from '../../src/shared/workloads/process-memory'
import { resolveSpec } from '../../src/shared/experiment/validate'

export interface Dispatched {
  t: number
  pid: number
  name: string
  op: Op
  sector: number
  nsect: number
}

export function hostRig(spec: unknown, schedIndex = 0) {
  const s = resolveSpec(spec)
  const entry = s.schedulers[schedIndex]
  const type = findScheduler(entry.name)!
  const rng = new Rng(s.seed)
  const engine = new Engine()
  const hv = s.host.values
  const queue = new BlockQueue(
    engine,
    {
      nrRequests: hv.nrRequests as number,
      layer: type.layer,
      hz: hv.hz as number,
      driverTags: type.driverTags,
    },
    rng.fork('block'),
  )
  queue.setDevice(
    createDevice(s.device.model, s.device.values, { engine, sink: queue, rng: rng.fork('device') }),
  )
  queue.setScheduler(type.create(entry.tunables, queue))
  const dispatched: Dispatched[] = []
  queue.observer = {
    dispatched: (rq: Request, now: number) =>
      dispatched.push({
        t: now,
        pid: rq.ctx.pid,
        name: rq.ctx.name,
        op: rq.op,
        sector: rq.sector,
        nsect: rq.nsect,
      }),
    completed: () => {},
    levels: () => {},
  }
  const kernel = new Kernel(engine, queue, hv, rng.fork('host'))
  for (const f of s.files) kernel.addFile({ name: f.name, size: f.size, at: f.atSector })
  const tasks: Task[] = []
  const starter: Handler = { onEvent: (_k, t) => (t as Task).start() }
  for (const p of s.processes) {
    const w = findWorkload(p.type)!
    const env = {
      name: p.name,
      deviceBytes: queue.deviceInfo.capacitySectors * 512,
      file: (n: string) => (n === '/dev' ? kernel.rawDevice() : kernel.file(n)!),
      bufferedDevice: (bytes: number) => kernel.bufferedDevice(bytes),
      rng: (label: string) => rng.fork(`setup:${p.name}:${label}`),
    }
    for (const inst of w.create(p.params, env)) {
      const program = withProcessMemory(inst.program, p.memory, hv, env.rng(`memory${inst.suffix}`))
      const t = kernel.spawn(p.name + inst.suffix, program, {
        ioClass: p.ioClass,
        ioLevel: p.ioLevel,
        nice: p.nice,
      })
      tasks.push(t)
      engine.at(Math.round(p.startMs * MS), starter, 0, t)
    }
  }
  kernel.start()
  const runUntil = (seconds: number): void => engine.run(Math.round(seconds * SECOND))
  return { spec: s, engine, queue, kernel, tasks, dispatched, runUntil }
}
