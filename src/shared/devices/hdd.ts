import { READ, SECTOR, type DeviceInfo, type Request } from '../block/types'
import type { Engine, Handler } from '../sim/engine'
import type { SimTime } from '../sim/time'
import type { Rng } from '../sim/rng'
import type { CompletionSink, Device } from './device'
import { markPart } from './device-parts'
import {
  HDD_PARTS,
  P_BUFFER,
  P_DESTAGE,
  P_MEDIA,
  P_OVERHEAD,
  P_QUEUED,
  P_READAHEAD,
  P_RETRY,
  P_ROTATION,
  P_SEEK,
  P_SETTLE,
  P_SWITCH,
  P_WCACHE,
  P_WCROOM,
} from './hdd-parts'
import { SegmentCache, WriteCache } from './hdd-cache'
import { HddMechanics, type HddMechanicsConfig } from './hdd-mechanics'
import { allMechanical, NcqQueue, rankAll, Ranker, soonest } from './hdd-ncq'
import { HddVariability, type HddVariabilityConfig } from './hdd-variability'

/**
 * A rotating disk (reference §9): service = command overhead + seek + rotational latency +
 * transfer + head/track switches, with a read-ahead segment cache, an optional write-back cache
 * and optional command queueing (NCQ/TCQ) with shortest-positioning-time-first.
 *
 * One actuator: the drive works on one command at a time (`current`). A command that needs the
 * media waits for the mechanism (`mechFreeAt`: the end of the current media access or destage
 * chunk); cache hits and cached writes need only the interface. Between commands the mechanism
 * prefetches (SegmentCache) or destages dirty data (WriteCache). One engine event per command,
 * plus one per destage chunk.
 *
 * Choices worth knowing: destaging starts as soon as the mechanism is idle (no idle delay), so a
 * read right after a burst of cached writes waits for the chunk in progress; a cached write aborts
 * prefetching; reads of data still dirty in the write cache are served from the media; there is
 * no flush/FUA. Write settle applies to seeks, not to track switches inside a transfer.
 *
 * Variability (hdd-variability.ts, off unless configured): each seek's time spreads around the
 * curve, a seek may need a re-seek, and a read may lose revolutions to recovered errors — drawn
 * from the device's seeded stream. The NCQ picker ranks with the nominal seek curve, as firmware
 * does.
 */
export interface HddConfig extends HddMechanicsConfig, HddVariabilityConfig {
  readonly name: string
  /** Controller time to take a command (ms); overlapped with the previous command when queued. */
  readonly commandOverheadMs: number
  /** Host interface (bus) rate for data from/to the buffer, MB/s (10^6 B/s). */
  readonly interfaceMBps: number
  readonly segmentCount: number
  readonly segmentKiB: number
  /** Write-back cache size; 0 = write-through. */
  readonly writeCacheKiB: number
  /** Largest run destaged in one go. */
  readonly destageChunkKiB: number
  readonly queueDepth: number
  readonly maxTransferKiB: number
  /** With queueDepth > 1: a command older than this is served next regardless of position (ms). */
  readonly ncqAgingMs: number
}

const EV_DONE = 0
const EV_DESTAGE = 1

export class Hdd implements Device, Handler {
  readonly info: DeviceInfo
  readonly mech: HddMechanics
  readonly cache: SegmentCache
  readonly writeCache: WriteCache
  inFlight = 0
  readonly parts = HDD_PARTS

  private readonly overheadNs: number
  private readonly ifaceNsPerSector: number
  private readonly agingNs: number
  private readonly destageMax: number
  private readonly queue: NcqQueue
  private readonly ranker: Ranker
  /** The command being worked on; its completion event is scheduled (or it waits for cache room). */
  private current: Request | null = null
  private currentUsesMech = false
  /** A write waiting for room in the write cache, and when it could have gone in. */
  private waitingWrite: Request | null = null
  private waitingSince: SimTime = 0
  /** The mechanism is busy (media access or destage chunk) until then. */
  private mechFreeAt: SimTime = 0
  /** An LBA on the track the head is on (after the last media access). */
  private headLba = 0
  /** Sectors of the destage chunk in progress (0 = none). */
  private destaging = 0
  /** FLUSH CACHE commands waiting for the write cache to be on the media. */
  private readonly flushWaiters: (() => void)[] = []
  private readonly vary: HddVariability
  /** Media accesses so far (the first one's positioning from the parked arm is not counted). */
  private accesses = 0
  /** Cylinders the arm has crossed seeking between media accesses (from the first access on). */
  seekCylinders = 0
  // The last media access's positioning, ns: seek, write settle, head switch, read retries.
  private aSeek = 0
  private aSettle = 0
  private aSwitch = 0
  private aRetry = 0

  constructor(
    cfg: HddConfig,
    private readonly engine: Engine,
    private readonly sink: CompletionSink,
    rng: Rng,
  ) {
    this.mech = new HddMechanics(cfg)
    this.vary = new HddVariability(cfg, rng)
    this.cache = new SegmentCache(this.mech, cfg.segmentCount, Math.round((cfg.segmentKiB * 1024) / SECTOR))
    this.writeCache = new WriteCache(Math.round((cfg.writeCacheKiB * 1024) / SECTOR))
    this.overheadNs = Math.round(cfg.commandOverheadMs * 1e6)
    this.ifaceNsPerSector = (SECTOR * 1e3) / cfg.interfaceMBps
    this.agingNs = Math.round(cfg.ncqAgingMs * 1e6)
    this.destageMax = Math.max(1, Math.round((cfg.destageChunkKiB * 1024) / SECTOR))
    this.queue = new NcqQueue(cfg.queueDepth, this.writeCache.capSectors, this.cache, this.mech.revNs)
    this.ranker = new Ranker(
      this.mech.seekTable,
      this.mech.writeSettleNs,
      this.mech.headSwitchNs,
      this.mech.revNs,
      this.overheadNs,
    )
    this.info = {
      name: cfg.name,
      capacitySectors: this.mech.capacitySectors,
      rotational: true,
      queueDepth: cfg.queueDepth,
      maxTransferSectors: Math.round((cfg.maxTransferKiB * 1024) / SECTOR),
      writeCache: cfg.writeCacheKiB > 0,
    }
  }

  /** When the mechanism finishes its current media access or destage chunk (for tests and the UI). */
  get mechanismBusyUntil(): SimTime {
    return this.mechFreeAt
  }

  /** Dirty sectors in the write cache, including a chunk being destaged. */
  get dirtySectors(): number {
    return this.writeCache.used
  }

  start(rq: Request, now: SimTime): void {
    if (rq.nsect <= 0 || rq.sector < 0 || rq.end > this.info.capacitySectors)
      throw new Error(`${this.info.name}: request [${rq.sector}, ${rq.end}) outside the disk`)
    if (this.inFlight >= this.info.queueDepth) throw new Error(`${this.info.name}: queue depth exceeded`)
    this.inFlight++
    rq.devInt = now // arrival, for command overhead overlap and NCQ aging
    if (this.current === null) this.serve(rq, now)
    else this.queue.push(rq, now, this.mech)
  }

  onEvent(kind: number, data: unknown): void {
    const now = this.engine.now
    if (kind === EV_DONE) {
      const rq = data as Request
      this.current = null
      this.currentUsesMech = false
      this.inFlight--
      // Pick among the commands already queued before the host hears of this completion (a drive
      // starts its next seek at once); a command the host sends in reply queues behind it.
      if (this.queue.length > 0) this.serve(this.pick(now), now)
      this.sink.deviceCompleted(rq, now)
      this.next(now)
    } else {
      this.writeCache.release(this.destaging)
      this.destaging = 0
      this.afterDestage(now)
    }
  }

  /** Work on `rq` now: schedule its completion (or park it until the write cache has room). */
  private serve(rq: Request, now: SimTime): void {
    this.current = rq
    const s = rq.sector
    const e = rq.end
    // Command overhead; a queued command's was handled while the previous one ran.
    const tCmd = Math.max(now, rq.devInt + this.overheadNs)
    const xfer = Math.round(rq.nsect * this.ifaceNsPerSector)
    const parts = rq.devParts !== null
    if (parts) {
      markPart(rq, P_QUEUED, now)
      markPart(rq, P_OVERHEAD, tCmd)
    }
    if (rq.op === READ) {
      const ready = this.cache.read(s, e, now, tCmd)
      if (ready >= 0) {
        const at = Math.max(tCmd + xfer, Math.round(ready + this.ifaceNsPerSector))
        if (parts) {
          markPart(rq, P_BUFFER, tCmd + xfer)
          markPart(rq, P_READAHEAD, at)
        }
        this.done(rq, at)
        return
      }
      this.stopPrefetch(now)
      const t0 = Math.max(tCmd, this.mechFreeAt)
      const end = this.access(s, rq.nsect, false, t0)
      if (parts) this.markAccess(rq, t0, end)
      this.cache.startStream(s, e, this.mech.anchorT, this.mech.anchorLba)
      this.currentUsesMech = true
      this.done(rq, end)
      return
    }
    this.stopPrefetch(now)
    this.cache.invalidate(s, e)
    const wc = this.writeCache
    if (wc.capSectors > 0 && rq.nsect <= wc.capSectors) {
      if (wc.fits(rq.nsect)) {
        wc.add(s, e)
        if (parts) markPart(rq, P_WCACHE, tCmd + xfer)
        this.done(rq, tCmd + xfer)
        if (this.destaging === 0 && this.mechFreeAt <= now) this.startDestage(now)
      } else {
        this.waitingWrite = rq
        this.waitingSince = tCmd
        if (this.destaging === 0) this.startDestage(now)
      }
      return
    }
    this.currentUsesMech = true
    const t0 = Math.max(tCmd, this.mechFreeAt)
    const end = this.access(s, rq.nsect, true, t0)
    if (parts) this.markAccess(rq, t0, end)
    this.done(rq, end)
  }

  private done(rq: Request, at: SimTime): void {
    this.engine.at(at, this, EV_DONE, rq)
  }

  /** The parts of a media access that began at t0 (the mechanism free) and ends at `end`. */
  private markAccess(rq: Request, t0: SimTime, end: SimTime): void {
    let t = t0
    markPart(rq, P_DESTAGE, t)
    markPart(rq, P_SEEK, (t += this.aSeek))
    markPart(rq, P_SETTLE, (t += this.aSettle))
    markPart(rq, P_SWITCH, (t += this.aSwitch))
    markPart(rq, P_RETRY, (t += this.aRetry))
    markPart(rq, P_ROTATION, t + this.mech.firstWaitNs)
    markPart(rq, P_MEDIA, end)
  }

  /** A media access from the current head position starting at t0; returns when it ends. */
  private access(lba: number, n: number, write: boolean, t0: SimTime): SimTime {
    const m = this.mech
    let move = m.moveNs(this.headLba, lba, write)
    const d = m.movedCylinders
    if (this.accesses++ > 0) this.seekCylinders += d
    let retry = 0
    if (this.vary.on) {
      if (d > 0) move = Math.round(this.vary.seekNs(move, m.seekNs(1)))
      // a recovered read error: the sector is read again a revolution later
      if (!write) retry = this.vary.readRetries(n) * m.revNs
    }
    this.aSettle = d > 0 && write ? m.writeSettleNs : 0
    this.aSeek = d > 0 ? move - this.aSettle : 0
    this.aSwitch = d > 0 ? 0 : move
    this.aRetry = retry
    const end = m.walk(lba, n, t0 + move + retry)
    this.mechFreeAt = end
    this.headLba = lba + n - 1
    return end
  }

  private stopPrefetch(now: SimTime): void {
    const pos = this.cache.abort(now)
    if (pos >= 0) this.headLba = pos
  }

  /**
   * FLUSH CACHE (a barrier's or REQ_PREFLUSH's cache flush): `done` once every write the drive has
   * acknowledged is on the media. The drive destages at once, ahead of queued commands.
   */
  flush(done: () => void): void {
    if (this.writeCache.used === 0) {
      done()
      return
    }
    this.flushWaiters.push(done)
    if (this.destaging === 0 && !this.currentUsesMech) this.startDestage(this.engine.now)
  }

  /** The previous command completed: take the next one, or destage while idle. */
  private next(now: SimTime): void {
    if (this.current !== null) return
    if (this.flushWaiters.length > 0 && this.writeCache.used > 0) {
      if (this.destaging === 0) this.startDestage(now)
      return
    }
    if (this.queue.length > 0) {
      this.serve(this.pick(now), now)
      return
    }
    if (this.destaging === 0 && this.writeCache.used > 0) this.startDestage(now)
  }

  private afterDestage(now: SimTime): void {
    if (this.writeCache.used === 0 && this.flushWaiters.length > 0) {
      for (const done of this.flushWaiters.splice(0)) done()
      if (this.current === null && this.queue.length > 0) this.serve(this.pick(now), now)
    }
    const rq = this.waitingWrite
    if (rq !== null) {
      if (!this.writeCache.fits(rq.nsect)) {
        this.startDestage(now)
        return
      }
      this.waitingWrite = null
      this.writeCache.add(rq.sector, rq.end)
      const room = Math.max(now, this.waitingSince)
      const at = room + Math.round(rq.nsect * this.ifaceNsPerSector)
      if (rq.devParts !== null) {
        markPart(rq, P_WCROOM, room)
        markPart(rq, P_WCACHE, at)
      }
      this.done(rq, at)
    }
    if (this.writeCache.used > 0 && !this.currentUsesMech) this.startDestage(now)
  }

  /** Write the next dirty chunk to the media (the mechanism is free or about to be). */
  private startDestage(now: SimTime): void {
    const wc = this.writeCache
    if (wc.extents === 0) return
    this.stopPrefetch(now)
    const t0 = Math.max(now, this.mechFreeAt)
    wc.take(this.mech, this.headLba, t0, this.destageMax)
    this.destaging = wc.chunkSectors
    const end = this.access(wc.chunkStart, wc.chunkSectors, true, t0)
    this.engine.at(end, this, EV_DESTAGE)
  }

  /**
   * Next queued command. Depth 1: FIFO. Deeper: shortest positioning time first from where the
   * head will be (cache hits and cached writes cost nothing), unless one has waited too long.
   * Ties go to the lower queue slot, however the candidates are visited.
   */
  private pick(now: SimTime): Request {
    const q = this.queue
    const n = q.length
    if (n === 1 || this.info.queueDepth === 1) return q.take(0)
    const t = Math.max(now, this.mechFreeAt)
    const oldest = now - this.agingNs
    const m = this.mech
    m.locate(this.cache.streamSeg >= 0 ? Math.max(0, this.cache.streamPos(t) - 1) : this.headLba)
    const r = this.ranker
    r.from(m.cyl, m.head, t)
    return q.take(
      q.cachedWrites === 0 && allMechanical(q, this.cache, oldest)
        ? soonest(q, r)
        : rankAll(q, r, this.cache, this.writeCache.capSectors, now, oldest),
    )
  }
}
