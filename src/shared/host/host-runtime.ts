// The host's settings in simulator units (ns, pages), as the kernel model reads them on its paths.
import { MS, US } from '../sim/time'
import type { SimTime } from '../sim/time'
import type { ParamValues } from '../util/params'

/** Host settings converted to simulator units (ns, pages). */
export interface HostRuntime {
  syscall: SimTime
  /** CPU of a blocked task's wake-up and switch back in (host `wakeUs`). */
  wake: SimTime
  copyPerKiB: SimTime
  /** A buffered write()'s work per call beyond the system call and the copy (writeCallUs). */
  writeCall: SimTime
  /** System time of allocating one reported page (0: no free page reporting). */
  freshPage: SimTime
  submit: SimTime
  /** CPU per KiB of a direct transfer in its process, read and write (host dio*UsPerKiB), ns. */
  dioPerKiB: readonly [number, number]
  /** CPU of putting one page under writeback and submitting it, in the writing task (host `writebackPageUs`). */
  writebackPage: SimTime
  fork: SimTime
  throttle: 'sleep' | 'writer-writeback'
  physio: boolean
  /** log2 of the largest folio (in pages) a buffered write makes: 0 = base pages only. */
  folioOrder: number
  dirtyExpire: SimTime
  writebackInterval: SimTime
  /** CPU time of the I/O scheduler's work per request made, charged to the submitter. */
  schedCpu: SimTime
}

/** Host parameters (params.ts) → runtime units; `schedCpu` the scheduler's CPU per request, ns. */
export function hostRuntime(hv: ParamValues, schedCpu: SimTime): HostRuntime {
  const n = (k: string): number => hv[k] as number
  return {
    syscall: Math.max(1, Math.round(n('syscallUs') * US)),
    wake: Math.round(n('wakeUs') * US),
    copyPerKiB: Math.round(n('copyUsPerKiB') * US),
    writeCall: Math.round(((hv.writeCallUs as number | undefined) ?? 0) * US),
    freshPage: Math.round(n('freshPageUs') * US),
    submit: Math.round(n('submitUs') * US),
    dioPerKiB: [
      ((hv.dioReadUsPerKiB as number | undefined) ?? 0) * US,
      ((hv.dioWriteUsPerKiB as number | undefined) ?? 0) * US,
    ],
    writebackPage: Math.round(((hv.writebackPageUs as number | undefined) ?? 0) * US),
    fork: Math.round(n('forkUs') * US),
    throttle: hv.dirtyThrottle as HostRuntime['throttle'],
    physio: hv.physio as boolean,
    folioOrder: Math.max(0, Math.floor(Math.log2(n('largeFolioKiB') / 4))),
    dirtyExpire: n('dirtyExpireMs') * MS,
    writebackInterval: n('dirtyWritebackMs') * MS,
    schedCpu,
  }
}
