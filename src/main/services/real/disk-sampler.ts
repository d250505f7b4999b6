import { join } from 'node:path'
import type { DeviceTotals } from '../../../shared/experiment/result'
import type { TimeSeriesData } from '../../../shared/metrics/timeseries'
import type { CpuCounters, DiskCounters, VmCounters } from './proc-stats'
import { parseDiskstats, parseInflight, parseProcStat, parseVmstat } from './proc-stats'
import { readSys, sysBlockDir } from './sysfs'

/**
 * The `vmstat 1` view of a real run: system-wide bi/bo (KiB/s), dirty memory (MB), and the CPUs
 * kept busy (user, system, interrupts: 0 … the number of CPUs) — what a fingerprint needs to tell
 * a device's own path on the host from the processes' CPU.
 */
export interface VmstatSeries {
  tMs: number[]
  biKBps: number[]
  boKBps: number[]
  dirtyMB: number[]
  writebackMB: number[]
  busyCpus: number[]
}

export interface DiskSamples {
  /** Length of the sampling (from start to stop), s. */
  sampledSeconds: number
  /** Length the rates are computed over (the workload's own duration when known), s. */
  seconds: number
  /** Wall clock (Unix ms) at the first sample: t = 0 of the series. */
  startWallMs: number
  timeSeries: TimeSeriesData
  totals: DeviceTotals
  vmstat: VmstatSeries
}

interface Point {
  t: number
  disk: DiskCounters
  vm: VmCounters
  cpu?: CpuCounters
}

const PAGE_MB = 4096 / 1e6

/**
 * Samples /proc/diskstats and /proc/vmstat for one device every `intervalMs` (≤ 1 s) while a real
 * run goes on, and /sys/block/X/inflight every `inflightMs`, into the simulator's TimeSeries shape:
 * read/write MB/s and IOPS per interval, `inFlight` = mean requests at the driver, `queued` = the
 * rest of iostat's aqu-sz (requests inside the block layer but not yet at the driver).
 */
export class DiskSampler {
  private readonly points: Point[] = []
  private inflightSum = 0
  private inflightN = 0
  private readonly inflightMean: number[] = []
  private timers: NodeJS.Timeout[] = []
  private startWallMs = 0

  constructor(
    readonly device: string,
    private readonly intervalMs = 500,
    private readonly inflightMs = 50,
    private readonly onSample?: (elapsedMs: number) => void,
  ) {
    if (!(intervalMs > 0 && intervalMs <= 1000))
      throw new RangeError(`sample interval must be in (0, 1000] ms, got ${intervalMs}`)
  }

  private read(): Point {
    const text = readSys('/proc/diskstats') ?? ''
    const disk = parseDiskstats(text, this.device)
    if (!disk) throw new Error(`/proc/diskstats has no line for ${this.device}`)
    const stat = readSys('/proc/stat')
    return {
      t: performance.now(),
      disk,
      vm: parseVmstat(readSys('/proc/vmstat') ?? ''),
      ...(stat ? { cpu: parseProcStat(stat) } : {}),
    }
  }

  private pollInflight(): void {
    const s = readSys(join(sysBlockDir(this.device), 'inflight'))
    if (s === null) return
    this.inflightSum += parseInflight(s)
    this.inflightN++
  }

  start(): void {
    this.startWallMs = Date.now()
    this.points.push(this.read())
    this.timers.push(setInterval(() => this.pollInflight(), this.inflightMs))
    this.timers.push(setInterval(() => this.tick(), this.intervalMs))
  }

  private tick(): void {
    this.points.push(this.read())
    this.inflightMean.push(this.inflightN ? this.inflightSum / this.inflightN : 0)
    this.inflightSum = 0
    this.inflightN = 0
    this.onSample?.(this.points[this.points.length - 1].t - this.points[0].t)
  }

  /**
   * Take the last sample and build the series and totals; rates over `seconds` when given (the
   * workload's duration: fio needs most of a second to set up, which is no I/O time).
   */
  stop(seconds?: number): DiskSamples {
    if (this.timers.length > 0) {
      for (const t of this.timers) clearInterval(t)
      this.timers = []
      this.tick()
    }
    return {
      ...summarise(this.points, this.inflightMean, this.intervalMs, seconds),
      startWallMs: this.startWallMs,
    }
  }
}

/** Series and totals from successive samples (exported for tests). */
export function summarise(
  points: readonly Point[],
  inflightMean: readonly number[],
  intervalMs: number,
  over?: number,
): Omit<DiskSamples, 'startWallMs'> {
  const ts: TimeSeriesData = {
    intervalMs,
    tMs: [],
    readMBps: [],
    writeMBps: [],
    readIops: [],
    writeIops: [],
    queued: [],
    inFlight: [],
  }
  const vm: VmstatSeries = { tMs: [], biKBps: [], boKBps: [], dirtyMB: [], writebackMB: [], busyCpus: [] }
  const t0 = points[0].t
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1]
    const b = points[i]
    const dt = (b.t - a.t) / 1000
    if (dt <= 0.001) continue
    const d = (k: keyof DiskCounters): number => b.disk[k] - a.disk[k]
    ts.tMs.push(a.t - t0)
    ts.readMBps.push((d('readSectors') * 512) / 1e6 / dt)
    ts.writeMBps.push((d('writeSectors') * 512) / 1e6 / dt)
    ts.readIops.push(d('reads') / dt)
    ts.writeIops.push(d('writes') / dt)
    const inFlight = inflightMean[i - 1] ?? b.disk.inProgress
    ts.inFlight.push(inFlight)
    ts.queued.push(Math.max(0, d('weightedMs') / (dt * 1000) - inFlight))
    vm.tMs.push(a.t - t0)
    vm.biKBps.push((b.vm.pgpgin - a.vm.pgpgin) / dt)
    vm.boKBps.push((b.vm.pgpgout - a.vm.pgpgout) / dt)
    vm.dirtyMB.push(b.vm.nrDirty * PAGE_MB)
    vm.writebackMB.push(b.vm.nrWriteback * PAGE_MB)
    const dTotal = a.cpu && b.cpu ? b.cpu.total - a.cpu.total : 0
    vm.busyCpus.push(dTotal > 0 ? ((b.cpu!.busy - a.cpu!.busy) / dTotal) * b.cpu!.cpus : 0)
  }
  const first = points[0].disk
  const last = points[points.length - 1].disk
  const sampledSeconds = (points[points.length - 1].t - t0) / 1000
  const seconds = over !== undefined && over > 0 ? Math.min(over, sampledSeconds || over) : sampledSeconds
  const s = seconds || 1e-9
  const readBytes = (last.readSectors - first.readSectors) * 512
  const writeBytes = (last.writeSectors - first.writeSectors) * 512
  const reads = last.reads - first.reads
  const writes = last.writes - first.writes
  const requests = reads + writes
  const totals: DeviceTotals = {
    readMBps: readBytes / 1e6 / s,
    writeMBps: writeBytes / 1e6 / s,
    readIops: reads / s,
    writeIops: writes / s,
    readBytes,
    writeBytes,
    requests,
    utilisation: Math.min(1, (last.ioMs - first.ioMs) / (s * 1000)),
    // not observable from /proc: blktrace would tell the sector of each dispatch
    seeks: 0,
    meanSeekSectors: 0,
    meanRequestKiB: requests ? (readBytes + writeBytes) / 1024 / requests : 0,
    mergedBios: last.readMerges - first.readMerges + (last.writeMerges - first.writeMerges),
  }
  return { sampledSeconds, seconds, timeSeries: ts, totals, vmstat: vm }
}
