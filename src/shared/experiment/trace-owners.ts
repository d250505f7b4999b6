/**
 * Which process of a real run a traced pid is. fio runs every job as a thread of one process
 * (`thread=1`), and all of them are called "fio" in a trace, so a job is known by where it does
 * I/O: each job's byte range of the device (its `offset` and `size`, fio-job.ts) and whether it
 * writes. Kernel threads get the names the simulator gives their requests: writeback ("flush")
 * and the rest ("kernel").
 */
export interface TraceOwner {
  /** The run's process name (`rr/3`, `writer`). */
  process: string
  /** Its sectors on the traced device: [startSector, endSector). */
  startSector: number
  endSector: number
  /** It may write (a job that only reads does not own writes in its range). */
  writes: boolean
}

/** Commands of kernel threads that issue I/O (kworker: writeback and other deferred work). */
const KERNEL_THREAD =
  /^(kworker\/|jbd2\/|kswapd|ksoftirqd\/|kcompactd|khugepaged|kthreadd|xfsaild|btrfs-|swapper)/

/**
 * Name a traced pid at its first queued bio (TraceStagesOptions.nameOf). A pid of the engine's
 * command (`engineComm`) is the job whose range holds the bio's first sector and whose direction
 * fits; when several do (jobs sharing a file), the first not yet named for another pid (fio starts
 * its jobs' threads in job order), else the first. Without a fitting job: `single` when the run has
 * one process, else the command. kworker → "flush", other kernel threads → "kernel", anything else
 * (another program on the device) → its command.
 */
export function ownerNamer(o: {
  owners: readonly TraceOwner[]
  engineComm: string
  single?: string
}): (pid: number, comm: string, sector: number, write: boolean) => string {
  const taken = new Set<TraceOwner>()
  return (pid, comm, sector, write) => {
    if (comm.startsWith('kworker/')) return 'flush'
    if (KERNEL_THREAD.test(comm)) return 'kernel'
    if (comm !== o.engineComm) return comm || `pid ${pid}`
    const fit = o.owners.filter(
      (w) => sector >= w.startSector && sector < w.endSector && (w.writes || !write),
    )
    const pick = fit.find((w) => !taken.has(w)) ?? fit[0]
    if (pick) {
      taken.add(pick)
      return pick.process
    }
    return o.single ?? comm
  }
}
