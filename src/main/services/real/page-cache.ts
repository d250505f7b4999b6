import { runCommand } from './exec'
import { writeSys } from './sysfs'
import { pageReportingFacts } from './host-capture'
import type { ResolvedSpec } from '../../../shared/experiment/resolved'

/** `sync; echo 3 > /proc/sys/vm/drop_caches`: write dirty data back, then drop clean page cache, dentries and inodes. */
export async function dropPageCache(): Promise<void> {
  await runCommand('sync', [])
  writeSys('/proc/sys/vm/drop_caches', '3')
}

/**
 * How long memory freed now stays the guest's before free page reporting hands it to the
 * hypervisor, ms: mm/page_reporting.c (5.7–6.18) runs its reporting work PAGE_REPORTING_DELAY
 * (2 × HZ) after the first free of a large block, and reports then every free block not yet
 * reported. Measured on this machine's kind (Linux 6.18 Firecracker guest): a 1 MiB buffered
 * write() into pages freed 0.3–1.5 s before took 0.12 ms, into pages freed 2 s or more before
 * 2.3 ms — so 2.5 s (the delay, and half a second for the report itself) leaves nothing warm.
 */
export const REPORTING_SETTLE_MS = 2500

/**
 * Whether a run of the spec allocates memory as it goes: the page cache of buffered I/O (every
 * workload but a direct fio job: dd, cat, bonnie++, kbuild … go through the cache) or anonymous
 * memory of its own. A direct fio job allocates its buffers once, at its start.
 */
export function allocatesAsItRuns(spec: ResolvedSpec): boolean {
  return spec.processes.some((p) => p.memory !== undefined || p.type !== 'fio' || p.params.direct !== true)
}

/**
 * On a VM that reports its free memory (virtio-balloon with VIRTIO_BALLOON_F_REPORTING), wait
 * until what was just freed — the page cache dropped before a run, the previous run's cache
 * dropped at its device's last close — has been reported. Otherwise the first run of a set
 * starts with its memory fresh and the later ones with the previous run's pages still warm, and
 * a buffered writer's first pass runs 20× faster in one repetition than in another (fio 1 MiB
 * writes: 0.12 against 2.3 ms): repetitions that are not alike, and the first scheduler of a set
 * favoured or not by its place. After the wait every run starts as the simulation starts one
 * (host/page-reporting.ts: nothing warm). Returns a note saying what it did, or null when the
 * machine does not report (nothing to wait for).
 */
export async function settleFreePageReporting(o: {
  cancelled: () => boolean
  phase?: (what: string) => void
  reporting?: { on: boolean; from: string }
  sleep?: (ms: number) => Promise<void>
}): Promise<string | null> {
  const reporting = o.reporting ?? pageReportingFacts()
  if (!reporting.on) return null
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)))
  const cancelled = o.cancelled
  o.phase?.(`waiting ${REPORTING_SETTLE_MS / 1000} s for free page reporting to take back the freed memory`)
  // in short steps, so that a cancel is not kept waiting
  for (let waited = 0; waited < REPORTING_SETTLE_MS && !cancelled(); waited += 100) await sleep(100)
  return `waited ${REPORTING_SETTLE_MS / 1000} s after dropping the page cache, until the memory it freed was reported to the hypervisor (${reporting.from}): every run starts with no freed memory still warm`
}
