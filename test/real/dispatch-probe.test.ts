// The loop worker's dispatch costs (real/dispatch-probe.ts): read from a trace of the loop device's
// and the disk's block events and the scheduler's switches — here a trace written for the test —
// and measured on this machine's loop device over its disk, with, from the same trace, how long a
// task woken for an idle CPU waits for it (idle-wake-trace.ts).
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  allowedCpus,
  dispatchCosts,
  dispatchFacts,
  dispatchProbeUnavailable,
  fioArgs,
  measureDispatch,
  runDispatchProbe,
} from '../../src/main/services/real/dispatch-probe'
import type { DispatchProbe } from '../../src/main/services/real/dispatch-probe'
import { INSTANCE_PREFIX } from '../../src/main/services/real/ftrace-capture'
import type { QueueFacts } from '../../src/main/services/real/queue-facts'
import { describeReal, required } from './real-env'

/** The probe needs the kernel's tracepoints: without them it says why (required: a failure). */
const untraceable = dispatchProbeUnavailable()

/** A trace written event by event, in tracefs' format. */
class Trace {
  private readonly lines: { us: number; text: string }[] = []
  private sector = 1000

  private line(task: string, cpu: number, flags: string, us: number, event: string): void {
    this.lines.push({
      us,
      text: `${task.padStart(16)} [00${cpu}] ${flags} ${(us / 1e6).toFixed(6)}: ${event}`,
    })
  }

  /** fio hands the loop device a write of `kib`, as requests of `pieces` KiB each. */
  loopWrite(us: number, pieces: number[]): void {
    for (const [k, kib] of pieces.entries()) {
      this.line(
        'fio-100',
        0,
        '.....',
        us + k,
        `block_rq_issue: 7,0 WS ${kib * 1024} () ${this.sector} + ${kib * 2} be,0,4 [fio]`,
      )
      this.sector += kib * 2
    }
  }

  /** `task` issues a write of `kib` on the disk at `us`; its next event on the CPU comes `next` µs later. */
  diskWrite(task: string, us: number, kib: number, next: number, nextFlags = 'd..2.'): string {
    const key = `${5000 + this.lines.length * 16} + ${kib * 2}`
    this.line(task, 1, '.....', us, `block_rq_issue: 254,0 WS ${kib * 1024} () ${key} be,0,4 [${task}]`)
    this.line(
      task,
      1,
      nextFlags,
      us + next,
      nextFlags.includes('s')
        ? 'block_rq_complete: 254,0 WS () 1 + 8 be,0,4 [0]'
        : `sched_switch: prev_comm=${task} prev_pid=9 ==> next_comm=swapper/1 next_pid=0`,
    )
    return key
  }

  /** A flush on the disk, as the block events print one: no data, a sector of -1 at its completion. */
  flush(issued: number, done: number): void {
    this.line('jbd2/vda1-8', 1, '.....', issued, 'block_rq_issue: 254,0 FF 0 () 0 + 0 none,0,0 [jbd2/vda1-8]')
    this.line(
      '<idle>-0',
      0,
      '..s1.',
      done,
      'block_rq_complete: 254,0 FF () 18446744073709551615 + 0 none,0,0 [0]',
    )
  }

  complete(us: number, key: string): void {
    this.line('<idle>-0', 0, '..s1.', us, `block_rq_complete: 254,0 WS () ${key} be,0,4 [0]`)
  }

  /** Another process's read on the disk at `us`: the disk has it in hand until its completion. */
  diskRead(us: number): string {
    const key = `${900_000 + this.lines.length * 16} + 8`
    this.line('fio-200', 1, '.....', us, `block_rq_issue: 254,0 RS 4096 () ${key} be,0,4 [fio]`)
    return key
  }

  /** The lines in the order of their time, as the kernel writes them. */
  get text(): string {
    return [...this.lines]
      .sort((a, b) => a.us - b.us)
      .map((l) => l.text)
      .join('\n')
  }
}

const WORKER = 'kworker/u8:3-2225'

/** 60 idle 4 KiB dispatches (18 µs), 60 busy ones (1 or 2 µs), 60 2 MiB writes split at 128 pages. */
function probeTrace(interrupted = 0, readsInHand = 0): string {
  const t = new Trace()
  let us = 1000
  for (let i = 0; i < 60 + interrupted; i++) {
    t.loopWrite(us, [4])
    // another process's read on the disk while the worker dispatches: the disk is not idle
    if (i >= 60 + interrupted - readsInHand) t.complete(us + 40, t.diskRead(us + 2))
    // an interrupt's softirq on the CPU right after the dispatch: not the worker's time
    const key = t.diskWrite(WORKER, us + 5, 4, i < interrupted ? 1 : 18, i < interrupted ? '..s1.' : 'd..2.')
    t.complete(us + 80, key)
    us += 200
  }
  // a flush of the journal's: no data, its completion names no sector (it must not stay in hand)
  t.flush(us - 100, us - 60)
  // the journal's write in hand meanwhile: the disk is busy (not the worker's: not counted)
  const journal = t.diskWrite('jbd2/vda1-8', us, 4, 1)
  for (let i = 0; i < 60; i++) {
    t.loopWrite(us + 10, [4])
    // whole µs, as a trace has them: 2 for two in five, 1 for the rest
    const key = t.diskWrite(WORKER, us + 15, 4, i % 5 < 2 ? 2 : 1)
    t.complete(us + 90, key)
    us += 200
  }
  t.complete(us, journal)
  for (let i = 0; i < 60; i++) {
    // a 2 MiB write cut at 128 one-page segments: all but the last piece hold 128
    t.loopWrite(us + 10, [512, 512, 512, 512])
    // the first to an idle disk: its notification too, so not a measure of the mapping alone
    const keys = [t.diskWrite(WORKER, us + 15, 512, 30)]
    // 127 segments beyond the first: 15 µs past the dispatch
    for (let k = 1; k < 4; k++) keys.push(t.diskWrite(WORKER, us + 30 + 20 * k, 512, 15))
    for (const [k, key] of keys.entries()) t.complete(us + 200 + k, key)
    us += 400
  }
  return t.text
}

describe('the loop worker’s dispatch costs, from a trace', () => {
  it('tells the notification of an idle disk from a busy one, and the mapping per segment', () => {
    const c = dispatchCosts(probeTrace(), '7,0', '254,0', 128, 1280)!
    expect(c.idleUs).toBeCloseTo(18, 3)
    // the middle 80 % (30 of 1 µs, 18 of 2), not the median's whole 1
    expect(c.busyUs).toBeCloseTo(66 / 48, 3)
    expect(c.notifyUs).toBeCloseTo(18 - 66 / 48, 2)
    expect(c.segmentUs).toBeCloseTo((15 - 66 / 48) / 127, 3)
    // the journal's write is the disk's, not the worker's
    expect(c.samples).toEqual({ idle: 60, busy: 60, segmented: 120 })
  })

  it('leaves out an interval an interrupt cut into', () => {
    const c = dispatchCosts(probeTrace(40), '7,0', '254,0', 128, 1280)!
    expect(c.samples.idle).toBe(60)
    expect(c.idleUs).toBeCloseTo(18, 3)
  })

  it('counts a read the disk has in hand, anyone’s, as keeping it busy', () => {
    const c = dispatchCosts(probeTrace(0, 10), '7,0', '254,0', 128, 1280)!
    expect(c.samples).toMatchObject({ idle: 50, busy: 70 })
  })

  it('knows no segment count where the size limit split the write, and says null when it saw too little', () => {
    // max_sectors_kb 512: the pieces were cut at 512 KiB, whatever their segments
    expect(dispatchCosts(probeTrace(), '7,0', '254,0', 128, 512)!.segmentUs).toBeNull()
    expect(
      dispatchCosts(probeTrace().split('\n').slice(0, 100).join('\n'), '7,0', '254,0', 128, 1280),
    ).toBeNull()
  })

  it('keeps a measurement for the queue facts only when it measured the disk under the device', async () => {
    const q = {
      device: 'loop3',
      maxSegments: 128,
      loop: { backingFile: '/x', directIo: true, disk: { device: 'vda' } },
    } as unknown as QueueFacts
    const probe: DispatchProbe = {
      disk: 'vda',
      idleUs: 18,
      busyUs: 2,
      notifyUs: 16,
      segmentUs: 0.1,
      samples: { idle: 60, busy: 60, segmented: 60 },
    }
    const notices: string[] = []
    const wake = 'the trace held too few wake-ups onto an idle CPU'
    const facts = dispatchFacts(q, { dispatch: probe, wake }, (m) => notices.push(m))
    if (facts === null) throw new Error(`no facts: ${notices.join('; ')}`)
    expect(facts).toMatchObject({ disk: 'vda', notifyUs: 16, segmentUs: 0.1 })
    expect(dispatchFacts(q, { dispatch: { ...probe, disk: 'sdb' }, wake }, (m) => notices.push(m))).toBeNull()
    expect(notices.at(-1)).toMatch(/measured over sdb, not vda under loop3: not used/)
    expect(dispatchFacts(q, { dispatch: null, wake }, (m) => notices.push(m))).toBeNull()
    expect(notices.at(-1)).toMatch(/not measured: the trace held too few of its dispatches/)
    // a probe that fails, run once for both its figures: why, in place of its trace
    const failed = await runDispatchProbe(() => Promise.reject(new Error('fio failed (1)')))
    expect(failed).toBe(untraceable ?? 'fio failed (1)')
    expect(dispatchFacts(q, failed, (m) => notices.push(m))).toBeNull()
    expect(notices.at(-1)).toBe(`the loop worker's dispatch costs were not measured: ${String(failed)}`)
  })
})

describe('the probe’s writers', () => {
  it('hold a QD1 writer on the first and the last CPU the lab may use, where it may use two or more', () => {
    expect(allowedCpus('Name:\tnode\nCpus_allowed:\t3\nCpus_allowed_list:\t0-1\n')).toEqual([0, 1])
    expect(allowedCpus('Cpus_allowed_list:\t2,4-6,9\n')).toEqual([2, 4, 5, 6, 9])
    expect(allowedCpus('Cpus_allowed_list:\tzz\n')).toEqual([])
    expect(allowedCpus('')).toEqual([])
    const args = fioArgs('/dev/loop9', [2, 4, 5, 9])
    const jobs = args.filter((a) => a.startsWith('--name=')).map((a) => a.slice(7))
    expect(jobs).toEqual(['idle', 'busy', 'segments', 'held-2', 'held-9'])
    expect(args).toContain('--cpus_allowed=2')
    expect(args).toContain('--cpus_allowed=9')
    expect(args.filter((a) => a === '--runtime=500ms')).toHaveLength(2)
    expect(args.filter((a) => a === '--stonewall')).toHaveLength(4)
    // one CPU: nothing to hold a writer away from
    expect(fioArgs('/dev/loop9', [0]).filter((a) => a.startsWith('--cpus_allowed'))).toEqual([])
  })
})

if (untraceable !== null && !required)
  console.warn(`skipping the dispatch probe on this machine: ${untraceable}`)

describeReal('the loop worker’s dispatch costs on this machine', () => {
  it.skipIf(untraceable !== null && !required)(
    'notifies an idle disk at a cost a busy one does not have, times wake-ups onto idle CPUs, and leaves nothing behind',
    async () => {
      const before = execFileSync('losetup', ['-a'], { encoding: 'utf8' })
      const t = await measureDispatch()
      const p = t.dispatch
      expect(p).not.toBeNull()
      expect(p!.samples.idle).toBeGreaterThan(1000)
      expect(p!.idleUs).toBeGreaterThan(p!.busyUs)
      expect(p!.notifyUs).toBeGreaterThan(1)
      if (p!.segmentUs !== null) expect(p!.segmentUs).toBeLessThan(1)
      // where the kernel has the wake-up tracepoints (all since 4.x): an IPI and the way out of
      // idle take longer than the way out of idle alone
      if (existsSync('/sys/kernel/tracing/events/sched/sched_waking')) {
        if (typeof t.wake === 'string') throw new Error(`no wake-ups: ${t.wake}`)
        const { idleWakeUs, idleExitUs } = t.wake
        console.log(`idle wake-ups: ${JSON.stringify(t.wake)}`)
        if (idleExitUs !== null) expect(idleExitUs).toBeGreaterThan(0)
        // a writer held away from the CPU that takes the disk's interrupts is woken from it
        if (allowedCpus().length >= 2) expect(idleWakeUs).not.toBeNull()
        if (idleWakeUs !== null && idleExitUs !== null) expect(idleWakeUs).toBeGreaterThan(idleExitUs)
      }
      expect(execFileSync('losetup', ['-a'], { encoding: 'utf8' })).toBe(before)
      const instances = '/sys/kernel/tracing/instances'
      if (existsSync(instances))
        expect(
          readdirSync(instances).filter((d) => d.startsWith(`${INSTANCE_PREFIX}${process.pid}-`)),
        ).toEqual([])
    },
    60_000,
  )
})
