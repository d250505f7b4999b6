import type { SimTime } from '../sim/time'
import { MS, US } from '../sim/time'
import type { HostThread } from '../devices/device'
import type { ParamValues } from '../util/params'

/**
 * What the CPU scheduler needs of a task: what a device's thread has (devices/device.ts
 * HostThread, whose fields say what each is), and under wake packing its utilization.
 */
export interface CpuTask extends HostThread {
  /** `pack`: its PELT utilization (pelt-util.ts) as of `utilAt` (absent: not yet run). */
  util?: number
  utilAt?: SimTime
  /**
   * A process just forked for the run, not a kernel thread that was there before it: under `pack`
   * its utilization starts where it first runs (CpuUtil.forked).
   */
  justForked?: boolean
}

export type CpuPolicy = 'tick' | 'preemptive' | 'eevdf'

export interface CpuParams {
  cpus: number
  policy: CpuPolicy
  /** `tick`: round-robin interval; the running process is switched only at these boundaries. */
  quantum: SimTime
  /** `preemptive`: CFS's sched_latency (period in which every runnable task runs once). */
  latency: SimTime
  /** `preemptive`: minimum slice; `eevdf`: the slice (base_slice). */
  minGranularity: SimTime
  /** `preemptive`: a woken task preempts when its vruntime lags the current one's by more than this. */
  wakeupGranularity: SimTime
  /**
   * Wake a task on the CPU of what woke it — the waking task's, or the interrupt's — when the two
   * fit it (CpuUtil.fits), behind the task running there; else on its own last CPU if idle, else
   * its waker's (a task's) or its own; unless another already waits for that CPU (then anywhere).
   * Off: on any idle CPU.
   */
  pack?: boolean
  /** From a wake-up on another CPU to the woken task running on an idle CPU (cpu-idle-params.ts idleWakeUs); 0: at once. */
  idleWake?: SimTime
  /** From an interrupt on an idle CPU — or a wake-up from nowhere known — waking a task there to that task running (idleExitUs); 0: at once. */
  idleExit?: SimTime
}

/** CFS's prio_to_weight table: nice -20 … 19. */
const NICE_WEIGHTS = [
  88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916, 9548, 7620, 6100, 4904, 3906, 3121,
  2501, 1991, 1586, 1277, 1024, 820, 655, 526, 423, 335, 272, 215, 172, 137, 110, 87, 70, 56, 45, 36, 29, 23,
  18, 15,
]
export const niceWeight = (nice: number): number =>
  NICE_WEIGHTS[Math.max(-20, Math.min(19, Math.round(nice))) + 20]

/** The host's CPU parameters (host/params.ts: ms, a policy name, a flag) in scheduler units. */
export function cpuParamsOf(hv: ParamValues): CpuParams {
  const ms = (k: string): SimTime => Math.round((hv[k] as number) * MS)
  const us = (k: string): SimTime => Math.round(((hv[k] as number | undefined) ?? 0) * US)
  return {
    cpus: hv.cpus as number,
    policy: hv.cpuPolicy as CpuPolicy,
    quantum: ms('quantumMs'),
    latency: ms('schedLatencyMs'),
    minGranularity: ms('minGranularityMs'),
    wakeupGranularity: ms('wakeupGranularityMs'),
    pack: hv.wakePacking === true,
    idleWake: us('idleWakeUs'),
    idleExit: us('idleExitUs'),
  }
}
