import { SECTOR } from '../block/types'
import type { SimTime } from '../sim/time'
import { seekTimeMs, type SeekCurve } from './seek'

/**
 * The mechanics of a rotating disk: zoned geometry, LBA → (cylinder, head, sector) mapping,
 * track and cylinder skew, the platter's angle as a function of absolute time, and seeks.
 * Everything a service-time computation needs, with no event handling, so tests can check each
 * piece on its own.
 *
 * Layout: LBAs fill a cylinder head by head, then the next cylinder; zones are bands of cylinders
 * with the same sectors per track (outer zones first). Track (c, h) of a zone starting at cylinder
 * c0 begins `base + (c−c0)·((heads−1)·headSkew + cylSkew) + h·headSkew` sectors (mod spt) after
 * the angular index (`base` carries the skew over from the previous zone), so a transfer that
 * crosses a track or zone boundary loses only the skew, not a turn.
 *
 * Rotation: the platter angle at time t is (t mod rev) / rev; sector k of a track whose first
 * sector sits at offset o passes under the head at `round(((o + k) mod spt) · rev / spt)` ns past
 * each index.
 */

export interface Zone {
  readonly cylinders: number
  readonly sectorsPerTrack: number
}

export interface HddMechanicsConfig {
  readonly zones: readonly Zone[]
  readonly heads: number
  readonly rpm: number
  readonly seek: SeekCurve
  /** Switching to another head on the same cylinder (ms). */
  readonly headSwitchMs: number
  /** Extra settle after a seek before a write (ms). */
  readonly writeSettleMs: number
}

/** Where an LBA lives (a fresh object: for tests and the UI, not the hot path). */
export interface LbaPosition {
  zone: number
  cylinder: number
  head: number
  sector: number
  sectorsPerTrack: number
  /** ns past the rotational index at which this sector's start passes under the head. */
  angleNs: number
}

/** Tolerance for "the head is exactly at this sector": sums of rounded times may be a ns off. */
export const ROT_TOLERANCE_NS = 8

/**
 * `x % m` for x ≥ 0 and m > 0, with the same result, without the floating-point remainder (a
 * library call, slow) that `%` becomes once times pass 2^31 ns: the quotient's rounding is
 * corrected, and the products and differences involved are exact in doubles.
 */
export function modPos(x: number, m: number): number {
  const r = x - Math.floor(x / m) * m
  return r < 0 ? r + m : r >= m ? r - m : r
}

/** Seek tables made so far, by curve and cylinder count: each run of a drive needs the same one. */
const seekTables = new Map<string, Int32Array>()

/** ns for a move of d cylinders, d = 0 … cylinders (shared between runs: never written to). */
function seekTable(curve: SeekCurve, cylinders: number): Int32Array {
  const key = `${cylinders} ${JSON.stringify(curve)}`
  let table = seekTables.get(key)
  if (table === undefined) {
    table = new Int32Array(cylinders + 1)
    for (let d = 1; d <= cylinders; d++) table[d] = Math.round(seekTimeMs(curve, d, cylinders) * 1e6)
    if (seekTables.size >= 16) seekTables.clear()
    seekTables.set(key, table)
  }
  return table
}

export class HddMechanics {
  readonly revNs: SimTime
  readonly heads: number
  readonly cylinders: number
  readonly capacitySectors: number
  readonly zoneCount: number
  readonly headSwitchNs: SimTime
  readonly cylSwitchNs: SimTime
  readonly writeSettleNs: SimTime
  readonly seekCurve: SeekCurve
  /** Seek time in ns by cylinder distance, precomputed: the NCQ picker ranks many candidates. */
  readonly seekTable: Int32Array
  private readonly zFirstLba: Float64Array
  private readonly zFirstCyl: Float64Array
  private readonly zCyls: Float64Array
  private readonly zSpt: Float64Array
  private readonly zHeadSkew: Float64Array
  /** Sectors of offset added per cylinder: (heads−1)·headSkew + cylSkew. */
  private readonly zCylStride: Float64Array
  private readonly zCylSkew: Float64Array
  /** Offset (sectors) of the zone's first track, so the skew carries on across zone boundaries. */
  private readonly zBase: Float64Array

  // Scratch results of locate() (no allocation on the hot path), for the LBA `located`.
  located = -1
  zone = 0
  cyl = 0
  head = 0
  sect = 0

  /** Cylinders the last `moveNs`/`moveFrom` crossed (0: a head switch or no move). */
  movedCylinders = 0

  // Scratch results of walk().
  /** The LBA reached when the walk ended (the end, or where it was at `stopAt`). */
  walkLba = 0
  /** The last point of the walk where the head was exactly at a sector start: (time, lba). */
  anchorT: SimTime = 0
  anchorLba = 0
  /** The walk's wait for its first sector to come round (its rotational latency). */
  firstWaitNs = 0

  constructor(cfg: HddMechanicsConfig) {
    if (cfg.zones.length === 0) throw new Error('a disk needs at least one zone')
    this.revNs = Math.round(60e9 / cfg.rpm)
    this.heads = cfg.heads
    this.seekCurve = cfg.seek
    this.headSwitchNs = Math.round(cfg.headSwitchMs * 1e6)
    this.writeSettleNs = Math.round(cfg.writeSettleMs * 1e6)
    const nz = cfg.zones.length
    this.zoneCount = nz
    this.zFirstLba = new Float64Array(nz)
    this.zFirstCyl = new Float64Array(nz)
    this.zCyls = new Float64Array(nz)
    this.zSpt = new Float64Array(nz)
    this.zHeadSkew = new Float64Array(nz)
    this.zCylSkew = new Float64Array(nz)
    this.zCylStride = new Float64Array(nz)
    this.zBase = new Float64Array(nz)
    let cyl = 0
    for (const z of cfg.zones) cyl += z.cylinders
    this.cylinders = cyl
    this.cylSwitchNs = Math.round(seekTimeMs(cfg.seek, 1, this.cylinders) * 1e6)
    let lba = 0
    cyl = 0
    for (let i = 0; i < nz; i++) {
      const z = cfg.zones[i]
      const spt = z.sectorsPerTrack
      this.zFirstLba[i] = lba
      this.zFirstCyl[i] = cyl
      this.zCyls[i] = z.cylinders
      this.zSpt[i] = spt
      // Skew: enough whole sectors to cover the switch, with a little margin for rounding.
      const hs = Math.min(spt - 1, Math.ceil(((this.headSwitchNs + 4 * ROT_TOLERANCE_NS) * spt) / this.revNs))
      const cs = Math.min(spt - 1, Math.ceil(((this.cylSwitchNs + 4 * ROT_TOLERANCE_NS) * spt) / this.revNs))
      this.zHeadSkew[i] = hs
      this.zCylSkew[i] = cs
      this.zCylStride[i] = (this.heads - 1) * hs + cs
      if (i > 0) {
        // The previous zone's last track ends where its first sector starts; this zone's first
        // sector follows a cylinder skew later (in this zone's sectors).
        const p = i - 1
        const pSpt = this.zSpt[p]
        const lastOff =
          (this.zBase[p] + (this.zCyls[p] - 1) * this.zCylStride[p] + (this.heads - 1) * this.zHeadSkew[p]) %
          pSpt
        this.zBase[i] = (Math.ceil((lastOff * spt) / pSpt) + cs) % spt
      }
      lba += z.cylinders * this.heads * spt
      cyl += z.cylinders
    }
    this.capacitySectors = lba
    this.seekTable = seekTable(cfg.seek, this.cylinders)
  }

  /** Sets zone, cyl, head, sect for `lba`. */
  locate(lba: number): void {
    if (lba === this.located) return
    this.located = lba
    // Binary search for the last zone starting at or before lba.
    let z = 0
    let hi = this.zoneCount - 1
    while (z < hi) {
      const mid = (z + hi + 1) >> 1
      if (this.zFirstLba[mid] <= lba) z = mid
      else hi = mid - 1
    }
    const spt = this.zSpt[z]
    const rel = lba - this.zFirstLba[z]
    const track = Math.floor(rel / spt)
    this.zone = z
    this.sect = rel - track * spt
    const c = Math.floor(track / this.heads)
    this.cyl = this.zFirstCyl[z] + c
    this.head = track - c * this.heads
  }

  position(lba: number): LbaPosition {
    this.locate(lba)
    return {
      zone: this.zone,
      cylinder: this.cyl,
      head: this.head,
      sector: this.sect,
      sectorsPerTrack: this.zSpt[this.zone],
      angleNs: this.angleOf(this.zone, this.cyl, this.head, this.sect),
    }
  }

  /** Rotational time offset (0 … rev) at which sector `sect` of track (cyl, head) in zone z starts. */
  private angleOf(z: number, cyl: number, head: number, sect: number): number {
    const spt = this.zSpt[z]
    const off = modPos(
      this.zBase[z] + (cyl - this.zFirstCyl[z]) * this.zCylStride[z] + head * this.zHeadSkew[z] + sect,
      spt,
    )
    return Math.round((off * this.revNs) / spt)
  }

  /** ns to wait from time t, head on the right track, until sector `sect` comes under the head. */
  private waitFor(z: number, cyl: number, head: number, sect: number, t: SimTime): number {
    return this.waitAngle(this.angleOf(z, cyl, head, sect), t)
  }

  /** ns to wait from time t, head on the right track, until the sector at rotational offset `angle` comes. */
  waitAngle(angle: number, t: SimTime): number {
    const rev = this.revNs
    // both terms lie in [0, rev): their difference needs no further remainder
    let wait = angle - modPos(t, rev)
    if (wait < 0) wait += rev
    return wait > rev - ROT_TOLERANCE_NS ? 0 : wait
  }

  /** Rotational latency for `lba` if the head arrives on its track at time t. */
  rotationalWaitNs(lba: number, t: SimTime): number {
    this.locate(lba)
    return this.waitFor(this.zone, this.cyl, this.head, this.sect, t)
  }

  /** Seek time in ns for a move of `d` cylinders (0 for none). */
  seekNs(d: number): number {
    return this.seekTable[Math.min(d, this.cylinders)]
  }

  /**
   * Time to move the heads from `fromLba`'s track to `lba`'s track: a seek (plus write settle),
   * or a head switch on the same cylinder, or nothing.
   */
  moveNs(fromLba: number, lba: number, write: boolean): number {
    this.locate(fromLba)
    return this.moveFrom(this.cyl, this.head, lba, write)
  }

  /** As moveNs, from cylinder c0, head h0 (leaves `lba` located). */
  moveFrom(c0: number, h0: number, lba: number, write: boolean): number {
    this.locate(lba)
    const d = Math.abs(this.cyl - c0)
    this.movedCylinders = d
    if (d > 0) return this.seekNs(d) + (write ? this.writeSettleNs : 0)
    return this.head !== h0 ? this.headSwitchNs : 0
  }

  /**
   * The rotational offset of the located sector (after `locate`): with cylinder and head, what the
   * NCQ picker needs — computed once per command rather than once per ranking.
   */
  get locatedAngleNs(): number {
    return this.angleOf(this.zone, this.cyl, this.head, this.sect)
  }

  /**
   * As moveFrom, to a track already located (its cylinder and head), for callers that rank the
   * same targets many times. Leaves the mechanism's state as it was.
   */
  moveTo(c0: number, h0: number, cyl: number, head: number, write: boolean): number {
    const d = Math.abs(cyl - c0)
    return d > 0 ? this.seekNs(d) + (write ? this.writeSettleNs : 0) : head !== h0 ? this.headSwitchNs : 0
  }

  /** Positioning time (move + rotational wait) from cylinder c0, head h0 to `lba`, starting at t. */
  positioningFrom(c0: number, h0: number, lba: number, write: boolean, t: SimTime): number {
    const move = this.moveFrom(c0, h0, lba, write)
    return move + this.waitFor(this.zone, this.cyl, this.head, this.sect, t + move)
  }

  /**
   * Transfer `n` sectors from `lba` with the head already on its track at time t: waits for the
   * first sector, then reads/writes track by track, paying head and cylinder switches (the skew
   * hides them, so each costs the skew). Returns the time the last sector has passed, or `stopAt`
   * if that comes first; `walkLba` is then the LBA reached by `stopAt`. Sets `anchorT/anchorLba`
   * to the last exact (time, sector) point passed, from which a later walk can resume.
   */
  walk(lba: number, n: number, t: SimTime, stopAt: SimTime = Infinity): SimTime {
    this.walkLba = lba
    this.anchorT = t
    this.anchorLba = lba
    this.firstWaitNs = 0
    if (n <= 0) return t
    this.locate(lba)
    let z = this.zone
    let cyl = this.cyl
    let head = this.head
    let sect = this.sect
    let spt = this.zSpt[z]
    const rev = this.revNs
    let remaining = n
    for (;;) {
      const wait = this.waitFor(z, cyl, head, sect, t)
      if (remaining === n) this.firstWaitNs = wait
      t += wait
      if (t >= stopAt) {
        this.walkLba = lba
        return stopAt
      }
      this.anchorT = t
      this.anchorLba = lba
      const k = Math.min(remaining, spt - sect)
      const tk = t + Math.round((k * rev) / spt)
      if (stopAt < tk) {
        this.walkLba = lba + Math.floor(((stopAt - t) * spt) / rev)
        return stopAt
      }
      lba += k
      remaining -= k
      if (remaining === 0 || lba >= this.capacitySectors) {
        this.walkLba = lba
        return tk
      }
      t = tk
      sect = 0
      if (++head < this.heads) {
        t += this.headSwitchNs
        continue
      }
      head = 0
      cyl++
      t += this.cylSwitchNs
      if (cyl >= this.zFirstCyl[z] + this.zCyls[z]) spt = this.zSpt[++z]
    }
  }

  /** Media rates of a zone in MB/s (10^6 B/s): raw (one track) and sustained (with switches). */
  zoneRate(z: number): { rawMBps: number; sustainedMBps: number } {
    const spt = this.zSpt[z]
    const h = this.heads
    const raw = (spt * SECTOR * 1e9) / this.revNs / 1e6
    const sectorTimes = h * spt + (h - 1) * this.zHeadSkew[z] + this.zCylSkew[z]
    return { rawMBps: raw, sustainedMBps: (raw * h * spt) / sectorTimes }
  }

  /** First LBA of zone z. */
  zoneStart(z: number): number {
    return this.zFirstLba[z]
  }

  sectorsPerTrack(z: number): number {
    return this.zSpt[z]
  }
}

/**
 * Zones from a few numbers: `count` bands of (nearly) equal cylinders whose sectors per track fall
 * linearly from `outerSpt` to `innerSpt` — constant linear bit density makes a track's capacity
 * proportional to its radius, and cylinders are evenly spaced in radius.
 */
export function linearZones(cylinders: number, count: number, outerSpt: number, innerSpt: number): Zone[] {
  const zones: Zone[] = []
  const n = Math.max(1, Math.min(count, cylinders))
  const base = Math.floor(cylinders / n)
  let extra = cylinders - base * n
  for (let i = 0; i < n; i++) {
    const spt = n === 1 ? outerSpt : Math.round(outerSpt + ((innerSpt - outerSpt) * i) / (n - 1))
    zones.push({ cylinders: base + (extra-- > 0 ? 1 : 0), sectorsPerTrack: spt })
  }
  return zones
}

/** Parse `"cylinders:sectorsPerTrack, …"` (outer zone first); an error message if malformed. */
export function parseZoneTable(text: string): Zone[] | string {
  const zones: Zone[] = []
  for (const part of text.split(',')) {
    const m = /^\s*(\d+)\s*:\s*(\d+)\s*$/.exec(part)
    if (!m) return `expected "cylinders:sectorsPerTrack, …", got ${JSON.stringify(part.trim())}`
    const cylinders = parseInt(m[1], 10)
    const sectorsPerTrack = parseInt(m[2], 10)
    if (cylinders < 1 || sectorsPerTrack < 2) return 'each zone needs ≥ 1 cylinder and ≥ 2 sectors per track'
    zones.push({ cylinders, sectorsPerTrack })
  }
  return zones
}
