import type { SimTime } from './time'

import { pastEvent, sortEntries } from './engine-parts'

export { Timer } from './timer'

/**
 * The discrete-event engine (SimPy's core in spirit): a binary min-heap of events ordered by
 * (time, seq). `seq` grows with every schedule, so events at equal times run in the order they
 * were scheduled and a run is reproducible. Invariants:
 *  - `now` never decreases; an event is never scheduled in the past;
 *  - every scheduled event runs exactly once unless cancelled first.
 *
 * Hot path: no closures, no objects per event. An event names a handler object and an integer
 * kind, and lives in a slot of the engine's own arrays (a struct of arrays: handler, kind, data,
 * seq), slots reused from a free stack. The heap holds slot numbers with each entry's time and seq
 * beside them in typed arrays, so sifting compares and moves numbers in contiguous memory — no
 * pointer followed per comparison, no object reference stored per move (each such store is a
 * write barrier). A pop sifts its hole down to a leaf by the smaller child (one comparison a level)
 * and the last entry up from there (Floyd's), as the last entry nearly always belongs near the
 * bottom. Events for the current time (a queue kick, a resumed waiter) skip the heap: they go to a
 * FIFO that runs after the heap's events at that time. That is the (time, seq) order exactly: an
 * event in the heap at the current time was scheduled before the time was reached, so before
 * anything in the FIFO. Events earlier than everything in the heap when they are scheduled (CPU
 * bursts of a few microseconds, a queue run nanoseconds ahead, among device completions hundreds of
 * microseconds ahead) wait in a short sorted run in front of the heap instead of sifting to its
 * root and back: the front holds up to FRONT events, each earlier than every event in the heap.
 * One slot was not enough where two such events are pending at once (a scheduler's CPU cost runs
 * beside the submitter's burst: BFQ at QD32 on nvme-tlc pushed 2.25 events a request into the
 * heap, 1.88 with two slots; more slots take no more).
 *
 * While new events land near the end of the order, the heap's arrays hold a sorted run instead
 * (`sorted`: from `base`, the earliest first): a pop moves its start, a new event moves the later
 * ones up one, so a device that finishes in the order it was sent pays nothing for the order
 * (ssd-sata-mlc at QD32: each completion went before the one far timer only; noop ≈5 % less CPU).
 * Moving more than SORTED_SHIFTS makes it a heap (a sorted array is one), sorted back into a run
 * at SORTED_AGAIN entries or after RESORT pops (at most RESORT_MAX entries). Either pops the same
 * (time, seq) order.
 *
 * `at` and what it calls are inlined into every event source, and V8 inlines into one optimised
 * function only up to a budget of bytecode (920 bytes): the rare branches (an event in the past, a
 * full ring or front) live in functions of their own, so scheduling an event leaves its caller
 * budget for its other calls.
 */
export interface Handler {
  onEvent(kind: number, data: unknown): void
}

/** A scheduled event's slot; with its `seq` (Engine.seqOf) it cancels the event. */
export type EventTicket = number

/** Events the front (before the heap) holds at most. */
const FRONT = 2
/** Entries a new event may move up in the sorted run before the run becomes a heap. */
const SORTED_SHIFTS = 16
/** A heap this small is sorted into a run again. */
const SORTED_AGAIN = 8
/** Pops of a heap before it is sorted into a run again, if it holds no more than RESORT_MAX. */
const RESORT = 4096
/** The largest heap sorted after RESORT pops: an insertion sort is quadratic (10⁵ entries: 10⁶ moves a pop). */
const RESORT_MAX = 256

export class Engine {
  now: SimTime = 0
  /** Events run so far (a measure of work, also used for progress). */
  executed = 0
  // The events' slots: handler (null: cancelled or free), kind, data, seq (−1: free).
  private handlers: (Handler | null)[] = []
  private kinds = new Int32Array(0)
  private datas: unknown[] = []
  private slotSeqs = new Float64Array(0)
  /** Free slots, a stack of `freeCount`. */
  private free = new Int32Array(0)
  private freeCount = 0
  /** The heap (or `sorted`, a run from `base`): `size` entries, slot `ids[i]` at `times[i]`, `seqs[i]`. */
  private size = 0
  private base = 0
  private sorted = true
  /** Pops since the run became a heap. */
  private heapPops = 0
  private ids = new Int32Array(64)
  private times = new Float64Array(64)
  private seqs = new Float64Array(64)
  /**
   * The front: `frontCount` events before every event in the heap, the latest first (the earliest
   * at `frontCount − 1`), their slots, times and seqs.
   */
  private frontCount = 0
  private readonly frontIds = new Int32Array(FRONT)
  private readonly frontTimes = new Float64Array(FRONT)
  private readonly frontSeqs = new Float64Array(FRONT)
  /** Slots of events at `now`, in scheduling order: a ring of `nowCount` from `nowHead` (capacity 2^k). */
  private nowRing = new Int32Array(16)
  private nowHead = 0
  private nowCount = 0
  private nextSeq = 0
  private stopped = false

  constructor() {
    this.growSlots(64)
  }

  /** Schedule `handler.onEvent(kind, data)` at absolute time `at`; returns a ticket to cancel it. */
  at(at: SimTime, handler: Handler, kind: number, data?: unknown): EventTicket {
    if (at < this.now) throw pastEvent(at, this.now)
    if (this.freeCount === 0) this.growSlots(2 * this.kinds.length)
    const id = this.free[--this.freeCount]
    const seq = this.nextSeq++
    this.handlers[id] = handler
    this.kinds[id] = kind
    this.datas[id] = data
    this.slotSeqs[id] = seq
    if (at === this.now) this.pushNow(id)
    else this.push(id, at, seq)
    return id
  }

  after(delay: SimTime, handler: Handler, kind: number, data?: unknown): EventTicket {
    return this.at(this.now + delay, handler, kind, data)
  }

  /** The seq of the event a ticket names (read right after scheduling, to cancel it later). */
  seqOf(ticket: EventTicket): number {
    return this.slotSeqs[ticket]
  }

  /** Cancel a pending event; `seq` guards against a ticket whose slot was reused. */
  cancel(ticket: EventTicket, seq: number): void {
    if (this.slotSeqs[ticket] === seq) this.handlers[ticket] = null
  }

  get pending(): number {
    return this.size + this.nowCount + this.frontCount
  }

  /** The time of the next event, or Infinity. Cancelled events count until popped. */
  peekTime(): SimTime {
    return this.nowCount > 0 ? this.now : this.nextTimed()
  }

  /** The time of the earliest event in the front or the heap, or Infinity. */
  private nextTimed(): SimTime {
    const n = this.frontCount
    return n > 0 ? this.frontTimes[n - 1] : this.size > 0 ? this.times[this.base] : Infinity
  }

  stop(): void {
    this.stopped = true
  }

  get isStopped(): boolean {
    return this.stopped
  }

  /** Run events with time ≤ `until` (or until stopped / no events); at most `maxEvents`. */
  run(until: SimTime = Infinity, maxEvents = Infinity): void {
    let budget = maxEvents
    while (!this.stopped && budget-- > 0) {
      let id: number
      const n = this.frontCount
      if (n > 0) {
        // the front is earlier than the heap: its earliest goes unless events at `now` come first
        const ft = this.frontTimes[n - 1]
        if (this.nowCount > 0 && ft > this.now) {
          if (this.now > until) break
          id = this.popNow()
        } else {
          if (ft > until) break
          id = this.frontIds[n - 1]
          this.frontCount = n - 1
          this.now = ft
        }
      } else if (this.size > 0 && (this.nowCount === 0 || this.times[this.base] <= this.now)) {
        const b = this.base
        const t = this.times[b]
        if (t > until) break
        id = this.ids[b]
        this.pop()
        this.now = t
      } else if (this.nowCount > 0) {
        if (this.now > until) break
        id = this.popNow()
      } else break
      const h = this.handlers[id]
      const kind = this.kinds[id]
      const data = this.datas[id]
      this.handlers[id] = null
      this.datas[id] = undefined
      this.slotSeqs[id] = -1
      this.free[this.freeCount++] = id
      if (h !== null) {
        this.executed++
        h.onEvent(kind, data)
      }
    }
    if (
      !this.stopped &&
      until !== Infinity &&
      until > this.now &&
      this.nowCount === 0 &&
      this.nextTimed() > until
    )
      this.now = until
  }

  private pushNow(id: number): void {
    if (this.nowCount === this.nowRing.length) this.growNow()
    this.nowRing[(this.nowHead + this.nowCount++) & (this.nowRing.length - 1)] = id
  }

  /** The ring of events at `now` is full: unroll it into a twice larger one. */
  private growNow(): void {
    const ring = new Int32Array(this.nowCount * 2)
    for (let k = 0; k < this.nowCount; k++) ring[k] = this.nowRing[(this.nowHead + k) & (this.nowCount - 1)]
    this.nowRing = ring
    this.nowHead = 0
  }

  private popNow(): number {
    const id = this.nowRing[this.nowHead]
    this.nowHead = (this.nowHead + 1) & (this.nowRing.length - 1)
    this.nowCount--
    return id
  }

  /** An event for a later time: into the front if it comes before everything in the heap. */
  private push(id: number, time: SimTime, seq: number): void {
    if (this.size > 0) {
      const b = this.base
      const ht = this.times[b]
      if (time > ht || (time === ht && seq > this.seqs[b])) return this.heapPush(id, time, seq)
    }
    const { frontIds: ids, frontTimes: times, frontSeqs: seqs } = this
    let n = this.frontCount
    if (n === FRONT) {
      // full: the latest of the front and the new event goes to the heap, before all it holds
      const t0 = times[0]
      if (time > t0 || (time === t0 && seq > seqs[0])) return this.heapPush(id, time, seq)
      this.spillFront()
      n--
    }
    // the entries earlier than the new event move up one, towards the earliest end
    let i = n
    while (i > 0) {
      const t = times[i - 1]
      if (t > time || (t === time && seqs[i - 1] > seq)) break
      ids[i] = ids[i - 1]
      times[i] = t
      seqs[i] = seqs[i - 1]
      i--
    }
    ids[i] = id
    times[i] = time
    seqs[i] = seq
    this.frontCount = n + 1
  }

  /** The front is full and a new event comes before its latest: that one goes to the heap. */
  private spillFront(): void {
    const { frontIds: ids, frontTimes: times, frontSeqs: seqs } = this
    this.heapPush(ids[0], times[0], seqs[0])
    ids.copyWithin(0, 1, FRONT)
    times.copyWithin(0, 1, FRONT)
    seqs.copyWithin(0, 1, FRONT)
  }

  private heapPush(id: number, time: SimTime, seq: number): void {
    if (this.sorted) return this.insertSorted(id, time, seq)
    if (this.size === this.times.length) this.growHeap()
    this.siftUp(this.size++, id, time, seq)
  }

  /** Into the sorted run: the later entries move up one (too many: the run becomes a heap). */
  private insertSorted(id: number, time: SimTime, seq: number): void {
    if (this.base + this.size === this.times.length) this.growHeap()
    const { ids, times, seqs } = this
    const first = this.base
    const end = first + this.size
    let i = end
    while (i > first) {
      const t = times[i - 1]
      if (t < time || (t === time && seqs[i - 1] < seq)) break
      ids[i] = ids[i - 1]
      times[i] = t
      seqs[i] = seqs[i - 1]
      i--
    }
    ids[i] = id
    times[i] = time
    seqs[i] = seq
    this.size++
    if (end - i > SORTED_SHIFTS) this.toHeap()
  }

  /** The sorted run becomes a heap as it stands, moved to the arrays' start. */
  private toHeap(): void {
    this.compact()
    this.sorted = false
    this.heapPops = 0
  }

  /** The entries moved to the arrays' start (`base` 0). */
  private compact(): void {
    const b = this.base
    if (b === 0) return
    const e = b + this.size
    this.ids.copyWithin(0, b, e)
    this.times.copyWithin(0, b, e)
    this.seqs.copyWithin(0, b, e)
    this.base = 0
  }

  /** Put an entry into the hole at `i`, moving the hole up past the parents that come after it. */
  private siftUp(hole: number, id: number, time: SimTime, seq: number): void {
    const { ids, times, seqs } = this
    let i = hole
    while (i > 0) {
      const p = (i - 1) >> 1
      const pt = times[p]
      if (pt < time || (pt === time && seqs[p] < seq)) break
      ids[i] = ids[p]
      times[i] = pt
      seqs[i] = seqs[p]
      i = p
    }
    ids[i] = id
    times[i] = time
    seqs[i] = seq
  }

  /** Remove the first entry: its hole down to a leaf by the earlier child, then the last entry up into it. */
  private pop(): void {
    if (this.sorted) {
      this.base = --this.size === 0 ? 0 : this.base + 1
      return
    }
    const n = --this.size
    if (n === 0) {
      this.sorted = true
      return
    }
    const { ids, times, seqs } = this
    let i = 0
    for (;;) {
      const l = 2 * i + 1
      if (l >= n) break
      const r = l + 1
      let c = l
      if (r < n) {
        const rt = times[r]
        const lt = times[l]
        if (rt < lt || (rt === lt && seqs[r] < seqs[l])) c = r
      }
      ids[i] = ids[c]
      times[i] = times[c]
      seqs[i] = seqs[c]
      i = c
    }
    this.siftUp(i, ids[n], times[n], seqs[n])
    if (n <= SORTED_AGAIN || (++this.heapPops >= RESORT && n <= RESORT_MAX)) {
      sortEntries(ids, times, seqs, n)
      this.sorted = true
    }
  }

  /** The arrays are full to their end: moved to their start, twice as long if more than half full. */
  private growHeap(): void {
    if (this.size <= this.times.length >> 1 && this.base > 0) return this.compact()
    this.compact()
    const n = this.times.length * 2
    const ids = new Int32Array(n)
    const times = new Float64Array(n)
    const seqs = new Float64Array(n)
    ids.set(this.ids)
    times.set(this.times)
    seqs.set(this.seqs)
    this.ids = ids
    this.times = times
    this.seqs = seqs
  }

  /** `n` slots in all, the new ones free (the lowest numbers on top of the stack). */
  private growSlots(n: number): void {
    const old = this.kinds.length
    const kinds = new Int32Array(n)
    const slotSeqs = new Float64Array(n).fill(-1)
    const free = new Int32Array(n)
    kinds.set(this.kinds)
    slotSeqs.set(this.slotSeqs)
    free.set(this.free.subarray(0, this.freeCount))
    for (let id = n - 1; id >= old; id--) {
      free[this.freeCount++] = id
      this.handlers.push(null)
      this.datas.push(undefined)
    }
    this.kinds = kinds
    this.slotSeqs = slotSeqs
    this.free = free
  }
}
