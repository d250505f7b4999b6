// A small rig for block-layer and scheduler tests: an engine, a block queue with a scheduler and
// a null_blk device, and helpers to submit bios and read back the dispatch log.
import { Engine } from '../../src/shared/sim/engine'
import { Rng } from '../../src/shared/sim/rng'
import { BlockQueue } from '../../src/shared/block/queue'
import type { SlotWaiter } from '../../src/shared/block/queue'
import { IOPRIO_NONE, READ } from '../../src/shared/block/types'
import type { Bio, BioOwner, IoContext, Op, Request } from '../../src/shared/block/types'
import { NullBlk, nullblkParams } from '../../src/shared/devices/nullblk'
import type { SchedulerType } from '../../src/shared/schedulers/scheduler'
import { resolveParams } from '../../src/shared/util/params'
import type { ParamValues } from '../../src/shared/util/params'

export interface Dispatch {
  t: number
  id: number
  sector: number
  nsect: number
  op: Op
  pid: number
}

export function ctx(pid: number, name = `p${pid}`): IoContext {
  return { pid, name, ioClass: IOPRIO_NONE, ioLevel: 4, exited: false }
}

export function makeRig(
  type: SchedulerType,
  tunables: Partial<ParamValues> = {},
  dev: Partial<ParamValues> = {},
  nrRequests = 128,
  hz = 1000,
) {
  const engine = new Engine()
  const queue = new BlockQueue(engine, { nrRequests, layer: type.layer, hz }, new Rng(1))
  const devValues = resolveParams(nullblkParams, dev, 'device', [])
  queue.setDevice(new NullBlk(devValues, { engine, sink: queue, rng: new Rng(2) }))
  const issues: { path: string; message: string }[] = []
  const t = resolveParams(type.tunables, tunables, 'tunables', issues)
  if (issues.length) throw new Error(JSON.stringify(issues))
  queue.setScheduler(type.create(t, queue))
  const dispatches: Dispatch[] = []
  const completions: { t: number; id: number }[] = []
  queue.observer = {
    dispatched: (rq: Request, now: number) =>
      dispatches.push({ t: now, id: rq.id, sector: rq.sector, nsect: rq.nsect, op: rq.op, pid: rq.ctx.pid }),
    completed: (rq: Request, now: number) => completions.push({ t: now, id: rq.id }),
    levels: () => {},
  }
  const done: Bio[] = []
  const owner: BioOwner = { bioDone: (b) => void done.push(b) }
  const waiter: SlotWaiter & { granted: number } = { granted: 0, slotGranted: () => void waiter.granted++ }
  const submit = (
    sector: number,
    nsect: number,
    op: Op = READ,
    c: IoContext = ctx(1),
    sync = op === READ,
  ): boolean => {
    return queue.submit(queue.makeBio(sector, nsect, op, sync, c, owner, null, sector), waiter)
  }
  return { engine, queue, dispatches, completions, done, submit, waiter }
}
