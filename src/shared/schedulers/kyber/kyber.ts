import type { Handler } from '../../sim/engine'
import { Timer } from '../../sim/engine'
import type { SimTime } from '../../sim/time'
import { MS } from '../../sim/time'
import { RequestFifo } from '../../block/fifo'
import { shallowSlots, TokenBitmap } from '../../block/sbitmap'
import { READ } from '../../block/types'
import type { Bio, Op, Request } from '../../block/types'
import type { ParamSpec, ParamValues } from '../../util/params'
import type { IoScheduler, SchedulerContext, SchedulerType } from '../scheduler'
import { GOOD_BUCKETS, IO_LATENCY, LATENCY_SHIFT, LatencyHistograms, TOTAL_LATENCY } from './latency'
import { SCHEDULER_CPU_COST } from '../cpu-cost'
import { kyberConstant, kyberConstants } from './constants'

/**
 * Kyber (block/kyber-iosched.c, Linux 4.18+ — domains, histograms and the depth rule as there):
 * requests are split into scheduling domains by operation; each domain may have only so many
 * requests in flight device-wide (its tokens); a timer looks at latency percentiles and shrinks
 * the domains that are doing fine when some domain's device latency shows congestion, and grows
 * the domains that are missing their own target.
 */

/** Sysfs tunables, in the kernel's names and units. */
export const kyberTunables: readonly ParamSpec[] = [
  {
    name: 'read_lat_nsec',
    kind: 'int',
    default: 2_000_000,
    unit: 'ns',
    meaning: 'latency target for reads (p99 from allocation to completion)',
    min: 1,
    max: 60_000_000_000,
    source:
      'block/kyber-iosched.c (4.18–6.x) kyber_latency_targets[KYBER_READ] = 2 * NSEC_PER_MSEC; sysfs read_lat_nsec',
  },
  {
    name: 'write_lat_nsec',
    kind: 'int',
    default: 10_000_000,
    unit: 'ns',
    meaning: 'latency target for writes',
    min: 1,
    max: 60_000_000_000,
    source:
      'block/kyber-iosched.c (4.18–6.x) kyber_latency_targets[KYBER_WRITE] = 10 * NSEC_PER_MSEC; sysfs write_lat_nsec',
  },
]

/** Scheduling domains. The model's requests are reads and writes; DISCARD and OTHER stay empty. */
export const KYBER_READ = 0
export const KYBER_WRITE = 1
export const KYBER_DISCARD = 2
export const KYBER_OTHER = 3
const NUM_DOMAINS = 4
export const KYBER_DOMAIN_NAMES = ['READ', 'WRITE', 'DISCARD', 'OTHER'] as const
const perDomain = (suffix: string): readonly number[] =>
  KYBER_DOMAIN_NAMES.map((n) => kyberConstant(`${n.toLowerCase()}_${suffix}`))
/** Full depth (tokens: requests in flight device-wide) per domain — the cap a resize clamps to. */
export const KYBER_DEPTH: readonly number[] = perDomain('depth')
/** Requests dispatched in a row from one domain before the round robin moves on. */
export const KYBER_BATCH: readonly number[] = perDomain('batch')
/** DISCARD's latency target (fixed; OTHER has none and records no latency). */
export const KYBER_DISCARD_LAT: SimTime = kyberConstant('discard_lat') * MS
/** Share of the scheduler tags (nr_requests) async requests may hold, kept from sync ones. */
export const KYBER_ASYNC_PERCENT = kyberConstant('async_percent')
/** The statistics timer runs at most this long after a completion (HZ / 10). */
export const KYBER_TIMER_DELAY: SimTime = kyberConstant('timer_delay') * MS
const CONGESTION_PERCENTILE = kyberConstant('congestion_percentile')
const DEPTH_PERCENTILE = kyberConstant('depth_percentile')
/** Events kept in the log; later ones are counted, not kept. */
const EVENT_LOG_MAX = 10_000

/**
 * What kyber's tracepoints report (include/trace/events/kyber.h): `latency` — a percentile was read
 * (trace_kyber_latency: domain, type, percentile, bucket, samples); `adjust` — a domain's depth
 * changed (trace_kyber_adjust). Times are the simulation's.
 */
export type KyberEvent =
  | {
      readonly t: SimTime
      readonly kind: 'latency'
      readonly domain: number
      readonly type: 'total' | 'I/O'
      readonly percentile: number
      /** Bucket index 0…7: 0–3 at or under the target, 4–7 over it (the trace prints bucket + 1). */
      readonly bucket: number
      readonly samples: number
    }
  | { readonly t: SimTime; readonly kind: 'adjust'; readonly domain: number; readonly depth: number }

/** What `debugState` reports. */
export interface KyberDebugState {
  /** Current token depth per domain (READ, WRITE, DISCARD, OTHER). */
  readonly depth: readonly number[]
  /** Tokens held by requests in flight, per domain. */
  readonly inUse: readonly number[]
  /** Of those, tokens at or past the current depth: held from before a cut, not given out again. */
  readonly heldAbove: readonly number[]
  /** Times a domain had a request but no free token (trace_kyber_throttled), per domain. */
  readonly throttled: readonly number[]
  /** Requests queued, per domain. */
  readonly queued: readonly number[]
  /** Request slots async requests may hold (limit_depth). */
  readonly asyncDepth: number
}

/**
 * Async requests may use 75 % of each sbitmap word of the scheduler tags (kyber_depth_updated,
 * 4.18–6.16: async_depth = 2^shift · 75 / 100 as a per-word shallow depth) — about 75 % of
 * nr_requests. (6.17+ takes 75 % of nr_requests over the whole map: the same but for rounding.)
 */
function asyncDepthFor(nrRequests: number): number {
  let shift = 6
  if (nrRequests >= 4) while (4 << shift > nrRequests) shift--
  const perWord = Math.floor(((1 << shift) * KYBER_ASYNC_PERCENT) / 100)
  return Math.max(1, shallowSlots(nrRequests, perWord, 'per-word'))
}

export class Kyber implements IoScheduler, Handler {
  readonly frontMerges = true
  readonly requestMerges = false
  /** Latency targets of READ, WRITE, DISCARD. */
  private readonly targets: readonly number[]
  /** Each domain's tokens (kqd->domain_tokens): their depth is what the timer scales. */
  private readonly tokens: TokenBitmap[] = []
  private readonly throttled = [0, 0, 0, 0]
  private readonly events: KyberEvent[] = []
  private eventsDropped = 0
  /**
   * Two FIFOs per domain: `staged` is the per-CPU software queue (kcq), where bios may still merge;
   * `ready` is the hardware context's list (khd->rqs), filled by moving the whole staged list over
   * when the domain gets a token and `ready` is empty. `rq.sched` names the FIFO holding a request.
   */
  private readonly staged: RequestFifo[] = []
  private readonly ready: RequestFifo[] = []
  private curDomain = KYBER_READ
  private batching = 0
  private queued = 0
  /** The last p99 of each domain seen while not congested, used at the next congestion (domain_p99). */
  private readonly domainP99 = [-1, -1, -1]
  private readonly stats = new LatencyHistograms(KYBER_OTHER)
  private readonly timer: Timer
  private readonly asyncDepth: number

  constructor(
    t: ParamValues,
    private readonly ctx: SchedulerContext,
  ) {
    this.targets = [t.read_lat_nsec as number, t.write_lat_nsec as number, KYBER_DISCARD_LAT]
    for (let d = 0; d < NUM_DOMAINS; d++) {
      this.staged.push(new RequestFifo())
      this.ready.push(new RequestFifo())
      this.tokens.push(new TokenBitmap(KYBER_DEPTH[d], ctx.rng.fork(`kyber-tokens-${d}`)))
    }
    this.timer = new Timer(ctx.engine, this, 0)
    this.asyncDepth = asyncDepthFor(ctx.nrRequests)
  }

  /** kyber_insert_requests: to the tail of its domain's staged list. */
  insert(rq: Request, _now: SimTime): void {
    const f = this.staged[domainOf(rq.op)]
    rq.schedInt = domainOf(rq.op)
    rq.sched = f
    f.push(rq)
    this.queued++
  }

  hasWork(): boolean {
    return this.queued > 0
  }

  /** kyber_bio_merge: only requests still on a staged list take bios. */
  allowMerge(rq: Request, _bio: Bio): boolean {
    return rq.sched === this.staged[rq.schedInt]
  }

  mergedRequests(_rq: Request, next: Request): void {
    ;(next.sched as RequestFifo).remove(next)
    next.sched = null
    this.queued--
  }

  /** kyber_limit_depth: async requests may hold only part of the request slots. */
  limitDepth(op: Op, sync: boolean): number | undefined {
    return op === READ || sync ? undefined : this.asyncDepth
  }

  /**
   * kyber_dispatch_request:
   * 1. While the current domain is entitled to its batch (16 reads, 8 writes, 1 discard, 1
   *    other), take its next request — if it has one and a token is free.
   * 2. Otherwise start a new batch: step round robin through the domains (wrapping back to the
   *    current one) and take the first request that has a token. No sorting, no idling: a domain
   *    out of tokens simply waits for one of its requests to complete.
   */
  dispatch(_now: SimTime): Request | undefined {
    if (this.batching < KYBER_BATCH[this.curDomain]) {
      const rq = this.dispatchCurDomain()
      if (rq !== null) return rq
    }
    this.batching = 0
    for (let i = 0; i < NUM_DOMAINS; i++) {
      this.curDomain = this.curDomain === NUM_DOMAINS - 1 ? 0 : this.curDomain + 1
      const rq = this.dispatchCurDomain()
      if (rq !== null) return rq
    }
    return undefined
  }

  /**
   * kyber_dispatch_cur_domain: a token first (kyber_get_domain_token); then the ready list, refilled
   * from staged if empty. Without a token the domain waits: the kernel puts the hardware queue on
   * the token pool's wait queue and runs it again when a token is freed — here the block layer
   * runs dispatch after every completion.
   */
  private dispatchCurDomain(): Request | null {
    const d = this.curDomain
    let ready = this.ready[d]
    if (ready.size === 0 && this.staged[d].size === 0) return null
    const token = this.tokens[d].get()
    if (token < 0) {
      this.throttled[d]++
      return null
    }
    if (ready.size === 0) ready = this.flushStaged(d)
    const rq = ready.shift()!
    rq.sched = null
    rq.schedInt = d | (token << 2) // rq_set_domain_token
    this.batching++
    this.queued--
    return rq
  }

  /** kyber_flush_busy_kcqs: the whole staged list becomes the ready list (the lists swap). */
  private flushStaged(d: number): RequestFifo {
    const ready = this.staged[d]
    this.staged[d] = this.ready[d]
    this.ready[d] = ready
    return ready
  }

  /** kyber_completed_request + kyber_finish_request: record latencies, return the token. */
  completed(rq: Request, now: SimTime): void {
    const d = rq.schedInt & 3
    this.tokens[d].clear(rq.schedInt >> 2)
    if (d === KYBER_OTHER) return
    const target = this.targets[d]
    this.stats.add(d, TOTAL_LATENCY, target, now - rq.insertedAt)
    this.stats.add(d, IO_LATENCY, target, now - rq.dispatchedAt)
    // timer_reduce: run at most 100 ms from now
    const at = now + KYBER_TIMER_DELAY
    if (!this.timer.pending || this.timer.when > at) this.timer.set(at)
  }

  onEvent(): void {
    this.timer.fired()
    this.adjustDepths(this.ctx.engine.now)
  }

  /**
   * kyber_timer_fn:
   * 1. Congestion: any domain whose p90 I/O (device) latency lies in a bad bucket (> target).
   *    Every domain's histogram is read, so all are emptied when they have enough samples.
   * 2. Each domain with a p99 total latency p (or, under congestion, the one it remembered):
   *    if congested or p is bad, depth = depth·(p+1)/4 — shrinks a domain doing well (p ≤ 2)
   *    under congestion, keeps it at p = 3, grows a domain missing its own target (p ≥ 4).
   *    A domain that is doing well while nothing is congested keeps its depth.
   */
  private adjustDepths(now: SimTime): void {
    let congested = false
    for (let d = 0; d < KYBER_OTHER; d++)
      if (this.percentile(d, IO_LATENCY, CONGESTION_PERCENTILE, now) >= GOOD_BUCKETS) congested = true
    for (let d = 0; d < KYBER_OTHER; d++) {
      const p99 = this.domainPercentile(d, congested, now)
      if (p99 < 0) continue
      if (congested || p99 >= GOOD_BUCKETS)
        this.resizeDomain(d, (this.tokens[d].depth * (p99 + 1)) >> LATENCY_SHIFT, now)
    }
  }

  /** calculate_percentile, with its trace_kyber_latency. */
  private percentile(d: number, type: number, percentile: number, now: SimTime): number {
    const bucket = this.stats.percentile(d, type, percentile, now)
    if (bucket >= 0) {
      const t = type === TOTAL_LATENCY ? 'total' : 'I/O'
      this.log({
        t: now,
        kind: 'latency',
        domain: d,
        type: t,
        percentile,
        bucket,
        samples: this.stats.lastSamples,
      })
    }
    return bucket
  }

  private log(e: KyberEvent): void {
    if (this.events.length < EVENT_LOG_MAX) this.events.push(e)
    else this.eventsDropped++
  }

  /** The p99 to act on: a fresh one, or under congestion the last one seen, used only once. */
  private domainPercentile(d: number, congested: boolean, now: SimTime): number {
    let p99 = this.percentile(d, TOTAL_LATENCY, DEPTH_PERCENTILE, now)
    if (congested) {
      if (p99 < 0) p99 = this.domainP99[d]
      this.domainP99[d] = -1
    } else if (p99 >= 0) {
      this.domainP99[d] = p99
    }
    return p99
  }

  /** kyber_resize_domain: clamp to [1, full depth]; a change is logged (trace_kyber_adjust). */
  private resizeDomain(d: number, depth: number, now: SimTime): void {
    const clamped = Math.min(Math.max(depth, 1), KYBER_DEPTH[d])
    if (clamped === this.tokens[d].depth) return
    this.tokens[d].resize(clamped)
    this.log({ t: now, kind: 'adjust', domain: d, depth: clamped })
  }

  /** For tests and the UI only (read-only, not part of the ops contract): the domains' state. */
  debugState(): KyberDebugState {
    return {
      depth: this.tokens.map((t) => t.depth),
      inUse: this.tokens.map((t) => t.held),
      heldAbove: this.tokens.map((t) => t.heldAbove()),
      throttled: this.throttled.slice(),
      queued: this.ready.map((f, d) => f.size + this.staged[d].size),
      asyncDepth: this.asyncDepth,
    }
  }

  /** The tracepoint log (the first 10 000 events) and how many later ones were not kept. */
  eventLog(): { readonly events: readonly KyberEvent[]; readonly dropped: number } {
    return { events: this.events, dropped: this.eventsDropped }
  }
}

function domainOf(op: Op): number {
  return op === READ ? KYBER_READ : KYBER_WRITE
}

export const kyber: SchedulerType = {
  name: 'kyber',
  aliases: [],
  era: 'Linux 4.12+ (blk-mq); domains and histograms as in 4.18+',
  layer: 'mq',
  summary: 'Per-operation token limits tuned from latency percentiles: throttles writes to keep reads fast.',
  explanation:
    'kyber does almost nothing per request — FIFO per operation type, reads and writes served in turn ' +
    '(16 reads, then 8 writes) — and instead limits how many requests of each type the device may hold, ' +
    'shrinking the write allowance when reads miss their 2 ms target because the device is congested. ' +
    'It wins on fast multi-queue SSDs and NVMe, where a shorter device queue directly shortens read ' +
    'latency and its cost is near zero. It loses on rotating disks: it never sorts by sector and never ' +
    'waits for a sequential reader, so seeks dominate, and on any device whose latency is above the ' +
    'targets anyway it throttles without helping. It ignores I/O priorities and processes entirely.',
  tunables: kyberTunables,
  constants: kyberConstants,
  cpuCost: SCHEDULER_CPU_COST.kyber,
  usesIoPriority: false,
  create: (t, ctx) => new Kyber(t, ctx),
}
