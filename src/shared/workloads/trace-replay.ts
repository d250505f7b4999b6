import type { Program, Sys } from '../host/program'
import type { SimFile } from '../host/files'
import { READ, WRITE } from '../block/types'
import { SECOND } from '../sim/time'
import type { SimTime } from '../sim/time'
import type { ParamValues } from '../util/params'
import { TraceParseError, deviceServiceTimes, isSync, isWrite, parseBlkparse } from '../formats/blkparse'
import type { TraceEvent } from '../formats/blkparse'
import type { ProcessInstance, WorkloadType } from './workload'

interface Replayed {
  at: SimTime
  sector: number
  nsect: number
  write: boolean
  sync: boolean
}

/**
 * Replays one traced process's queued I/O (blktrace Q events) on the raw device at the recorded
 * times (scaled by `timeScale`), without waiting for completions — an open-loop replay, so the
 * schedulers see the same arrivals the traced system saw.
 */
class TraceProcess implements Program {
  private i = 0

  constructor(
    private readonly dev: SimFile,
    private readonly ios: Replayed[],
  ) {}

  step(sys: Sys): void {
    if (this.i >= this.ios.length) {
      if (sys.aioInFlight > 0) return sys.aioWait(sys.aioInFlight)
      return sys.exit()
    }
    const io = this.ios[this.i]
    if (io.at > sys.now) return sys.sleep(io.at - sys.now)
    this.i++
    sys.aioSubmit(this.dev, io.sector * 512, io.nsect * 512, io.write ? WRITE : READ, io.sync)
  }

  progress(): number {
    return this.i / this.ios.length
  }
}

const queued = (text: string): TraceEvent[] => parseBlkparse(text).filter((e) => e.action === 'Q')

export const traceReplay: WorkloadType = {
  name: 'trace-replay',
  summary: 'replay a blkparse trace: each traced process issues its queued I/O at the recorded times',
  params: [
    {
      name: 'trace',
      kind: 'string',
      default: '',
      unit: '',
      meaning: 'blkparse text output (the CLI fills it from a "traceFile" path)',
    },
    {
      name: 'timeScale',
      kind: 'number',
      default: 1,
      unit: '×',
      meaning: 'stretch (> 1) or compress (< 1) the recorded times',
      min: 0.001,
      max: 1000,
    },
  ],
  check: (p, device) => {
    try {
      const q = queued(p.trace as string)
      if (q.length === 0) return [['trace', 'no Q (queued) events in the trace']]
      const last = q.reduce((m, e) => Math.max(m, e.sector + e.nsect), 0)
      if (device.capacitySectors > 0 && last > device.capacitySectors)
        return [['trace', `the trace reaches sector ${last}, beyond the device's ${device.capacitySectors}`]]
      return []
    } catch (e) {
      if (e instanceof TraceParseError) return [['trace', e.message]]
      throw e
    }
  },
  files: () => [],
  openEnded: () => false,
  instances: (p) => new Set(queued(p.trace as string).map((e) => e.pid)).size,
  plannedOps: (p) => queued(p.trace as string).length,
  ioBytes: (p) => queued(p.trace as string).reduce((a, e) => Math.min(a, e.nsect * 512), 4096),
  measuredServiceNs: (p) =>
    deviceServiceTimes(parseBlkparse(p.trace as string)).map((s) => Math.round(s * SECOND)),
  create: (p: ParamValues, env) => {
    const events = queued(p.trace as string)
    const t0 = events.length ? events[0].time : 0
    const scale = p.timeScale as number
    const byPid = new Map<number, Replayed[]>()
    for (const e of events) {
      const list = byPid.get(e.pid) ?? []
      if (list.length === 0) byPid.set(e.pid, list)
      list.push({
        at: Math.round((e.time - t0) * scale * SECOND),
        sector: e.sector,
        nsect: e.nsect,
        write: isWrite(e.rwbs),
        sync: isSync(e.rwbs),
      })
    }
    const dev = env.file('/dev')
    const out: ProcessInstance[] = []
    for (const [pid, ios] of [...byPid].sort((a, b) => a[0] - b[0]))
      out.push({ suffix: `/${pid}`, program: new TraceProcess(dev, ios) })
    return out
  },
}
