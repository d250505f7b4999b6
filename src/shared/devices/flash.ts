import { READ, SECTOR, type DeviceInfo, type Request } from '../block/types'
import type { Engine, Handler } from '../sim/engine'
import type { SimTime } from '../sim/time'
import type { Rng } from '../sim/rng'
import type { CompletionSink, Device } from './device'
import { FlashVariability, type FlashVariabilityConfig } from './flash-variability'
import { FLASH_PARTS, FlashPath, readPlaced, takeFlashParts } from './flash-parts'
import { FlashDies } from './flash-dies'
import { FlashGc } from './flash-gc'
import { FlashWriteBuffer } from './flash-write-buffer'

/**
 * The flash family (reference §10): CompactFlash, eMMC, SATA SSD, NVMe — one model, different
 * numbers. A request is split into pages striped over the parallel units (channels × dies). Each
 * unit and each channel is a resource with a busy-until time; a request's completion is computed
 * at `start` in closed form (when its last page is done, plus the host transfer, bounded by the
 * host link's bandwidth), so it costs a handful of arithmetic operations per unit touched and ONE
 * engine event. No allocation per request: all state is in typed arrays.
 *
 * Reads: pages live where LBA striping puts them (page p on unit p mod units); a unit reads its
 * pages back to back (the first takes tR, then cache-read overlaps the channel transfer).
 * The host link carries reads' and writes' data in turn (SATA, MMC, ATA) or, full duplex (PCIe),
 * each on its own lanes.
 * Writes: the data streams in over the host link; the FTL writes out of place, so pages go to
 * units in round-robin order. A write that covers its FTL mapping unit only partly is a
 * read-modify-write of that unit (read the old pages, program the whole unit, and for a
 * block-mapped FTL such as a CompactFlash card's, erase the old block); mapping units smaller than
 * a page are packed (a 4 KiB write costs half an 8 KiB page program). Garbage collection, when
 * enabled, makes each programmed page also pay for moving valid pages and erasing once free space
 * falls below the threshold; its cost follows the greedy-GC approximation from the
 * over-provisioning, discounted for sequential writes (whose victim blocks hold little valid data).
 * Optional: a DRAM write buffer (a write completes once buffered; programs go on behind it) and an
 * SLC-mode cache (fast programs until full, folded back while idle). With the buffer, the
 * controller may schedule reads first (`readsFirst`): a read waits for the background program in
 * progress on its die, not for the backlog of buffered data behind it.
 *
 * The parts, each in its file: placing pages on the dies and channels (flash-dies.ts), garbage
 * collection (flash-gc.ts), the DRAM write buffer (flash-write-buffer.ts), the service's parts
 * (flash-parts.ts).
 *
 * Variability (flash-variability.ts, each part off unless configured): page reads and programs
 * take different times by page type (LSB/CSB/MSB), some page reads need read-retry steps, and
 * each command waits a random time for the firmware — drawn from the device's seeded stream.
 *
 * Not modelled: flush/FUA (the block layer has no such request yet), reads served from the write
 * buffer, read disturb, wear levelling, per-plane multi-plane operations (fold planes into
 * `diesPerChannel`).
 */
export interface FlashConfig extends FlashVariabilityConfig {
  readonly name: string
  readonly capacitySectors: number
  readonly channels: number
  readonly diesPerChannel: number
  readonly pageKiB: number
  readonly readUs: number
  readonly programUs: number
  readonly eraseUs: number
  /** Per-channel data rate between controller and dies (effective, incl. ECC), MB/s. */
  readonly channelMBps: number
  /** Host interface rate, MB/s (each way when full duplex). */
  readonly hostMBps: number
  /** Reads' and writes' data cross the host link on separate lanes (PCIe), not in turn (SATA, MMC). */
  readonly fullDuplex: boolean
  /** With a write buffer: reads go ahead of buffered writes' programs that have not begun. */
  readonly readsFirst: boolean
  /** Controller/protocol latency per command, µs. */
  readonly commandOverheadUs: number
  /** Host link occupancy per command beyond its data (command/status frames), µs. */
  readonly linkCommandUs: number
  /** FTL mapping unit: writes that only partly cover one are read-modify-write; = page for page mapping. */
  readonly mapUnitKiB: number
  readonly pagesPerBlock: number
  readonly gc: boolean
  readonly overProvisioningPct: number
  readonly gcThresholdPct: number
  readonly initialFreePct: number
  /** DRAM write buffer: a write is acknowledged once buffered, programmed behind; 0 = none. */
  readonly writeBufferKiB: number
  /** Fast (SLC-mode) write cache; 0 = none. */
  readonly slcCacheMiB: number
  readonly slcProgramUs: number
  readonly queueDepth: number
  readonly maxTransferKiB: number
}

const EV_DONE = 0

export class Flash implements Device, Handler {
  readonly info: DeviceInfo
  inFlight = 0
  readonly parts = FLASH_PARTS
  readonly takeParts = takeFlashParts
  private readonly path = new FlashPath()
  /** The dies and channels: where pages are read and programmed. */
  private readonly dies: FlashDies

  private readonly units: number
  private readonly sectorsPerPage: number
  private readonly mapSectors: number
  private readonly pagesPerMap: number
  private readonly tR: number
  private readonly tProg: number
  private readonly chNsPerByte: number
  private readonly hostNsPerByte: number
  private readonly overhead: number
  /** Host link time per command beyond its data (protocol framing). */
  private readonly linkCmd: number
  /** The host link is busy until then: for reads' data, and for writes' too unless full duplex. */
  private hostFree: SimTime = 0
  /** Full duplex (PCIe): writes' data comes in on its own lanes, busy until then. */
  private hostFreeIn: SimTime = 0
  private readonly duplex: boolean
  /** Round-robin write frontier (unit of the next programmed page). */
  private writeUnit = 0

  /** Garbage collection (null: off). */
  private readonly gc: FlashGc | null

  /** The DRAM write buffer (capacity 0: none). */
  private readonly buffer: FlashWriteBuffer

  // SLC-mode cache, in pages.
  private readonly slcCap: number
  private slcUsed = 0
  private readonly tSlc: number
  private idleSince: SimTime = 0

  // Variability: page types, read retries, command jitter.
  private readonly vary: FlashVariability
  private readonly varyReads: boolean

  constructor(
    cfg: FlashConfig,
    private readonly engine: Engine,
    private readonly sink: CompletionSink,
    rng: Rng,
  ) {
    this.units = cfg.channels * cfg.diesPerChannel
    this.sectorsPerPage = Math.max(1, Math.round((cfg.pageKiB * 1024) / SECTOR))
    const spp = this.sectorsPerPage
    const mapS = Math.max(1, Math.round((cfg.mapUnitKiB * 1024) / SECTOR))
    this.mapSectors = mapS >= spp ? Math.round(mapS / spp) * spp : mapS
    this.pagesPerMap = this.mapSectors / spp
    this.tR = cfg.readUs * 1000
    this.tProg = cfg.programUs * 1000
    const tErase = cfg.eraseUs * 1000
    this.tSlc = cfg.slcProgramUs * 1000
    this.chNsPerByte = 1000 / cfg.channelMBps
    this.hostNsPerByte = 1000 / cfg.hostMBps
    this.overhead = Math.round(cfg.commandOverheadUs * 1000)
    this.linkCmd = cfg.linkCommandUs * 1000
    const userPages = Math.floor(cfg.capacitySectors / spp)
    this.gc = cfg.gc ? new FlashGc(cfg, userPages, this.tR, this.tProg, tErase) : null
    this.buffer = new FlashWriteBuffer(
      Math.floor((cfg.writeBufferKiB * 1024) / (spp * SECTOR)),
      this.pagesPerMap,
    )
    this.slcCap = Math.round((cfg.slcCacheMiB * 1024 * 1024) / (spp * SECTOR))
    this.info = {
      name: cfg.name,
      capacitySectors: cfg.capacitySectors,
      rotational: false,
      queueDepth: cfg.queueDepth,
      maxTransferSectors: Math.round((cfg.maxTransferKiB * 1024) / SECTOR),
      writeCache: cfg.writeBufferKiB > 0,
    }
    this.duplex = cfg.fullDuplex
    this.vary = new FlashVariability(cfg, rng)
    this.varyReads = this.vary.typedReads || this.vary.retries
    const tXPage = spp * SECTOR * this.chNsPerByte
    const readsFirst = cfg.readsFirst && this.buffer.cap > 0
    this.dies = new FlashDies(
      cfg.channels,
      cfg.diesPerChannel,
      this.tR,
      tErase,
      tXPage,
      readsFirst,
      this.vary,
    )
  }

  start(rq: Request, now: SimTime): void {
    if (this.inFlight >= this.info.queueDepth) throw new Error(`${this.info.name}: queue depth exceeded`)
    if (rq.nsect <= 0 || rq.sector < 0 || rq.end > this.info.capacitySectors)
      throw new Error(`${this.info.name}: request [${rq.sector}, ${rq.end}) outside the device`)
    if (this.inFlight++ === 0 && this.slcUsed > 0) this.drainSlc(now)
    if (rq.devParts !== null) {
      // the run keeps parts: a read's path goes into them as it is placed, a write is marked along its
      if (rq.op === READ) {
        this.dies.readTimes = rq.devParts
        this.dies.dieEnd = -Infinity
      } else {
        this.dies.tracing = this.path
        this.path.reset()
      }
    }
    const t = now + this.overhead + (this.vary.jitter ? this.vary.drawJitterNs() : 0)
    const done = Math.round(rq.op === READ ? this.read(rq, t) : this.write(rq, t))
    if (!(done >= now)) throw new Error(`${this.info.name}: bad completion time ${done} at ${now}`)
    this.engine.at(done, this, EV_DONE, rq)
  }

  onEvent(_kind: number, data: unknown): void {
    const now = this.engine.now
    if (--this.inFlight === 0) this.idleSince = now
    this.sink.deviceCompleted(data as Request, now)
  }

  private read(rq: Request, t: SimTime): number {
    const dies = this.dies
    const spp = this.sectorsPerPage
    const p0 = Math.floor(rq.sector / spp)
    const np = Math.floor((rq.end - 1) / spp) - p0 + 1
    const bytes = rq.nsect * SECTOR
    const tX = (bytes / np) * this.chNsPerByte
    const tr0 = this.varyReads && this.vary.typedReads ? this.vary.readNs(p0) : this.tR
    const last = this.varyReads ? this.readVaried(p0, np, t, tX) : this.readAlike(p0, np, t, tX)
    // Host link: data flows as pages arrive; the link's bandwidth is reserved in start order.
    const xfer = bytes * this.hostNsPerByte + this.linkCmd
    const linkFrom = this.hostFree
    this.hostFree = Math.max(linkFrom, t + tr0) + xfer
    const viaDie = last + xfer / np
    const done = Math.max(viaDie, this.hostFree)
    const times = dies.readTimes
    if (times !== null) {
      readPlaced(
        rq,
        times,
        t,
        tr0,
        linkFrom,
        viaDie >= this.hostFree,
        dies.dieEnd > -Infinity,
        Math.round(done),
      )
      dies.readTimes = null
    }
    return done
  }

  /**
   * The dies' work for a read of `np` pages from page `p0`, the command at the dies at `t`, a page's
   * transfer `tX`: when the last page is out (at least `t`). Every page alike (tR). Apart from
   * `read`, as is `readVaried`, so that `read` stays small enough for V8 to inline into `start`.
   */
  private readAlike(p0: number, np: number, t: SimTime, tX: number): SimTime {
    const dies = this.dies
    const U = this.units
    let last = t
    if (np <= U) {
      for (let i = 0; i < np; i++) last = Math.max(last, dies.readOn((p0 + i) % U, 1, t, tX))
    } else {
      const base = Math.floor(np / U)
      const extra = np - base * U
      for (let i = 0; i < U; i++)
        last = Math.max(last, dies.readOn((p0 + i) % U, base + (i < extra ? 1 : 0), t, tX))
    }
    return last
  }

  /** As `readAlike`, each page with its own type's read time and read retries (flash-variability.ts). */
  private readVaried(p0: number, np: number, t: SimTime, tX: number): SimTime {
    const dies = this.dies
    const U = this.units
    let last = t
    const k1 = np <= U ? 1 : Math.floor(np / U)
    const extra = np <= U ? 0 : np - k1 * U
    for (let i = 0, n = Math.min(np, U); i < n; i++)
      last = Math.max(last, dies.readOnVaried((p0 + i) % U, k1 + (i < extra ? 1 : 0), t, tX, p0 + i))
    return last
  }

  private write(rq: Request, t: SimTime): number {
    const dies = this.dies
    const spp = this.sectorsPerPage
    const ms = this.mapSectors
    const U = this.units
    const s = rq.sector
    const e = rq.end
    // Pages programmed: whole mapping units (a fraction of a page when units are smaller than
    // pages: small writes are packed); pages read back: the partly overwritten ones.
    const m0 = Math.floor(s / ms)
    const maps = Math.floor((e - 1) / ms) - m0 + 1
    const np = maps * this.pagesPerMap
    const readBack = Math.ceil((s - m0 * ms) / spp) + Math.ceil(((m0 + maps) * ms - e) / spp)
    const erases = ms > spp ? maps : 0
    const tProg = this.programTime(np, s, e)
    // The data streams in over the host link; page i is in the controller at hs + (i+1)·hostPage.
    const xfer = rq.nsect * SECTOR * this.hostNsPerByte + this.linkCmd
    const hs = Math.max(this.duplex ? this.hostFreeIn : this.hostFree, t)
    const dataIn = hs + xfer
    if (this.duplex) this.hostFreeIn = dataIn
    else this.hostFree = dataIn
    const first = this.writeUnit
    const bufCap = this.buffer.cap
    const buffered = bufCap > 0 && np <= bufCap
    const tr = dies.tracing
    if (buffered) dies.tracing = null // its programs go on behind its completion
    let last = dataIn
    if (np <= U) {
      const n = Math.ceil(np)
      const k = np / n
      const rb = readBack / n
      const er = erases / n
      const hostUnit = xfer / n
      for (let i = 0; i < n; i++)
        last = Math.max(last, dies.programOn((first + i) % U, k, rb, er, hs + (i + 1) * hostUnit, 0, tProg))
      this.writeUnit = (first + n) % U
    } else {
      const hostPage = xfer / np
      // Whole pages round-robin; with packing, a leftover fraction of a page on the next unit.
      const base = Math.floor(np / U)
      const extra = Math.floor(np - base * U)
      const frac = np - base * U - extra
      const gap = U * hostPage
      for (let i = 0; i < U; i++) {
        const k = base + (i < extra ? 1 : i === extra ? frac : 0)
        const share = k / np
        const ready = hs + (i + 1) * hostPage
        last = Math.max(
          last,
          dies.programOn((first + i) % U, k, readBack * share, erases * share, ready, gap, tProg),
        )
      }
      this.writeUnit = (first + extra + (frac > 0 ? 1 : 0)) % U
    }
    const done = buffered ? this.buffer.admit(t, dataIn, last, np) : last
    if (tr !== null) {
      tr.writeDone(rq, t, hs, dataIn, buffered, Math.round(done))
      dies.tracing = null
    }
    return done
  }

  /**
   * Program time per page for this write: SLC cache or native, plus GC work when collecting. The
   * dies are told its native share and GC's (FlashDies.nativeProg, gcNs).
   */
  private programTime(np: number, s: number, e: number): number {
    const dies = this.dies
    let tp = this.tProg
    dies.nativeProg = tp
    if (this.slcCap > 0 && this.slcUsed + np <= this.slcCap) {
      this.slcUsed += np
      tp = this.tSlc
      dies.nativeProg = 0 // one bit per cell: no page types
    }
    dies.gcNs = 0
    if (this.gc === null) return tp
    dies.gcNs = this.gc.workNs(np, s, e)
    return tp + dies.gcNs
  }

  /** While idle, the SLC cache is folded into native cells on all units in parallel. */
  private drainSlc(now: SimTime): void {
    const drained = ((now - this.idleSince) * this.units) / this.tProg
    this.slcUsed = Math.max(0, this.slcUsed - drained)
  }
}
