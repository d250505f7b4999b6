/** Counters of one device in /proc/diskstats (kernel Documentation/admin-guide/iostats.rst). */
export interface DiskCounters {
  reads: number
  readMerges: number
  readSectors: number
  readMs: number
  writes: number
  writeMerges: number
  writeSectors: number
  writeMs: number
  /** I/Os currently in progress (a level, not a counter). */
  inProgress: number
  /** ms with at least one I/O in progress (iostat %util). */
  ioMs: number
  /** Sum of each I/O's time in the block layer, ms (iostat aqu-sz = Δ / Δt). */
  weightedMs: number
}

/** The line of `device` in /proc/diskstats, or null when it is not there. */
export function parseDiskstats(text: string, device: string): DiskCounters | null {
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/)
    if (f[2] !== device || f.length < 14) continue
    const n = f.slice(3).map(Number)
    return {
      reads: n[0],
      readMerges: n[1],
      readSectors: n[2],
      readMs: n[3],
      writes: n[4],
      writeMerges: n[5],
      writeSectors: n[6],
      writeMs: n[7],
      inProgress: n[8],
      ioMs: n[9],
      weightedMs: n[10],
    }
  }
  return null
}

/** The /proc/vmstat counters behind `vmstat 1`'s bi/bo, and the dirty page levels. */
export interface VmCounters {
  /** KiB read from block devices (vmstat bi is its rate). */
  pgpgin: number
  /** KiB written (bo). */
  pgpgout: number
  /** Pages dirty and under writeback (levels). */
  nrDirty: number
  nrWriteback: number
}

export function parseVmstat(text: string): VmCounters {
  const v: Record<string, number> = {}
  for (const line of text.split('\n')) {
    const [k, x] = line.trim().split(/\s+/)
    if (k) v[k] = Number(x)
  }
  return {
    pgpgin: v.pgpgin ?? 0,
    pgpgout: v.pgpgout ?? 0,
    nrDirty: v.nr_dirty ?? 0,
    nrWriteback: v.nr_writeback ?? 0,
  }
}

/** `/sys/block/X/inflight`: requests at the driver, reads and writes. */
export function parseInflight(text: string): number {
  const [r, w] = text.trim().split(/\s+/).map(Number)
  return (r || 0) + (w || 0)
}

/** CPU time of the whole machine from /proc/stat's first line, in clock ticks. */
export interface CpuCounters {
  /** user + nice + system + irq + softirq + steal: time not idle and not waiting for I/O. */
  busy: number
  /** busy + idle + iowait. */
  total: number
  /** CPUs (the cpuN lines). */
  cpus: number
}

export function parseProcStat(text: string): CpuCounters {
  let busy = 0
  let total = 0
  let cpus = 0
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/)
    if (f[0] === 'cpu') {
      const [user, nice, system, idle, iowait, irq, softirq, steal] = f.slice(1, 9).map((x) => Number(x) || 0)
      busy = user + nice + system + irq + softirq + steal
      total = busy + idle + iowait
    } else if (/^cpu\d+$/.test(f[0])) cpus++
  }
  return { busy, total, cpus: Math.max(1, cpus) }
}
