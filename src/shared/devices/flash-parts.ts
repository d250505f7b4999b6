import type { Request } from '../block/types'
import type { SimTime } from '../sim/time'
import { addMarkedParts, markPart } from './device-parts'

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
/**
 * A read's parts are worked out in one step, when the run takes them (takeFlashParts, at its
 * completion): while flash.ts places the read it writes the times of its path into the request's
 * `devParts` — the latest die's work as each die is offered (readOffer), then the command's start,
 * the host link's times and its completion (readPlaced) — and sets `devMask` to the path that
 * decided it: the die's work, the link's, or neither. Those codes are negative, and markPart's
 * masks never are (at most 31 parts): a write's parts are marked as it is placed (writeDone), and
 * taken as any device's (addMarkedParts). The block layer starts each request unmarked
 * (BlockQueue.start), so a read has no parts marked before.
 */
const READ_VIA_DIE = -1
const READ_VIA_LINK = -2
const READ_BARE = -3
// A read's times in its `devParts`: its start (after the command overhead); the latest die's work
// (readOffer's arguments); the first page sensed, the link free, the completion (readPlaced).
const R_T = 0
const R_S = 1
const R_SENSE1 = 2
const R_XS = 3
const R_XE = 4
const R_SENSED = 5
const R_END = 6
const R_FIRST = 7
const R_LINK = 8
const R_DONE = 9
if (FLASH_PARTS.length <= R_DONE) throw new Error("a read's times need a slot each in its devParts")

/**
 * The latest die's work for the read being placed (flash-dies.ts, as each die's work ends later than
 * the last offered): the die is free at `s`, its first page is sensed after `first`, its channel
 * takes the pages from `xs` (`kX`: their transfer), the last is out at `sensed`, and read retries
 * end it at `end`. Sensing that outlasts the transfers is array time.
 */
export function readOffer(
  times: Float64Array,
  s: number,
  first: number,
  xs: number,
  kX: number,
  sensed: number,
  end: number,
): void {
  times[R_S] = s
  times[R_SENSE1] = s + first
  times[R_XS] = xs
  times[R_XE] = xs + kX
  times[R_SENSED] = sensed
  times[R_END] = end
}

/**
 * A read placed: started at `t` (after the command overhead), done at `done`, its data crossing
 * the host link after the die's work (`viaDie`: the latest die offered, if `offered`), or else
 * after the link's earlier transfers (free at `linkFrom`) and its first page (`t + tr0`).
 */
export function readPlaced(
  rq: Request,
  times: Float64Array,
  t: SimTime,
  tr0: number,
  linkFrom: number,
  viaDie: boolean,
  offered: boolean,
  done: SimTime,
): void {
  times[R_T] = t
  times[R_DONE] = done
  if (!viaDie) {
    times[R_FIRST] = t + tr0
    times[R_LINK] = linkFrom
    rq.devMask = READ_VIA_LINK
  } else rq.devMask = offered ? READ_VIA_DIE : READ_BARE
}

/**
 * Add a completed flash command's parts to `into` (Device.takeParts). A read's (readPlaced): mark
 * by mark along its path, as markPart would have marked them — `c…` the cursor after each mark
 * (markPart's `devAt`, from the dispatch), none past `done`; a write's: as marked.
 */
export function takeFlashParts(rq: Request, into: Float64Array): void {
  const path = rq.devMask
  if (path >= 0) return addMarkedParts(rq, into)
  const m = rq.devParts!
  const done = m[R_DONE]
  const c0 = rq.devAt
  const c1 = Math.max(c0, Math.round(m[R_T]))
  let cn = c1
  if (path === READ_VIA_DIE) {
    // The die's times come in order (s ≤ s + first ≤ xs ≤ xs + kX ≤ sensed ≤ end: flash-dies.ts)
    // and none is past `done` (the data crosses the link after the die's work): each cursor is its
    // time rounded, or c1 if later — the cursors' chain without its steps (markPart's rounding
    // keeps the order; a time past `done` by less than its rounding rounds to `done`)
    const c2 = Math.max(c1, Math.round(m[R_S]))
    const c3 = Math.max(c1, Math.round(m[R_SENSE1]))
    const c4 = Math.max(c1, Math.round(m[R_XS]))
    const c5 = Math.max(c1, Math.round(m[R_XE]))
    const c6 = Math.max(c1, Math.round(m[R_SENSED]))
    // read retries end it after its last page (without them `end` is `sensed`: no time)
    cn = Math.max(c1, Math.round(m[R_END]))
    into[P_DIE_WAIT] += c2 - c1
    into[P_ARRAY] += c3 - c2 + (c6 - c5)
    into[P_CHAN_WAIT] += c4 - c3
    into[P_CHAN] += c5 - c4
    into[P_RETRY] += cn - c6
  } else if (path === READ_VIA_LINK) {
    const c2 = cursor(c1, m[R_FIRST], done)
    cn = cursor(c2, m[R_LINK], done)
    into[P_ARRAY] += c2 - c1
    into[P_LINK_WAIT] += cn - c2
  }
  into[P_OVERHEAD] += c1 - c0
  into[P_HOST] += Math.max(cn, Math.round(done)) - cn
}

/**
 * The path through one write: flash-dies.ts offers it each die's program as it places it, and keeps
 * the one that ends last (`end`), as the times it passed; the write's own steps before and after
 * are marked when it is done. Fields, no allocation per command.
 */
export class FlashPath {
  /** End of the latest die's work offered for this command (−∞: none yet). */
  end = -Infinity
  // the first page in, die free, old pages read back, channel taken; then the pipeline
  private ready = 0
  private s0 = 0
  private s = 0
  private xs = 0
  private tX = 0
  private k = 0
  private step = 0
  private tProg = 0
  private gc = 0
  private erase = 0

  /** A new command. */
  reset(): void {
    this.end = -Infinity
  }

  /**
   * A die programs k pages (flash-dies.ts programOn): the first is in the controller at `ready`, the die
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

  /** The program's times as marks, none past `done`. */
  private marks(rq: Request, done: SimTime): void {
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
