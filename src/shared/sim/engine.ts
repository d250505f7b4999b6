import type { SimTime } from './time'

/**
 * The discrete-event engine (SimPy's core in spirit): a binary min-heap of events ordered by
 * (time, seq). `seq` grows with every schedule, so events at equal times run in the order they
 * were scheduled and a run is reproducible. Invariants:
 *  - `now` never decreases; an event is never scheduled in the past;
 *  - every scheduled event runs exactly once unless cancelled first.
 *
 * Hot path: no closures. An event names a handler object and an integer kind; event objects are
 * pooled, so a steady-state run allocates nothing per event. The heap keeps each entry's time and
 * seq in typed arrays beside the event objects, so sifting compares numbers in contiguous memory
 * instead of following a pointer per comparison. Events for the current time (a queue kick, a
 * resumed waiter) skip the heap: they go to a FIFO that runs after the heap's events at that time.
 * That is the (time, seq) order exactly: an event in the heap at the current time was scheduled
 * before the time was reached, so before anything in the FIFO. An event that is the earliest of
 * all when it is scheduled (a CPU burst of a few microseconds among device completions hundreds
 * of microseconds ahead) waits in a slot in front of the heap instead of sifting to its root and
 * back: the slot holds an event earlier than everything in the heap, or nothing.
 */
export interface Handler {
  onEvent(kind: number, data: unknown): void
}

class SimEvent {
  time = 0
  seq = 0
  kind = 0
  handler: Handler | null = null
  data: unknown = undefined
}

/** What a heap slot past the end holds. */
const VACANT = new SimEvent()

export class Engine {
  now: SimTime = 0
  /** Events run so far (a measure of work, also used for progress). */
  executed = 0
  /** The heap: `size` entries; entry i is `evs[i]`, with its time and seq in `times[i]`, `seqs[i]`. */
  private size = 0
  private evs: SimEvent[] = []
  private times = new Float64Array(64)
  private seqs = new Float64Array(64)
  /** The front slot: an event before every event in the heap (`hasFront`), with its time and seq. */
  private front: SimEvent = VACANT
  private hasFront = false
  private frontTime = 0
  private frontSeq = 0
  /** Events at `now`, in scheduling order: a ring of `nowCount` from `nowHead` (capacity 2^k). */
  private nowRing: SimEvent[] = new Array<SimEvent>(16).fill(VACANT)
  private nowHead = 0
  private nowCount = 0
  private pool: SimEvent[] = []
  private nextSeq = 0
  private stopped = false

  /** Schedule `handler.onEvent(kind, data)` at absolute time `at`; returns a cancellable ticket. */
  at(at: SimTime, handler: Handler, kind: number, data?: unknown): EventTicket {
    if (at < this.now) throw new Error(`event scheduled in the past: ${at} < ${this.now}`)
    const ev = this.pool.pop() ?? new SimEvent()
    ev.time = at
    ev.seq = this.nextSeq++
    ev.kind = kind
    ev.handler = handler
    ev.data = data
    if (at === this.now) this.pushNow(ev)
    else this.push(ev)
    return ev
  }

  after(delay: SimTime, handler: Handler, kind: number, data?: unknown): EventTicket {
    return this.at(this.now + delay, handler, kind, data)
  }

  /** Cancel a pending event; `seq` guards against a ticket whose event object was reused. */
  cancel(ticket: EventTicket, seq: number): void {
    const ev = ticket as SimEvent
    if (ev.seq === seq) ev.handler = null
  }

  get pending(): number {
    return this.size + this.nowCount + (this.hasFront ? 1 : 0)
  }

  /** The time of the next event, or Infinity. Cancelled events count until popped. */
  peekTime(): SimTime {
    return this.nowCount > 0 ? this.now : this.nextTimed()
  }

  /** The time of the earliest event in the front slot or the heap, or Infinity. */
  private nextTimed(): SimTime {
    return this.hasFront ? this.frontTime : this.size > 0 ? this.times[0] : Infinity
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
      let ev: SimEvent
      const timed = this.hasFront || this.size > 0
      const next = this.hasFront ? this.frontTime : this.times[0]
      if (timed && (this.nowCount === 0 || next <= this.now)) {
        if (next > until) break
        if (this.hasFront) {
          ev = this.front
          this.front = VACANT
          this.hasFront = false
        } else {
          ev = this.evs[0]
          this.pop()
        }
        this.now = ev.time
      } else if (this.nowCount > 0) {
        if (this.now > until) break
        ev = this.popNow()
      } else break
      const h = ev.handler
      const kind = ev.kind
      const data = ev.data
      ev.handler = null
      ev.data = undefined
      ev.seq = -1
      this.pool.push(ev)
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
      (!(this.hasFront || this.size > 0) || this.nextTimed() > until)
    )
      this.now = until
  }

  private pushNow(ev: SimEvent): void {
    if (this.nowCount === this.nowRing.length) {
      // grow: unroll the ring into a twice larger one
      const ring = new Array<SimEvent>(this.nowCount * 2).fill(VACANT)
      for (let k = 0; k < this.nowCount; k++) ring[k] = this.nowRing[(this.nowHead + k) & (this.nowCount - 1)]
      this.nowRing = ring
      this.nowHead = 0
    }
    this.nowRing[(this.nowHead + this.nowCount++) & (this.nowRing.length - 1)] = ev
  }

  private popNow(): SimEvent {
    const ev = this.nowRing[this.nowHead]
    this.nowRing[this.nowHead] = VACANT
    this.nowHead = (this.nowHead + 1) & (this.nowRing.length - 1)
    this.nowCount--
    return ev
  }

  /** An event for a later time: into the front slot if it comes before everything else timed. */
  private push(ev: SimEvent): void {
    const time = ev.time
    const seq = ev.seq
    if (this.hasFront) {
      const ft = this.frontTime
      if (time > ft || (time === ft && seq > this.frontSeq)) return this.heapPush(ev)
      this.heapPush(this.front) // the new event is the earliest: the old front goes behind it
    } else if (this.size > 0) {
      const ht = this.times[0]
      if (time > ht || (time === ht && seq > this.seqs[0])) return this.heapPush(ev)
    }
    this.front = ev
    this.frontTime = time
    this.frontSeq = seq
    this.hasFront = true
  }

  private heapPush(ev: SimEvent): void {
    if (this.size === this.times.length) this.grow()
    const { evs, times, seqs } = this
    const time = ev.time
    const seq = ev.seq
    let i = this.size++
    while (i > 0) {
      const p = (i - 1) >> 1
      const pt = times[p]
      if (pt < time || (pt === time && seqs[p] < seq)) break
      evs[i] = evs[p]
      times[i] = pt
      seqs[i] = seqs[p]
      i = p
    }
    evs[i] = ev
    times[i] = time
    seqs[i] = seq
  }

  /** Remove the first entry. */
  private pop(): void {
    const n = --this.size
    const { evs, times, seqs } = this
    const last = evs[n]
    const lt = times[n]
    const ls = seqs[n]
    evs[n] = VACANT // no stale reference to a pooled event
    if (n === 0) return
    let i = 0
    for (;;) {
      const l = 2 * i + 1
      if (l >= n) break
      const r = l + 1
      let c = l
      let ct = times[l]
      if (r < n) {
        const rt = times[r]
        if (rt < ct || (rt === ct && seqs[r] < seqs[l])) {
          c = r
          ct = rt
        }
      }
      if (lt < ct || (lt === ct && ls < seqs[c])) break
      evs[i] = evs[c]
      times[i] = ct
      seqs[i] = seqs[c]
      i = c
    }
    evs[i] = last
    times[i] = lt
    seqs[i] = ls
  }

  private grow(): void {
    const times = new Float64Array(this.times.length * 2)
    const seqs = new Float64Array(this.seqs.length * 2)
    times.set(this.times)
    seqs.set(this.seqs)
    this.times = times
    this.seqs = seqs
  }
}

/** Opaque handle to a scheduled event; read `seq` right after scheduling to cancel later. */
export interface EventTicket {
  readonly seq: number
}

/**
 * A cancellable, re-armable timer bound to one handler and kind — what schedulers use for
 * anticipation and idling, and the block layer for "idle until t".
 */
export class Timer {
  private ticket: EventTicket | null = null
  private seq = -1
  private due: SimTime = -1

  constructor(
    private readonly engine: Engine,
    private readonly handler: Handler,
    private readonly kind: number,
  ) {}

  /** Arm (or re-arm) to fire at absolute time `at`. */
  set(at: SimTime): void {
    this.clear()
    const t = this.engine.at(Math.max(at, this.engine.now), this.handler, this.kind, this)
    this.ticket = t
    this.seq = t.seq
    this.due = at
  }

  clear(): void {
    if (this.ticket !== null) this.engine.cancel(this.ticket, this.seq)
    this.ticket = null
    this.seq = -1
    this.due = -1
  }

  /** Call from the handler when the timer fires, so `pending` reads false. */
  fired(): void {
    this.ticket = null
    this.seq = -1
    this.due = -1
  }

  get pending(): boolean {
    return this.ticket !== null
  }

  /** Absolute time it fires at, or -1. */
  get when(): SimTime {
    return this.due
  }
}
