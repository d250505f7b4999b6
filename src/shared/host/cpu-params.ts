import type { SimTime } from '../sim/time'
import { MS } from '../sim/time'
import type { ParamValues } from '../util/params'
import type { CpuParams, CpuPolicy } from './cpu'

/** The host's CPU parameters (host/params.ts: ms, a policy name, a flag) in scheduler units. */
export function cpuParamsOf(hv: ParamValues): CpuParams {
  const ms = (k: string): SimTime => Math.round((hv[k] as number) * MS)
  return {
    cpus: hv.cpus as number,
    policy: hv.cpuPolicy as CpuPolicy,
    quantum: ms('quantumMs'),
    latency: ms('schedLatencyMs'),
    minGranularity: ms('minGranularityMs'),
    wakeupGranularity: ms('wakeupGranularityMs'),
    pack: hv.wakePacking === true,
  }
}
