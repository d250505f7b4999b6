import type { TraceOwner } from '../../../shared/experiment/trace-owners'
import type { FioJobEntry } from './fio-job'

/**
 * Each fio job's sectors on the device (its `offset` and `size` on `filename`), to tell its thread
 * in a blktrace (trace-owners.ts). Jobs without I/O on the device (cpuio) own nothing.
 */
export function traceOwnersOf(jobs: readonly FioJobEntry[], device: string): TraceOwner[] {
  const out: TraceOwner[] = []
  for (const j of jobs) {
    const opt = (k: string): string | undefined => j.options.find(([n]) => n === k)?.[1]
    if (opt('filename') !== device) continue
    const offset = Number(opt('offset') ?? 0)
    const size = Number(opt('size') ?? 0)
    if (!(Number.isFinite(offset) && Number.isFinite(size) && size > 0)) continue
    out.push({
      process: j.process,
      startSector: Math.floor(offset / 512),
      endSector: Math.ceil((offset + size) / 512),
      writes: !j.readsOnly,
    })
  }
  return out
}
