import type { Request } from '../block/types'
import type { SimTime } from '../sim/time'
import { markPart } from './device-parts'

/**
 * The parts of a flash command's service (Device.parts). A command's pages are served by several
 * dies at once, so its time is split along the path that decided its completion (flash.ts computes
 * it in closed form): the controller's overhead (and firmware jitter); the host link — waiting for
 * it, the data crossing it; then, on the die whose pages finished last, waiting for that die (its
 * earlier work, or a background program), the array's work (sensing a page, programming it), the
 * old pages read back for a read-modify-write of a partly written mapping unit, waiting for its
 * channel, the pages crossing it, read-retry steps, block erases (a block-mapped FTL), and the
 * garbage collection each programmed page pays for while free space is short; or, for a write
 * taken into the DRAM buffer, waiting for room there. These are the resources and times flash.ts
 * composes (reference §10: pages striped over channels × dies, tR/tPROG/tBERS, the channel and
 * host transfers, read-modify-write of partial mapping units, greedy GC).
 */
export const FLASH_PARTS = [
  'command overhead',
  'waiting for the host link',
  'host transfer',
  'waiting for a die',
  'array',
  'read-modify-write',
  'waiting for the channel',
  'channel transfer',
  'read retry',
  'erase',
  'garbage collection',
  'waiting for write-buffer room',
] as const
const P_OVERHEAD = 0
const P_LINK_WAIT = 1
const P_HOST = 2
const P_DIE_WAIT = 3
const P_ARRAY = 4
const P_RMW = 5
const P_CHAN_WAIT = 6
const P_CHAN = 7
const P_RETRY = 8
const P_ERASE = 9
const P_GC = 10
const P_BUFFER_ROOM = 11
/** The parts readDone sets on a read that the die's work decided, the link's, or neither. */
const READ_BARE = (1 << P_OVERHEAD) | (1 << P_HOST)
const READ_VIA_LINK = READ_BARE | (1 << P_ARRAY) | (1 << P_LINK_WAIT)
const READ_VIA_DIE =
  READ_BARE | (1 << P_DIE_WAIT) | (1 << P_ARRAY) | (1 << P_CHAN_WAIT) | (1 << P_CHAN) | (1 << P_RETRY)

/**
 * The path through one command: flash.ts offers it each die's work as it places it, and keeps the
 * one that ends last (`end`), as the times it passed; the command's own steps before and after
 * are marked when it is done. Fields, no allocation per command.
 */
export class FlashPath {
  /** End of the latest die's work offered for this command (−∞: none yet). */
  end = -Infinity
  /** What that die did: 0 nothing yet, 1 a read, 2 a program. */
  private kind = 0
  // a read: die free, first page sensed, channel taken, pages across it, last page sensed
  private s = 0
  private first = 0
  private xs = 0
  private kX = 0
  private sensed = 0
  // a program: first page in, die free, old pages read back, channel taken; then the pipeline
  private ready = 0
  private s0 = 0
  private tX = 0
  private k = 0
  private step = 0
  private tProg = 0
  private gc = 0
  private erase = 0

  /** A new command. */
  reset(): void {
    this.end = -Infinity
    this.kind = 0
  }

  /**
   * A die reads k pages: it is free at `s`, its first page is sensed after `first`, its channel
   * takes them from `xs` (`kX`: their transfer), the last is out at `sensed`, and read retries end
   * it at `end`. Sensing that outlasts the transfers is array time.
   */
  read(s: number, first: number, xs: number, kX: number, sensed: number, end: number): void {
    this.end = end
    this.kind = 1
    this.s = s
    this.first = first
    this.xs = xs
    this.kX = kX
    this.sensed = sensed
  }

  /**
   * A die programs k pages (flash.ts programOn): the first is in the controller at `ready`, the die
   * is free at `s0`, has read back the old pages by `s`, its channel takes the first page at `xs`
   * (`tX` a page's transfer); the rest follow every `step` (the longest of a program, a page's
   * transfer, the gap between the host's pages) and the last page's program `tProg`, of which `gc`
   * is garbage collection's share; then `erase`.
   */
  program(
    ready: number,
    s0: number,
    s: number,
    xs: number,
    tX: number,
    k: number,
    step: number,
    tProg: number,
    gc: number,
    erase: number,
    end: number,
  ): void {
    this.end = end
    this.kind = 2
    this.ready = ready
    this.s0 = s0
    this.s = s
    this.xs = xs
    this.tX = tX
    this.k = k
    this.step = step
    this.tProg = tProg
    this.gc = gc
    this.erase = erase
  }

  /**
   * A read is done at `done`, its data crossing the host link after the die's work (`viaDie`), or
   * else after the link's earlier transfers (free at `linkFrom`) and its first page (`t + tr0`).
   */
  readDone(rq: Request, t: SimTime, tr0: number, linkFrom: number, viaDie: boolean, done: SimTime): void {
    const parts = rq.devParts
    if (parts === null) return
    // A command's parts are all marked here, in one go (flash.ts computes its completion at its
    // start): unless some were marked before, each is set once, a part no mark reached set to 0 —
    // the sums the run takes (StageAccount.takeParts) are markPart's, without a test and branch
    // per mark. Small functions, each its own path, so that the compiler inlines them.
    if (rq.devMask !== 0) this.readDoneMarked(rq, parts, t, tr0, linkFrom, viaDie, done)
    else if (!viaDie) readViaLink(rq, parts, t, t + tr0, linkFrom, done)
    else if (this.kind === 1) this.readViaDie(rq, parts, t, done)
    else readBare(rq, parts, t, done)
  }

  /** readDone of a read the die's work decided. `c…`: the cursor after each mark (markPart's `devAt`), none past `done`. */
  private readViaDie(rq: Request, parts: Float64Array, t: SimTime, done: SimTime): void {
    const c1 = Math.max(rq.devAt, Math.round(t))
    const c2 = cursor(c1, this.s, done)
    const c3 = cursor(c2, this.s + this.first, done)
    const c4 = cursor(c3, this.xs, done)
    const c5 = cursor(c4, this.xs + this.kX, done)
    const c6 = cursor(c5, this.sensed, done)
    // read retries end it after its last page (without them `end` is `sensed`: no time)
    const c7 = this.end === this.sensed ? c6 : cursor(c6, this.end, done)
    parts[P_DIE_WAIT] = c2 - c1
    parts[P_ARRAY] = c3 - c2 + (c6 - c5)
    parts[P_CHAN_WAIT] = c4 - c3
    parts[P_CHAN] = c5 - c4
    parts[P_RETRY] = c7 - c6
    readEnd(rq, parts, c1, c7, done, READ_VIA_DIE)
  }

  /** readDone for a request that has parts marked already: mark by mark (markPart's arithmetic on locals). */
  private readDoneMarked(
    rq: Request,
    parts: Float64Array,
    t: SimTime,
    tr0: number,
    linkFrom: number,
    viaDie: boolean,
    done: SimTime,
  ): void {
    let at = rq.devAt
    let mask = rq.devMask
    let r = Math.round(t)
    if (r > at) mask = addPart(parts, mask, P_OVERHEAD, r - at)
    at = Math.max(at, r)
    if (viaDie && this.kind === 1) {
      r = Math.round(Math.min(this.s, done))
      if (r > at) mask = addPart(parts, mask, P_DIE_WAIT, r - at)
      at = Math.max(at, r)
      r = Math.round(Math.min(this.s + this.first, done))
      if (r > at) mask = addPart(parts, mask, P_ARRAY, r - at)
      at = Math.max(at, r)
      r = Math.round(Math.min(this.xs, done))
      if (r > at) mask = addPart(parts, mask, P_CHAN_WAIT, r - at)
      at = Math.max(at, r)
      r = Math.round(Math.min(this.xs + this.kX, done))
      if (r > at) mask = addPart(parts, mask, P_CHAN, r - at)
      at = Math.max(at, r)
      r = Math.round(Math.min(this.sensed, done))
      if (r > at) mask = addPart(parts, mask, P_ARRAY, r - at)
      at = Math.max(at, r)
      r = Math.round(Math.min(this.end, done))
      if (r > at) mask = addPart(parts, mask, P_RETRY, r - at)
      at = Math.max(at, r)
    } else if (!viaDie) {
      r = Math.round(Math.min(t + tr0, done))
      if (r > at) mask = addPart(parts, mask, P_ARRAY, r - at)
      at = Math.max(at, r)
      r = Math.round(Math.min(linkFrom, done))
      if (r > at) mask = addPart(parts, mask, P_LINK_WAIT, r - at)
      at = Math.max(at, r)
    }
    r = Math.round(done)
    if (r > at) mask = addPart(parts, mask, P_HOST, r - at)
    rq.devAt = Math.max(at, r)
    rq.devMask = mask
  }

  /**
   * A write is done at `done`: its data had the link from `hs` and was in at `dataIn`; then it was
   * buffered (`buffered`: the rest is waiting for room), or the die that finished last decided it,
   * or nothing after the data did.
   */
  writeDone(rq: Request, t: SimTime, hs: number, dataIn: number, buffered: boolean, done: SimTime): void {
    markPart(rq, P_OVERHEAD, t)
    markPart(rq, P_LINK_WAIT, Math.min(hs, done))
    if (buffered) {
      markPart(rq, P_HOST, Math.min(dataIn, done))
      markPart(rq, P_BUFFER_ROOM, done)
    } else if (this.end > dataIn) {
      this.marks(rq, done)
      markPart(rq, P_ARRAY, done) // a rounding's ns at most
    } else markPart(rq, P_HOST, done)
  }

  /** The die's times as marks, none past `done`. */
  private marks(rq: Request, done: SimTime): void {
    if (this.kind === 1) {
      markPart(rq, P_DIE_WAIT, Math.min(this.s, done))
      markPart(rq, P_ARRAY, Math.min(this.s + this.first, done))
      markPart(rq, P_CHAN_WAIT, Math.min(this.xs, done))
      markPart(rq, P_CHAN, Math.min(this.xs + this.kX, done))
      markPart(rq, P_ARRAY, Math.min(this.sensed, done))
      markPart(rq, P_RETRY, Math.min(this.end, done))
      return
    }
    if (this.kind !== 2) return
    const { k, step, tProg, tX } = this
    markPart(rq, P_HOST, Math.min(this.ready, done))
    markPart(rq, P_DIE_WAIT, Math.min(this.s0, done))
    markPart(rq, P_RMW, Math.min(this.s, done))
    markPart(rq, P_CHAN_WAIT, Math.min(this.xs, done))
    let t = this.xs + tX
    markPart(rq, P_CHAN, Math.min(t, done))
    // the pages after the first, at the pace of their slowest step, and the last page's program
    // (a fraction of a page, packed, pays for a fraction of a program)
    let prog = tProg
    if (k >= 1) {
      const pipe = (k - 1) * step
      if (step === tProg) prog += pipe
      else markPart(rq, step === tX ? P_CHAN : P_HOST, Math.min((t += pipe), done))
    } else prog = Math.max(0, (k - 1) * step + tProg)
    const gcShare = tProg > 0 ? this.gc / tProg : 0
    markPart(rq, P_ARRAY, Math.min((t += prog * (1 - gcShare)), done))
    markPart(rq, P_GC, Math.min((t += prog * gcShare), done))
    markPart(rq, P_ERASE, Math.min(t + this.erase, done))
  }
}

/** The cursor after a mark at `t` (markPart's `devAt`, rounded), none past `done`: never behind `c`. */
function cursor(c: number, t: number, done: SimTime): number {
  return Math.max(c, Math.round(Math.min(t, done)))
}

/** readDone of a read the link decided: its first page sensed at `sensed`, the link free at `linkFrom`. */
function readViaLink(
  rq: Request,
  parts: Float64Array,
  t: SimTime,
  sensed: number,
  linkFrom: number,
  done: SimTime,
): void {
  const c1 = Math.max(rq.devAt, Math.round(t))
  const c2 = cursor(c1, sensed, done)
  const c3 = cursor(c2, linkFrom, done)
  parts[P_ARRAY] = c2 - c1
  parts[P_LINK_WAIT] = c3 - c2
  readEnd(rq, parts, c1, c3, done, READ_VIA_LINK)
}

/** readDone of a read neither the die nor the link decided (no die's work offered). */
function readBare(rq: Request, parts: Float64Array, t: SimTime, done: SimTime): void {
  const c1 = Math.max(rq.devAt, Math.round(t))
  readEnd(rq, parts, c1, c1, done, READ_BARE)
}

/**
 * The ends of a read's parts set in one go: the command overhead up to its first mark's cursor
 * `c1`, the host transfer from its last one `cn` to `done`; `mask`: the parts set.
 */
function readEnd(
  rq: Request,
  parts: Float64Array,
  c1: number,
  cn: number,
  done: SimTime,
  mask: number,
): void {
  const r = Math.max(cn, Math.round(done))
  parts[P_OVERHEAD] = c1 - rq.devAt
  parts[P_HOST] = r - cn
  rq.devMask = mask
  rq.devAt = r
}

/** Add `ns` to part `part` of a request's parts whose set parts are `mask`; returns the new mask. */
function addPart(parts: Float64Array, mask: number, part: number, ns: number): number {
  const bit = 1 << part
  if ((mask & bit) === 0) {
    parts[part] = ns
    return mask | bit
  }
  parts[part] += ns
  return mask
}
