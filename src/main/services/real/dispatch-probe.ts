// What handing a request to the disk under a loop device costs the loop worker (virtual notifyUs,
// segmentUs), traced. The worker submits each request's direct I/O to the backing file and, under
// its plug, runs the disk's queue itself (fs/iomap/direct-io.c __iomap_dio_rw, block/blk-mq.c
// blk_mq_flush_plug_list → queue_rq; Linux 6.18): the driver maps the request's memory, a ring
// descriptor a segment where the disk has no indirect descriptors (drivers/virtio/virtio_ring.c
// virtqueue_add_split), and notifies the disk — a VM exit — when the disk asks for it, which with
// VIRTIO_RING_F_EVENT_IDX it does only once it has drained its ring (virtqueue_kick_prepare). The
// block events and the scheduler's switches show it: from the worker's `block_rq_issue` on the disk
// to its next event on that CPU (its next request, or going to sleep) — on this machine
// (2026-12-07, loop over a Firecracker virtio disk) 15–18 µs when the disk had no request in hand,
// 0–2 µs when it had, 12 µs for a request of 128 one-page segments to a busy disk. The same trace,
// with the scheduler's wake-ups, shows how long a task woken for an idle CPU waits for it
// (idle-wake-trace.ts).
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { trimmedMean } from '../../../shared/metrics/stats'
import { diskOfFile } from './backing-facts'
import type { IdleWake } from './idle-wake-trace'
import { idleWakeLatencies, WAKE_EVENTS } from './idle-wake-trace'
import { startEngine } from './engine-process'
import { deviceNumber, INSTANCE_PREFIX, offersClock } from './ftrace-capture'
import type { Journal } from './journal'
import type { QueueFacts } from './queue-facts'
import { createScratchLoop, releaseScratchLoop } from './loop-device'
import { readSys, sysBlockDir } from './sysfs'

const TRACEFS = '/sys/kernel/tracing'
/** The probe's scratch device. */
const PROBE_BYTES = 256 << 20
/** Seconds of each of the probe's unheld writers. */
export const PROBE_SECONDS = 1
/** Intervals each estimate needs at least. */
const ENOUGH = 50
/** The share of each end of the intervals left out of their mean: interrupts, preemptions. */
const TRIM = 0.1
/** µs within which the loop device's requests of one write are issued (fio's split bio). */
const BURST_US = 20

/** What the trace showed. */
export interface DispatchProbe {
  /** The disk under the loop device (its block events were traced). */
  disk: string
  /** µs past a 4 KiB request's dispatch to the disk with no request in hand, and with some (the middle 80 %'s mean). */
  idleUs: number
  busyUs: number
  /** µs the notification costs: idle less busy. */
  notifyUs: number
  /** µs per segment beyond the first (null: no request of known segments was seen). */
  segmentUs: number | null
  /** Intervals behind each figure. */
  samples: { idle: number; busy: number; segmented: number }
}

/** What the probe's trace showed. */
export interface DispatchTrace {
  /** The loop worker's dispatch costs (null: the trace held too few of its dispatches). */
  dispatch: DispatchProbe | null
  /** The wake-ups onto idle CPUs, or why they were not measured. */
  wake: IdleWake | string
}

const EVENTS = [
  'block/block_rq_issue',
  'block/block_rq_complete',
  'block/block_rq_insert',
  'sched/sched_switch',
] as const
/** Traced where the kernel has it: an interval an interrupt cut into is left out. */
const IRQ_EVENT = 'irq/irq_handler_entry'

/** Why the probe cannot run here, or null. */
export function dispatchProbeUnavailable(): string | null {
  if (!existsSync(join(TRACEFS, 'instances'))) return `tracefs is not mounted at ${TRACEFS}`
  for (const e of EVENTS)
    if (!existsSync(join(TRACEFS, 'events', e))) return `the kernel has no ${e} tracepoint`
  return null
}

const LINE = /^\s*(.+)-(\d+)\s+\[(\d+)\]\s+(\S+)\s+([\d.]+): (\w+): (.*)$/
const BLOCK = /^(\d+,\d+) (\w+) (?:(\d+) )?\(.*?\) (\d+) \+ (\d+)/

/**
 * From a trace's text (tracefs `trace`: the block events of the loop device and of the disk under
 * it, the scheduler's switches) the loop worker's time past each of its dispatches to the disk
 * (`loop`, `disk`: the devices as the events print them, "7,0"), by whether the disk had a request
 * in hand. The worker is whichever kernel worker (`kworker/…`) issues the loop device's writes on
 * the disk, one at a time and in their order. A write the loop device took as several requests
 * issued back to back was split, and each of its requests but the last was split where the
 * device's segment limit (`maxSegments`) fell, unless the size limit did (`maxSectorsKiB`): those
 * hold exactly `maxSegments` segments, however long. Null when there are too few intervals of
 * 4 KiB requests.
 */
export function dispatchCosts(
  text: string,
  loop: string,
  disk: string,
  maxSegments: number,
  maxSectorsKiB: number,
): Omit<DispatchProbe, 'disk'> | null {
  type Ev = { cpu: string; t: number; kind: string; pid: string; comm: string; irq: boolean; rest: string }
  const evs: Ev[] = []
  for (const l of text.split('\n')) {
    const m = LINE.exec(l)
    if (!m) continue
    // the flags' third column: h, s, H — in a hard or soft interrupt
    const irq = /[hsH]/.test(m[4].charAt(2))
    evs.push({ comm: m[1].trim(), pid: m[2], cpu: m[3], irq, t: Number(m[5]) * 1e6, kind: m[6], rest: m[7] })
  }
  // the loop device's writes in order, each known to hold `maxSegments` segments or not
  const fromLoop: { t: number; end: number; bytes: number; full: boolean }[] = []
  let taken = 0
  const inHand = new Set<string>()
  const idle: number[] = []
  const busy: number[] = []
  const segmented: number[] = []
  for (let i = 0; i < evs.length; i++) {
    const e = evs[i]
    if (!e.kind.startsWith('block_rq_')) continue
    const b = BLOCK.exec(e.rest)
    // a flush carries no data, and its completion names no sector its issue did: left out
    if (!b || b[5] === '0') continue
    const write = b[2].includes('W')
    const sector = Number(b[4])
    const bytes = Number(b[3] ?? 0)
    if (b[1] === loop) {
      if (e.kind !== 'block_rq_issue' || !write) continue
      const before = fromLoop[fromLoop.length - 1]
      // the one before was this write's too: split where a limit fell
      if (before && before.end === sector && e.t - before.t < BURST_US && before.bytes < maxSectorsKiB * 1024)
        before.full = true
      fromLoop.push({ t: e.t, end: sector + Number(b[5]), bytes, full: false })
      continue
    }
    if (b[1] !== disk) continue
    const key = `${b[4]}+${b[5]}`
    if (e.kind === 'block_rq_complete') {
      inHand.delete(key)
      continue
    }
    if (e.kind !== 'block_rq_issue') continue
    // whatever the disk has in hand, reads too, spares it a notification
    const held = inHand.size
    inHand.add(key)
    if (!write || !e.comm.startsWith('kworker/')) continue
    // the loop device's write this one carries: the next of its size (the file system's own
    // writes on the disk, which the worker may also issue, match none)
    let k = taken
    while (k < fromLoop.length && k < taken + 8 && fromLoop[k].bytes !== bytes) k++
    if (k >= fromLoop.length || fromLoop[k].bytes !== bytes) continue
    const full = fromLoop[k].full
    taken = k + 1
    // the worker's next event on its CPU: past the driver's queue_rq and the end of the request's
    // direct I/O, the next request's making or the worker's sleep
    let next: Ev | null = null
    for (let n = i + 1; n < evs.length && n < i + 200; n++)
      if (evs[n].cpu === e.cpu) {
        next = evs[n]
        break
      }
    // an interrupt came in between: not the worker's own time
    if (next === null || next.irq || next.kind === 'irq_handler_entry') continue
    const us = next.t - e.t
    if (bytes === 4096) (held === 0 ? idle : busy).push(us)
    else if (full && held > 0) segmented.push(us)
  }
  if (idle.length < ENOUGH || busy.length < ENOUGH) return null
  const r = (x: number): number => Math.round(x * 1000) / 1000
  // the trace counts whole µs: a median of the busy dispatches' 1 or 2 would move each estimate by
  // a whole µs (the segment's by 1/127 of one), the middle 80 %'s mean by a fraction
  const typical = (xs: number[]): number => trimmedMean(xs, TRIM)
  const idleUs = typical(idle)
  const busyUs = typical(busy)
  const segmentUs =
    segmented.length >= ENOUGH && maxSegments > 1
      ? r(Math.max(0, typical(segmented) - busyUs) / (maxSegments - 1))
      : null
  return {
    idleUs: r(idleUs),
    busyUs: r(busyUs),
    notifyUs: r(Math.max(0, idleUs - busyUs)),
    segmentUs,
    samples: { idle: idle.length, busy: busy.length, segmented: segmented.length },
  }
}

/**
 * fio's writers, one after another: QD1 4 KiB (an idle disk), QD8 (a busy one), 2 MiB; then, on a
 * machine of two CPUs or more, QD1 4 KiB held on the first CPU it may use and on the last
 * (`cpus`: /proc/self/status) for half a second each. The scheduler packs an unheld writer onto
 * the CPU that takes the disk's interrupts, where its completions wake it on that CPU; one of the
 * held writers is away from it, and each of its completions wakes it from the other CPU — the
 * wake-ups onto an idle CPU from another one that idleWakeUs is measured from (traced here: 15 376
 * in a probe with the held writers, as few as 182 in one without).
 */
export function fioArgs(device: string, cpus: readonly number[] = allowedCpus()): string[] {
  const common = [`--filename=${device}`, '--direct=1', '--time_based']
  const job = (name: string, runtime: string, opts: string[]): string[] => [
    `--name=${name}`,
    ...common,
    `--runtime=${runtime}`,
    ...opts,
  ]
  const whole = `${PROBE_SECONDS}s`
  const half = `${PROBE_SECONDS * 500}ms`
  const qd1 = ['--rw=randwrite', '--bs=4k', '--ioengine=psync']
  const held = cpus.length >= 2 ? [cpus[0], cpus[cpus.length - 1]] : []
  return [
    ...job('idle', whole, qd1),
    ...job('busy', whole, ['--stonewall', '--rw=randwrite', '--bs=4k', '--ioengine=libaio', '--iodepth=8']),
    // larger than a request of one-page segments: split at the segment limit
    ...job('segments', whole, ['--stonewall', '--rw=write', '--bs=2M', '--ioengine=psync']),
    ...held.flatMap((c) => job(`held-${c}`, half, ['--stonewall', ...qd1, `--cpus_allowed=${c}`])),
    '--output-format=terse',
  ]
}

/** The CPUs this process may run on (/proc/self/status Cpus_allowed_list), ascending; [] if unknown. */
export function allowedCpus(status = readSys('/proc/self/status') ?? ''): number[] {
  const m = /^Cpus_allowed_list:\s*(\S+)/m.exec(status)
  if (!m) return []
  const out: number[] = []
  for (const part of m[1].split(',')) {
    const r = /^(\d+)(?:-(\d+))?$/.exec(part)
    if (!r) return []
    for (let c = Number(r[1]); c <= Number(r[2] ?? r[1]); c++) out.push(c)
  }
  return out
}

/**
 * Trace the writers on a scratch loop device of the probe's own (scheduler none), in a
 * tracefs instance of its own; the device and the instance go at the end, also on error. The
 * dispatch costs are null when the trace held too few intervals to tell; the wake-ups onto idle
 * CPUs are read from the same trace where the kernel has their tracepoints.
 */
export async function measureDispatch(
  o: { journal?: Journal; parentDir?: string } = {},
): Promise<DispatchTrace> {
  const why = dispatchProbeUnavailable()
  if (why !== null) throw new Error(why)
  const loop = await createScratchLoop({ sizeBytes: PROBE_BYTES, journal: o.journal, parentDir: o.parentDir })
  const dir = join(TRACEFS, 'instances', `${INSTANCE_PREFIX}${process.pid}-dispatch`)
  try {
    if (!loop.directIo) throw new Error(`${loop.name} does no direct I/O to its file`)
    const disk = diskOfFile(loop.backingFile)
    if (disk === null) throw new Error(`the file under ${loop.name} is on no block device`)
    writeFileSync(join(sysBlockDir(loop.name), 'queue/scheduler'), 'none')
    const queueOf = (f: string): number => Number(readSys(join(sysBlockDir(loop.name), 'queue', f)) ?? 0)
    const loopDev = deviceNumber(loop.name)
    const diskDev = deviceNumber(disk)
    mkdirSync(dir)
    writeFileSync(join(dir, 'tracing_on'), '0')
    writeFileSync(join(dir, 'buffer_size_kb'), '65536')
    if (offersClock(dir, 'mono')) writeFileSync(join(dir, 'trace_clock'), 'mono')
    const noWake = WAKE_EVENTS.find((e) => !existsSync(join(dir, 'events', e)))
    for (const e of [...EVENTS, IRQ_EVENT, ...(noWake === undefined ? WAKE_EVENTS : [])]) {
      const ev = join(dir, 'events', e)
      if (!existsSync(ev)) continue
      if (e.startsWith('block/'))
        writeFileSync(join(ev, 'filter'), `dev == ${loopDev.devT} || dev == ${diskDev.devT}`)
      writeFileSync(join(ev, 'enable'), '1')
    }
    writeFileSync(join(dir, 'tracing_on'), '1')
    const fio = startEngine('fio', fioArgs(loop.device), { journal: o.journal })
    const exit = await fio.done
    writeFileSync(join(dir, 'tracing_on'), '0')
    if (exit.code !== 0)
      throw new Error(`fio failed (${exit.code ?? exit.signal}): ${exit.stderr.trim().slice(0, 300)}`)
    const text = readFileSync(join(dir, 'trace'), 'utf8')
    const found = dispatchCosts(
      text,
      loopDev.printed,
      diskDev.printed,
      queueOf('max_segments'),
      queueOf('max_sectors_kb'),
    )
    return {
      dispatch: found === null ? null : { disk, ...found },
      wake:
        noWake !== undefined
          ? `the kernel has no ${noWake} tracepoint`
          : (idleWakeLatencies(text) ?? 'the trace held too few wake-ups onto an idle CPU'),
    }
  } finally {
    if (existsSync(dir)) {
      try {
        writeFileSync(join(dir, 'tracing_on'), '0')
        rmdirSync(dir)
      } catch {
        // doctor removes the lab's instances a run could not (INSTANCE_PREFIX)
      }
    }
    await releaseScratchLoop(loop, o.journal)
  }
}

/** The probe run once for a fingerprint: its trace, or why there is none (it cannot run here, or failed). */
export async function runDispatchProbe(probe: () => Promise<DispatchTrace>): Promise<DispatchTrace | string> {
  const unavailable = dispatchProbeUnavailable()
  if (unavailable !== null) return unavailable
  try {
    return await probe()
  } catch (e) {
    return e instanceof Error ? e.message : String(e)
  }
}

/**
 * The dispatch costs for a fingerprint of loop device `q` as the queue facts carry them, from the
 * probe's trace `t`: null — with a notice saying why — when there is none (`t`: why), it saw too
 * little, or it measured a disk other than the one under `q` (its scratch file lies elsewhere).
 */
export function dispatchFacts(
  q: QueueFacts,
  t: DispatchTrace | string,
  notice: (message: string) => void = () => {},
): QueueFacts['dispatch'] | null {
  if (typeof t === 'string') {
    notice(`the loop worker's dispatch costs were not measured: ${t}`)
    return null
  }
  const p = t.dispatch
  if (p === null) {
    notice("the loop worker's dispatch costs were not measured: the trace held too few of its dispatches")
    return null
  }
  const under = q.loop?.disk?.device
  if (under !== undefined && under !== p.disk) {
    notice(
      `the loop worker's dispatch costs were measured over ${p.disk}, not ${under} under ${q.device}: not used`,
    )
    return null
  }
  const s = p.samples
  notice(
    `the loop worker notifies ${p.disk} in ${p.notifyUs} µs when it had no request in hand` +
      (p.segmentUs !== null ? `, and maps a segment in ${p.segmentUs} µs` : ''),
  )
  return {
    disk: p.disk,
    notifyUs: p.notifyUs,
    segmentUs: p.segmentUs,
    said: `the middle 80 %'s means ${p.idleUs} µs idle over ${s.idle} dispatches, ${p.busyUs} µs busy over ${s.busy}${p.segmentUs !== null ? `, ${s.segmented} of ${q.maxSegments ?? '?'} segments` : ''}`,
  }
}
