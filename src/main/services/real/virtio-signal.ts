import { readlinkSync } from 'node:fs'
import { basename, join } from 'node:path'
import { readSys, sysBlockDir } from './sysfs'

/**
 * How a virtio disk's host signals completions, measured from the guest: the requests the disk
 * completed (/sys/block/X/stat) over the interrupts of its request queues (/proc/interrupts,
 * "virtioN-req.M" or "virtioN-requests"). A host that performs the ring's requests one after
 * another and interrupts once at the end of each pass — Firecracker's block device with its
 * synchronous engine (src/vmm/src/devices/virtio/block/virtio/device.rs, process_queue) — completes
 * many per interrupt at depth (measured here: 1.02 at QD1, 3.95 at QD4, 19 at QD32); one that
 * signals each completion on its own (an asynchronous engine, a physical controller) about one.
 */
export interface SignalCounts {
  interrupts: number
  completions: number
  /** The interrupts per CPU (the same sum). */
  perCpu?: number[]
}

/** At this share of a deep queue's interrupts on one CPU, that CPU takes them (`irqCpu`). */
export const IRQ_CPU_SHARE = 0.9

/** At this many completions per interrupt over a deep queue, the host signals per pass. */
export const PER_PASS_THRESHOLD = 4

/** Whether a measured signal (QueueFacts.signal) says the host signals once per pass. */
export const signalsPerPass = (signal: { perInterrupt: number } | null | undefined): boolean =>
  (signal?.perInterrupt ?? 0) >= PER_PASS_THRESHOLD

/** The virtio device of a disk (virtio1 for vda), or null when the disk is not virtio. */
export function virtioOf(disk: string): string | null {
  try {
    const dev = basename(readlinkSync(join(sysBlockDir(disk), 'device')))
    return /^virtio\d+$/.test(dev) ? dev : null
  } catch {
    return null
  }
}

/** The interrupts of a virtio device's request queues, over all CPUs, from /proc/interrupts' text. */
export function requestInterrupts(text: string, virtio: string): number {
  return requestInterruptsPerCpu(text, virtio).reduce((a, b) => a + b, 0)
}

/**
 * The same, per CPU: the columns of /proc/interrupts, one per online CPU in order — the k-th online
 * CPU, as the model numbers its CPUs (0 … cpus − 1), whatever the kernel calls it.
 */
export function requestInterruptsPerCpu(text: string, virtio: string): number[] {
  const per: number[] = []
  for (const line of text.split('\n')) {
    const cols = line.trim().split(/\s+/)
    const name = cols[cols.length - 1] ?? ''
    if (!name.startsWith(`${virtio}-req`)) continue
    for (let i = 1; i < cols.length && /^\d+$/.test(cols[i]); i++)
      per[i - 1] = (per[i - 1] ?? 0) + Number(cols[i])
  }
  return per
}

/**
 * The CPU that took at least IRQ_CPU_SHARE of the interrupts between two readings, with its share;
 * null when none did (spread over CPUs, or no readings).
 */
export function interruptCpu(
  before: SignalCounts | null,
  after: SignalCounts | null,
): { cpu: number; share: number } | null {
  if (before?.perCpu === undefined || after?.perCpu === undefined) return null
  const d = after.perCpu.map((n, i) => n - (before.perCpu![i] ?? 0))
  const total = d.reduce((a, b) => a + b, 0)
  if (total <= 0) return null
  const cpu = d.indexOf(Math.max(...d))
  const share = d[cpu] / total
  return share >= IRQ_CPU_SHARE ? { cpu, share } : null
}

/** Completions (reads and writes) from a /sys/block/X/stat line. */
export function completions(stat: string): number {
  const f = stat.trim().split(/\s+/).map(Number)
  return (f[0] ?? 0) + (f[4] ?? 0)
}

/** The disk's counts now, or null when there is none, it is not virtio, or the files cannot be read. */
export function signalCounts(disk: string | null): SignalCounts | null {
  if (disk === null) return null
  const virtio = virtioOf(disk)
  if (virtio === null) return null
  const text = readSys('/proc/interrupts')
  const stat = readSys(join(sysBlockDir(disk), 'stat'))
  if (text === null || stat === null) return null
  const perCpu = requestInterruptsPerCpu(text, virtio)
  return { interrupts: perCpu.reduce((a, b) => a + b, 0), completions: completions(stat), perCpu }
}

/** Completions per interrupt between two readings (null: no interrupts, or no readings). */
export function perInterrupt(before: SignalCounts | null, after: SignalCounts | null): number | null {
  if (before === null || after === null) return null
  const irq = after.interrupts - before.interrupts
  const done = after.completions - before.completions
  return irq > 0 && done > 0 ? done / irq : null
}
