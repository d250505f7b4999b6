import { Engine, type Handler } from '../../src/shared/sim/engine'
import { Rng } from '../../src/shared/sim/rng'
import { READ, Request, SECTOR, type Op } from '../../src/shared/block/types'
import type { CompletionSink, Device, DeviceContext } from '../../src/shared/devices/device'
import type { Hdd } from '../../src/shared/devices/hdd'
import type { HddMechanics } from '../../src/shared/devices/hdd-mechanics'
import { createDevice, resolveDevice } from '../../src/shared/devices/registry'
import type { ParamIssue } from '../../src/shared/util/params'

/** One I/O for the test driver. */
export interface Io {
  sector: number
  nsect: number
  op: Op
  /** Made of page-cache pages (writeback), not a process's buffer. */
  pages?: boolean
}

export interface RunResult {
  ios: number
  bytes: number
  /** First submission to last completion, ns. */
  elapsedNs: number
  mbps: number
  iops: number
  meanLatencyMs: number
  /** Completion times in completion order. */
  ends: number[]
  /** Per-request latencies in ms, completion order. */
  latenciesMs: number[]
  /** The requests in completion order, each with its latency (ms). */
  completed: (Io & { latencyMs: number })[]
}

/**
 * A tiny block layer for device tests: keeps `depth` requests outstanding (never more than the
 * device's queueDepth), issuing the next one `thinkNs` after a completion. Checks that every
 * started request completes exactly once.
 */
export class Driver implements CompletionSink, Handler {
  readonly engine = new Engine()
  readonly device: Device
  private completed = new Set<number>()
  private started = new Set<number>()
  private nextId = 1
  private issued = 0
  private count = 0
  private gen: (i: number) => Io = () => ({ sector: 0, nsect: 8, op: READ })
  private thinkNs = 0
  private firstAt = 0
  private lastAt = 0
  private bytes = 0
  private ends: number[] = []
  private lat: number[] = []
  private done: (Io & { latencyMs: number })[] = []

  constructor(make: (ctx: DeviceContext) => Device, seed = 1) {
    this.device = make({ engine: this.engine, sink: this, rng: new Rng(seed) })
  }

  deviceCompleted(rq: Request, now: number): void {
    if (!this.started.has(rq.id)) throw new Error(`completion of unknown request ${rq.id}`)
    if (this.completed.has(rq.id)) throw new Error(`request ${rq.id} completed twice`)
    this.completed.add(rq.id)
    this.ends.push(now)
    this.lat.push((now - rq.dispatchedAt) / 1e6)
    this.done.push({
      sector: rq.sector,
      nsect: rq.nsect,
      op: rq.op,
      latencyMs: (now - rq.dispatchedAt) / 1e6,
    })
    this.bytes += rq.nsect * SECTOR
    this.lastAt = now
    if (this.issued < this.count) {
      if (this.thinkNs > 0) this.engine.at(now + this.thinkNs, this, 0)
      else this.issue(now)
    }
  }

  onEvent(): void {
    this.issue(this.engine.now)
  }

  private issue(now: number): void {
    if (this.issued >= this.count) return
    if (this.device.inFlight >= this.device.info.queueDepth) throw new Error('driver exceeded queue depth')
    const io = this.gen(this.issued++)
    const rq = new Request()
    rq.id = this.nextId++
    rq.sector = io.sector
    rq.nsect = io.nsect
    rq.op = io.op
    rq.pages = io.pages ?? false
    rq.dispatchedAt = now
    this.started.add(rq.id)
    this.device.start(rq, now)
  }

  /** Run `count` I/Os from `gen` with `depth` outstanding, starting at time `at`. */
  run(gen: (i: number) => Io, count: number, depth = 1, thinkNs = 0, at = this.engine.now): RunResult {
    this.gen = gen
    this.count = count
    this.issued = 0
    this.thinkNs = thinkNs
    this.bytes = 0
    this.ends = []
    this.lat = []
    this.done = []
    this.engine.run(at)
    this.firstAt = at
    const d = Math.min(depth, this.device.info.queueDepth)
    for (let i = 0; i < d; i++) this.issue(at)
    this.engine.run()
    if (this.completed.size !== this.started.size) throw new Error('lost requests')
    const elapsedNs = this.lastAt - this.firstAt
    const ios = this.ends.length
    return {
      ios,
      bytes: this.bytes,
      elapsedNs,
      mbps: this.bytes / (elapsedNs / 1e9) / 1e6,
      iops: ios / (elapsedNs / 1e9),
      meanLatencyMs: this.lat.reduce((a, b) => a + b, 0) / Math.max(1, ios),
      ends: this.ends,
      latenciesMs: this.lat,
      completed: this.done,
    }
  }
}

/** Sequential I/Os of `kib` KiB from `start`. */
export const sequential =
  (op: Op, kib: number, start = 0) =>
  (i: number): Io => ({ sector: start + (i * kib * 1024) / SECTOR, nsect: (kib * 1024) / SECTOR, op })

/** Random aligned I/Os of `kib` KiB over [0, spanSectors), from a seeded stream. */
export function random(op: Op, kib: number, spanSectors: number, seed = 7): (i: number) => Io {
  const rng = new Rng(seed)
  const n = (kib * 1024) / SECTOR
  const slots = Math.floor(spanSectors / n)
  return () => ({ sector: rng.int(slots) * n, nsect: n, op })
}

/**
 * A driver around a device built from a preset (plus overrides), its random stream seeded with
 * `seed`; throws on invalid overrides.
 */
export function presetDriver(preset: string, overrides: Record<string, unknown> = {}, seed = 1): Driver {
  const issues: ParamIssue[] = []
  const r = resolveDevice(preset, overrides, 'device', issues)
  if (!r || issues.length) throw new Error(issues.map((i) => `${i.path}: ${i.message}`).join('; '))
  return new Driver((ctx) => createDevice(r.model, r.values, ctx, preset), seed)
}

/** The mechanics of the hdd-7200-sata preset (geometry, seek curve, skews), for unit tests. */
export function sataMechanics(): HddMechanics {
  return (presetDriver('hdd-7200-sata').device as Hdd).mech
}
