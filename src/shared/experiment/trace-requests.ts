import type { BlkparseEvent } from '../formats/blkparse-line'
import type { StageAccount } from './stage-recorder'

/**
 * A blktrace's bios and requests, matched event by event (trace-stages.ts counts their stages).
 *
 * How events become requests (blktrace(8), blkparse(1) "TRACE ACTIONS"; the kernel's
 * kernel/trace/blktrace.c): Q queues a bio (the request's queue time, and its owner: the pid and
 * command that issued it); G gets it a request; M and F merge a later bio into a queued request at
 * its back or front (the request grows; the merge counts for the bio's process); X splits a bio at
 * a sector (the first part keeps the Q, the rest is queued at the same time unless it is queued
 * again); I inserts the request into the scheduler; D issues it to the device (R requeues it:
 * the next D counts); C completes it. Bios and requests are found by device and sector (`sector +
 * blocks` for bios, the start sector for requests, since merges grow them).
 *
 * Requests without data (empty flushes: `Q FWS [cmd]`, no sector) are matched in order among the
 * device's other requests without data. A request whose Q the trace did not see (queued before
 * tracing began) has no owner (`q` −1, `acc` null).
 *
 * A request's events come from several CPUs — queued and inserted by its process, issued by it or a
 * kworker, completed in an interrupt or the loop driver's worker — and each CPU stamps its own
 * (tracefs's default `local` clock "may not be in sync across CPUs": Documentation/trace/ftrace.rst;
 * blktrace before ktime_get, cpu_clock). A trace printed in time order (blkparse; trace_pipe when
 * its reader lags and merges the CPUs' buffers by time) may then put a request's C before its D,
 * or its I after its D: a C that finds its request not yet issued completes it at its D
 * (`early`); an I that finds it issued, without an I and issued at most CLOCK_SKEW_NS before, is
 * its I; and a D before its Q (a request without an owner then) is the D of the request its G or I
 * makes of that bio (its dispatch counts for no process). Taken as new requests, these left
 * phantoms behind that a later request at the same sector was matched to.
 */

/** How much earlier than the event it follows a request's event may be stamped (another CPU's clock), ns. */
export const CLOCK_SKEW_NS = 10e6
export interface TraceRequest {
  dev: string
  sector: number
  nsect: number
  /** Its Q, G, I and D times (ns, −1: not seen). */
  q: number
  g: number
  i: number
  d: number
  /** Its C, seen before its D (stamped on a CPU whose clock is behind): it completes at its D; −1: not seen. */
  c: number
  acc: StageAccount | null
  pid: number
  write: boolean
}

interface Bio {
  q: number
  acc: StageAccount | null
  pid: number
  write: boolean
  /** Made by a split: a later Q of the same bio is the same I/O. */
  split: boolean
}

export const isWriteRwbs = (rwbs: string): boolean => rwbs.includes('W')

/** The bios and requests in flight in a trace: see the module comment. */
export class TraceRequests {
  private readonly bios = new Map<string, Bio[]>()
  private readonly byStart = new Map<string, TraceRequest[]>()
  private readonly byEnd = new Map<string, TraceRequest[]>()
  /** Requests without data (empty flushes), oldest first, per device. */
  private readonly dataless = new Map<string, TraceRequest[]>()

  /** `owner`: the account a Q event's I/O counts in (null: none), asked once per I/O queued. */
  constructor(private readonly owner: (e: BlkparseEvent, write: boolean) => StageAccount | null) {}

  /** A Q event. */
  queued(e: BlkparseEvent): void {
    const write = isWriteRwbs(e.rwbs)
    if (e.sector < 0) {
      // an empty flush: a request of its own, matched in order
      push(this.dataless, e.dev, newReq(e, e.ns, this.owner(e, write), e.pid, write))
      return
    }
    const key = bioKey(e.dev, e.sector, e.nsect)
    const same = this.bios.get(key)
    // the rest of a split bio queued again: the same I/O, queued when its first part was
    if (same?.some((b) => b.split)) {
      const b = same.find((x) => x.split)!
      b.split = false
      return
    }
    const acc = this.owner(e, write)
    push(this.bios, key, { q: e.ns, acc, pid: e.pid, write, split: false })
  }

  private takeBio(dev: string, sector: number, nsect: number): Bio | undefined {
    const key = bioKey(dev, sector, nsect)
    const list = this.bios.get(key)
    const b = list?.shift()
    if (list && list.length === 0) this.bios.delete(key)
    return b
  }

  /** An M or F event: the request it names grows by the bio. Returns the account of the bio merged (null: none). */
  merged(e: BlkparseEvent): StageAccount | null {
    if (e.sector < 0) return null
    const acc = this.takeBio(e.dev, e.sector, e.nsect)?.acc ?? null
    if (e.action === 'M') {
      // back merge: the request that ends where the bio starts grows by it
      const r = first(this.byEnd, `${e.dev}:${e.sector}`, (x) => x.d < 0)
      if (!r) return acc
      this.unindex(r)
      r.nsect += e.nsect
      this.index(r)
    } else {
      const r = first(this.byStart, `${e.dev}:${e.sector + e.nsect}`, (x) => x.d < 0)
      if (!r) return acc
      this.unindex(r)
      r.sector = e.sector
      r.nsect += e.nsect
      this.index(r)
    }
    return acc
  }

  /** An X event. */
  split(e: BlkparseEvent): void {
    // the bio queued as `sector + n` is now `sector + (splitAt − sector)` and a rest from splitAt
    const list = [...this.bios.entries()].find(
      ([k, l]) => k.startsWith(`${e.dev}:${e.sector}+`) && l.length > 0,
    )
    if (!list) return
    const [key, bios] = list
    const whole = Number(key.slice(key.indexOf('+') + 1))
    const b = bios.shift()!
    if (bios.length === 0) this.bios.delete(key)
    push(this.bios, bioKey(e.dev, e.sector, e.nsect), b)
    // both parts may be queued again (the kernel traces Q once per bio it is given): the same I/O
    b.split = true
    const rest = whole - e.nsect
    if (rest > 0) push(this.bios, bioKey(e.dev, e.splitAt!, rest), { ...b })
  }

  /** The request an event names: found, or made from its bio (or without a Q: unowned). */
  private request(e: BlkparseEvent, pick: (r: TraceRequest) => boolean): TraceRequest {
    if (e.sector < 0) {
      const list = this.dataless.get(e.dev)
      const r = list?.find(pick)
      if (r) return r
      const n = newReq(e, -1, null, e.pid, isWriteRwbs(e.rwbs))
      push(this.dataless, e.dev, n)
      return n
    }
    const found = exact(this.byStart, e, pick)
    if (found) return found
    const b = this.takeBio(e.dev, e.sector, e.nsect)
    if (b && e.action !== 'D') {
      // its D came before its Q (stamped on a CPU whose clock is behind): the request, issued
      const early = exact(
        this.byStart,
        e,
        (x) => x.q < 0 && x.d >= 0 && x.c < 0 && b.q - x.d <= CLOCK_SKEW_NS,
      )
      if (early) {
        Object.assign(early, { q: b.q, acc: b.acc, pid: b.pid, write: b.write })
        return early
      }
    }
    const r = b ? newReq(e, b.q, b.acc, b.pid, b.write) : newReq(e, -1, null, e.pid, isWriteRwbs(e.rwbs))
    this.index(r)
    return r
  }

  /** A G or I event. */
  got(e: BlkparseEvent): void {
    if (e.action === 'I' && e.sector >= 0 && !exact(this.byStart, e, (x) => x.i < 0 && x.d < 0)) {
      // its I stamped after its D: the request issued, owned, without an I
      const late = exact(
        this.byStart,
        e,
        (x) => x.i < 0 && x.d >= 0 && x.q >= 0 && e.ns - x.d <= CLOCK_SKEW_NS,
      )
      if (late) {
        late.i = e.ns
        return
      }
    }
    const r = this.request(
      e,
      (x) => (e.action === 'G' ? x.g < 0 && x.i < 0 : x.i < 0) && x.d < 0 && completesNear(x, e.ns),
    )
    if (e.action === 'G') r.g = e.ns
    else r.i = e.ns
  }

  /** A D event: the request issued — and completed, when its C came first (`c` ≥ 0: no longer in flight). */
  issued(e: BlkparseEvent): TraceRequest {
    const r = this.request(e, (x) => x.d < 0 && completesNear(x, e.ns))
    r.d = e.ns
    if (r.c >= 0) {
      if (r.sector < 0) remove(this.dataless, r.dev, r)
      else this.unindex(r)
    } else if (r.sector >= 0 && r.nsect !== e.nsect) {
      // a merge the trace did not show: the device is sent what D says
      this.unindex(r)
      r.nsect = e.nsect
      this.index(r)
    }
    return r
  }

  /** An R event. */
  requeued(e: BlkparseEvent): void {
    const r =
      e.sector < 0 ? this.dataless.get(e.dev)?.find((x) => x.d >= 0) : exact(this.byStart, e, (x) => x.d >= 0)
    if (r) r.d = -1
  }

  /**
   * A C event: the request it completes, no longer in flight (undefined: none matches, or its D has
   * not come yet — `issued` completes it then).
   */
  completed(e: BlkparseEvent): TraceRequest | undefined {
    if (e.sector < 0) {
      const list = this.dataless.get(e.dev)
      const k = list ? list.findIndex((x) => x.d >= 0) : -1
      if (k >= 0) return list!.splice(k, 1)[0]
      const early = list?.find((x) => x.c < 0)
      if (early) early.c = e.ns
      return undefined
    }
    const r = exact(this.byStart, e, (x) => x.d >= 0)
    if (r) {
      this.unindex(r)
      return r
    }
    const early = exact(this.byStart, e, (x) => x.c < 0)
    if (early) early.c = e.ns
    return undefined
  }

  /**
   * The requests whose C came and whose D never did (the trace lost it, or ended between them),
   * no longer in flight: each completes at its C.
   */
  takeEarly(): TraceRequest[] {
    const out: TraceRequest[] = []
    for (const [, l] of [...this.byStart, ...this.dataless]) for (const r of l) if (r.c >= 0) out.push(r)
    for (const r of out) {
      if (r.sector < 0) remove(this.dataless, r.dev, r)
      else this.unindex(r)
    }
    return out
  }

  /** Requests queued in the trace that have not completed. */
  get inFlight(): number {
    return [...this.byStart.values(), ...this.dataless.values()].reduce(
      (n, l) => n + l.filter((r) => r.q >= 0).length,
      0,
    )
  }

  private index(r: TraceRequest): void {
    if (r.sector < 0) return
    push(this.byStart, `${r.dev}:${r.sector}`, r)
    push(this.byEnd, `${r.dev}:${r.sector + r.nsect}`, r)
  }

  private unindex(r: TraceRequest): void {
    remove(this.byStart, `${r.dev}:${r.sector}`, r)
    remove(this.byEnd, `${r.dev}:${r.sector + r.nsect}`, r)
  }
}

/**
 * The request may still see events at `ns`: its C has not come, or came at most CLOCK_SKEW_NS
 * before (stamped on a CPU whose clock is behind). Long after its C, it is one whose D the trace
 * lost, and the event is another request's.
 */
const completesNear = (r: TraceRequest, ns: number): boolean => r.c < 0 || ns - r.c <= CLOCK_SKEW_NS

function newReq(
  e: BlkparseEvent,
  q: number,
  acc: StageAccount | null,
  pid: number,
  write: boolean,
): TraceRequest {
  return { dev: e.dev, sector: e.sector, nsect: e.nsect, q, g: -1, i: -1, d: -1, c: -1, acc, pid, write }
}

const bioKey = (dev: string, sector: number, nsect: number): string => `${dev}:${sector}+${nsect}`

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const l = m.get(k)
  if (l) l.push(v)
  else m.set(k, [v])
}

function remove<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const l = m.get(k)
  if (!l) return
  const i = l.indexOf(v)
  if (i >= 0) l.splice(i, 1)
  if (l.length === 0) m.delete(k)
}

function first<K, V>(m: Map<K, V[]>, k: K, pick: (v: V) => boolean): V | undefined {
  return m.get(k)?.find(pick)
}

/** The request starting at the event's sector that `pick` accepts, the same size preferred. */
function exact(
  m: Map<string, TraceRequest[]>,
  e: BlkparseEvent,
  pick: (r: TraceRequest) => boolean,
): TraceRequest | undefined {
  const l = m.get(`${e.dev}:${e.sector}`)
  if (!l) return undefined
  return l.find((r) => pick(r) && r.nsect === e.nsect) ?? l.find(pick)
}
