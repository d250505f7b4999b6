import { afterAll, beforeAll, expect, it } from 'vitest'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { CancelledError } from '../../src/main/services/real/engine-plan'
import { RealExperimentRunner } from '../../src/main/services/real/real-experiment'
import { resolveRealSpec } from '../../src/main/services/real/real-spec'
import { RUN_PREFIX } from '../../src/main/services/real/state-dir'
import { INSTANCE_PREFIX } from '../../src/main/services/real/ftrace-capture'
import { BlktraceCapture, blktraceUnavailable } from '../../src/main/services/real/blktrace-capture'
import { simulate } from '../../src/shared/experiment/runner'
import type { ProcessStages } from '../../src/shared/metrics/why'
import type { RequestRecord } from '../../src/shared/experiment/request-tap'
import { expectStagesAddUp } from '../helpers/requests-add-up'
import { cleanupDir, createLoop, describeTraced, KERNEL_OFFERED, readWhileWriting, tempDir } from './real-env'

const readSysFile = (path: string): string => {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return ''
  }
}

const specOf = (seconds: number, schedulers: unknown[] = ['noop']) => {
  const v = resolveRealSpec(readWhileWriting(seconds, schedulers))
  if (!v.ok) throw new Error(v.issues.map((i) => `${i.path}: ${i.message}`).join('\n'))
  return v.spec
}

/**
 * The tracers of this device: blktrace and blkparse, or the `cat` reading the lab's tracefs
 * instance (the fallback where the kernel refuses blktrace's relay files).
 */
function tracers(device: string): string[] {
  const out: string[] = []
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue
    try {
      const argv = readFileSync(`/proc/${e}/cmdline`, 'utf8').split('\0')
      const ours = (a: string): boolean =>
        a === device ||
        (a.includes(RUN_PREFIX) && a.includes('/blktrace-')) ||
        a.endsWith(`${INSTANCE_PREFIX}${process.pid}-${device.replace('/dev/', '')}/trace_pipe`)
      if (/(blktrace|blkparse|cat)$/.test(argv[0]) && argv.some(ours)) out.push(`${e}: ${argv.join(' ')}`)
    } catch {
      // gone meanwhile
    }
  }
  return out
}

/**
 * What a real run's stages will come from on this machine, decided as RunTrace.start decides:
 * blktrace when it is installed and can trace the device, else the kernel's block tracepoints
 * through tracefs — on a kernel that refuses blktrace's relay files in debugfs (here: "failed open
 * /sys/kernel/debug/block/loopN/trace0: Operation not permitted"), or without blktrace — with the
 * reason blktrace was passed over, as the run's notes give it.
 */
async function expectedSource(
  device: string,
  workDir: string,
): Promise<{ source: 'blktrace' | 'tracefs'; passedOver: string }> {
  const cannot = blktraceUnavailable()
  if (cannot !== null) return { source: 'tracefs', passedOver: cannot }
  try {
    await (await BlktraceCapture.start(device, workDir)).dispose()
    return { source: 'blktrace', passedOver: '' }
  } catch {
    return { source: 'tracefs', passedOver: `blktrace could not trace ${device}: ` }
  }
}

describeTraced(
  'a real run traced (blktrace, or the block tracepoints where it cannot), beside its simulated companion (root, fio, a tracer)',
  () => {
    let dir = ''
    let disk = { device: '', name: '', file: '' }
    const instance = () => `/sys/kernel/tracing/instances/${INSTANCE_PREFIX}${process.pid}-${disk.name}`
    const target = () => ({ kind: 'device' as const, name: disk.name, confirm: disk.name })

    beforeAll(() => {
      dir = tempDir('iosched-blktrace-')
      disk = createLoop(dir, 256)
    })
    afterAll(() => cleanupDir(dir))

    it('has request stages per process, dispatches and per-process throughput, named as the simulation’s, and says what traced them', async () => {
      const expected = await expectedSource(disk.name, dir)
      console.info(
        `stages expected from ${expected.source}${expected.passedOver ? ` (${expected.passedOver}…)` : ''}`,
      )
      // every scheduler the kernel offers: `none` issues most requests without an I, the others insert them
      const kernel = KERNEL_OFFERED.map((k) => (k === 'none' ? { name: 'none', label: 'none' } : k))
      const spec = specOf(1, kernel)
      const records = new Map<string, RequestRecord[]>()
      let clock = ''
      const r = await new RealExperimentRunner().run(
        spec,
        { target: target(), stateDir: join(dir, 'state'), sampleMs: 250 },
        {
          failed: (label, _rep, m) => {
            throw new Error(`${label} failed: ${m}`)
          },
          request: (label, _rep, x) => {
            const list = records.get(label)
            if (list) list.push(x)
            else records.set(label, [x])
          },
          progress: () => {
            clock ||= readSysFile(join(instance(), 'trace_clock'))
          },
        },
      )
      expect(r.runs.map((x) => x.label)).toEqual(KERNEL_OFFERED)
      // under each, every traced request's stages add up to its Q2C, none negative, as a simulated
      // run's do (an event stamped before the one it follows counts as at it)
      for (const x of r.runs) {
        const mine = records.get(x.label) ?? []
        expect(mine.length, x.label).toBeGreaterThan(0)
        expectStagesAddUp(x.why!, mine)
        const order = (x.why?.missing ?? []).find((n) => n.includes('stamped before'))
        console.info(`${x.label}: ${mine.length} traced requests; ${order ?? 'every event stamped in order'}`)
      }
      const run = r.runs[0]
      // the result says what traced it; the tracepoints' stages also say why not blktrace
      expect(run.why?.source, (run.why?.missing ?? []).join('; ')).toBe(expected.source)
      const notes = run.why?.missing ?? []
      if (expected.source === 'tracefs') {
        // the tracepoints stamped on one clock for every CPU, as blktrace's (ktime_get)
        expect(clock).toMatch(/\[mono\]/)
        expect(notes.some((n) => n.startsWith(expected.passedOver))).toBe(true)
        expect(notes).toContain(
          'traced through the kernel’s block tracepoints (a tracefs instance): blktrace could not read the trace here',
        )
      } else expect(notes.join('\n')).not.toMatch(/blktrace could not|tracefs/)
      const real = new Map((run.why?.processes ?? []).map((p) => [p.process, p]))
      for (const name of ['writer', 'reader']) {
        const p = real.get(name) as ProcessStages
        expect(p, `${name} in ${[...real.keys()].join(', ')}: ${run.why?.missing?.join('; ')}`).toBeDefined()
        expect(p.requests).toBeGreaterThan(0)
        expect(p.stages.q2c.count).toBe(p.requests)
        expect(p.stages.d2c.sum).toBeGreaterThan(0)
        // and so do the process's
        const s = p.stages
        expect(s.q2g.sum + s.g2i.sum + s.i2d.sum + s.d2c.sum).toBe(s.q2c.sum)
        expect(p.batches).toBeGreaterThan(0)
        expect(p.idle).toBeUndefined()
      }
      expect(real.get('writer')!.writeRequests).toBe(real.get('writer')!.requests)
      expect(real.get('reader')!.readRequests).toBe(real.get('reader')!.requests)
      // the sector-over-time plot and each process's throughput, in the run's own bins
      expect(run.dispatches.tMs.length).toBeGreaterThan(10)
      expect(Math.max(...run.dispatches.sector)).toBeLessThan(256 * 2048)
      const series = new Map((run.processSeries ?? []).map((p) => [p.name, p]))
      for (const name of ['writer', 'reader']) {
        const p = series.get(name)!
        expect(p.readMBps.length).toBe(run.timeSeries.tMs.length)
        expect(Math.max(...p.readMBps, ...p.writeMBps)).toBeGreaterThan(0)
      }
      expect(run.totals.seeks).toBeGreaterThan(0)
      // read live from the tracepoints (where blktrace is refused), the run says what reading
      // its events cost the machine: the figures of a workload short of CPU depend on it
      const cost = run.real?.notes.find((n) => n.startsWith('traced '))
      if (expected.source === 'tracefs')
        expect(cost).toMatch(
          /^traced \d+ block events \(\d+\/s.*\); reading them took the lab \d+\.\d CPU-seconds, \d+ % of the machine's \d+ CPUs? over the run/,
        )
      else expect(cost, (run.why?.missing ?? []).join('; ')).toBeUndefined()
      // its simulated companion has the same processes
      const sim = simulate(spec, 0)
      expect(sim.why?.source).toBe('simulated')
      const simNames = new Set(sim.why!.processes.map((p) => p.process))
      expect(simNames.has('writer') && simNames.has('reader')).toBe(true)
      // nothing of the trace is left: no tracer, no trace set up on the device, no binary trace
      expect(tracers(disk.device)).toEqual([])
      expect(existsSync(`/sys/kernel/debug/block/${disk.name}/msg`)).toBe(false)

      expect(existsSync(instance())).toBe(false)
    }, 300_000)

    it('says what is missing when tracing is switched off, and keeps the /proc figures', async () => {
      const r = await new RealExperimentRunner().run(specOf(1), {
        target: target(),
        stateDir: join(dir, 'state'),
        sampleMs: 250,
        trace: false,
      })
      const run = r.runs[0]
      expect(run.why).toEqual({
        source: 'none',
        processes: [],
        missing: ['tracing was switched off for this run'],
      })
      expect(run.dispatches.tMs).toEqual([])
      expect(run.processSeries).toBeUndefined()
      expect(run.totals.requests).toBeGreaterThan(0)
    }, 60_000)

    it('stops blktrace with the run on a cancel: no tracer outlives it', async () => {
      const runner = new RealExperimentRunner()
      let cancelled = false
      let during: string[] = []
      const p = runner.run(
        specOf(20),
        { target: target(), stateDir: join(dir, 'state'), sampleMs: 250 },
        {
          progress: () => {
            if (cancelled) return
            cancelled = true
            during = tracers(disk.device)
            void runner.cancel()
          },
        },
      )
      await expect(p).rejects.toBeInstanceOf(CancelledError)
      expect(cancelled).toBe(true)
      expect(during.length).toBeGreaterThan(0)
      expect(tracers(disk.device)).toEqual([])
      expect(existsSync(`/sys/kernel/debug/block/${disk.name}/msg`)).toBe(false)

      expect(existsSync(instance())).toBe(false)
    }, 90_000)
  },
)
