import { fork } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { RunStarted } from '../../src/shared/api/contract'
import type { LabService } from '../../src/main/services/lab-service'
import { longSpec, newService, quickSpec, recorder, tempDir } from './fixtures'

const services: LabService[] = []
const service = (...a: Parameters<typeof newService>): LabService => {
  const s = newService(...a)
  services.push(s)
  return s
}
afterEach(() => {
  for (const s of services.splice(0)) s.dispose()
})

const started = (r: RunStarted | { issues: unknown } | { problems: unknown }): RunStarted => {
  if (!('runId' in r)) throw new Error(`not started: ${JSON.stringify(r)}`)
  return r
}
const alive = (pid: number | undefined): boolean => {
  try {
    process.kill(pid!, 0)
    return true
  } catch {
    return false
  }
}

describe('LabService', () => {
  it('serves the catalogue and the gallery of examples', async () => {
    const lab = service()
    const cat = await lab.catalogue()
    expect(cat.schedulers.map((s) => s.name)).toEqual(expect.arrayContaining(['noop', 'deadline']))
    const ex = await lab.examples()
    // the gallery comes first, one experiment per variant; the flagship example is shown once
    expect(ex[0].id).toMatch(/^gallery\//)
    const flagship = ex.filter(
      (e) => (e.spec as { name?: string }).name === 'streaming-read-under-write-2003',
    )
    expect(flagship).toHaveLength(1)
    expect(flagship[0].id).toBe('gallery/streaming-read-under-write-2003/main')
    expect(flagship[0].name).toContain('LKML')
    expect(flagship[0].description).toContain('published measurement A')
    expect((flagship[0].spec as { device: unknown }).device).toEqual({ preset: 'hdd-2003-ide' })
    expect(ex.map((e) => e.id)).toContain('gallery/row-vs-cfq-emmc-2012/iozone-parallel')
    expect(await newService({ examplesDir: '/nonexistent', galleryRoot: '/nonexistent' }).examples()).toEqual(
      [],
    )
  })

  it('validates specs with the shared schema, each problem at its path', async () => {
    const lab = service()
    expect((await lab.validateSpec({ spec: quickSpec })).ok).toBe(true)
    const bad = structuredClone(quickSpec) as typeof quickSpec
    ;(bad.schedulers[1] as { tunables: Record<string, unknown> }).tunables.fifo_batch = -3
    const v = await lab.validateSpec({ spec: bad })
    expect(v).toEqual({
      ok: false,
      issues: [{ path: 'schedulers[1].tunables.fifo_batch', message: 'expected a positive integer, got -3' }],
    })
    const r = await lab.startRun({ spec: bad })
    expect(r).toEqual({ issues: v.ok ? [] : v.issues })
  })

  it('runs an experiment in child processes: progress with an ETA, each result, then the summary', async () => {
    const lab = service()
    const rec = recorder(lab)
    const run = started(await lab.startRun({ spec: quickSpec }))
    expect(run.jobs.map((j) => j.label)).toEqual(['noop', 'deadline-fb4'])
    const { done, result } = await rec.done(run.runId)
    expect(done.result.summary.map((s) => s.label)).toEqual(['noop', 'deadline-fb4'])
    // the runs came in run:job-done: run:done names them, in order, and does not send them again
    expect(done.result).not.toHaveProperty('runs')
    expect(done.result.runJobs.map((j) => j.label)).toEqual(['noop', 'deadline-fb4'])
    expect(result.runs.map((r) => r.label)).toEqual(['noop', 'deadline-fb4'])
    expect(done.failures).toEqual([])
    expect(done.sweep).toBeNull()
    const jobDone = rec.events.filter((e) => e.type === 'run:job-done')
    expect(jobDone.map((e) => e.job.label).sort()).toEqual(['deadline-fb4', 'noop'])
    const last = rec.events.at(-1)
    expect(last?.type).toBe('run:done')
    await expect(lab.cancelRun({ runId: run.runId })).resolves.toBe(false)
  })

  it('repeats until stable: rounds of jobs join the run, and the result holds every run', async () => {
    const lab = service()
    const rec = recorder(lab)
    const spec = {
      ...quickSpec,
      device: { preset: 'hdd-7200-sata' },
      repetitions: 2,
      untilStable: { cvPercent: 1.5, maxRepetitions: 5 },
    }
    const run = started(await lab.startRun({ spec }))
    expect(run.jobs.map((j) => `${j.label}#${j.repetition}`)).toEqual([
      'noop#0',
      'deadline-fb4#0',
      'noop#1',
      'deadline-fb4#1',
    ])
    const { done, result } = await rec.done(run.runId)
    const added = rec.events.flatMap((e) => (e.type === 'run:jobs-added' ? e.jobs : []))
    expect(added.length).toBeGreaterThan(0)
    // each added job is the next repetition of its entry, and its result came like the others
    for (const j of added) expect(j.repetition).toBeGreaterThanOrEqual(2)
    expect(done.result.runJobs).toHaveLength(run.jobs.length + added.length)
    expect(result.runs).toHaveLength(run.jobs.length + added.length)
    const notices = rec.events
      .filter((e) => e.type === 'run:notice')
      .map((e) => (e as { message: string }).message)
    expect(notices[0]).toMatch(/^repeating until stable: \S+: 2 runs, CV [\d.]+ % \(rr\) — not stable yet$/)
    expect(notices.slice(-2)).toEqual([
      expect.stringMatching(
        /^repeated until stable: noop: \d runs, CV [\d.]+ % \(rr\) — (stable|run cap reached)$/,
      ),
      expect.stringMatching(/^repeated until stable: deadline-fb4: \d runs, .* — (stable|run cap reached)$/),
    ])
    // it ended when every entry was stable or at the cap
    for (const s of done.result.summary) {
      expect(s.repetitions).toBeGreaterThanOrEqual(2)
      expect(s.repetitions).toBeLessThanOrEqual(5)
    }
  })

  it('runs a sweep: one experiment per value of the varied parameter', async () => {
    const lab = service()
    const rec = recorder(lab)
    const sweep = { path: 'schedulers[1].tunables.fifo_batch', values: [1, 64] }
    const run = started(await lab.startRun({ spec: quickSpec, sweep }))
    expect(run.jobs.map((j) => j.point)).toEqual([0, 0, 1, 1])
    const { done, sweep: whole } = await rec.done(run.runId)
    expect(done.sweep?.points.map((p) => p.value)).toEqual([1, 64])
    expect(done.sweep?.points[1].result.spec.schedulers[1].tunables.fifo_batch).toBe(64)
    // each point's runs, put back together from the results that came one by one
    expect(whole?.points.map((p) => p.result.runs.map((r) => r.tunables.fifo_batch))).toEqual([
      [undefined, 1],
      [undefined, 64],
    ])
    const bad = await lab.startRun({
      spec: quickSpec,
      sweep: { path: 'schedulers[1].tunables.fifo_batch', values: [1, 0] },
    })
    expect(bad).toEqual({
      issues: [
        {
          path: 'schedulers[1].tunables.fifo_batch',
          message: 'expected a positive integer, got 0 (with schedulers[1].tunables.fifo_batch = 0)',
        },
      ],
    })
  })

  it('cancels a run: every child is killed, no orphan, and the run ends as cancelled', async () => {
    const children: ChildProcess[] = []
    const lab = service({
      spawner: (path) => {
        const c = fork(path, [], {
          execArgv: ['--import', 'tsx'],
          stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
          serialization: 'advanced',
        })
        children.push(c)
        return c
      },
    })
    const rec = recorder(lab)
    const run = started(await lab.startRun({ spec: longSpec }))
    expect(run.jobs).toHaveLength(8)
    await rec.until('run:progress', run.runId)
    expect(children.length).toBe(2)
    await expect(lab.cancelRun({ runId: run.runId })).resolves.toBe(true)
    const failed = await rec.until('run:failed', run.runId)
    expect(failed).toMatchObject({ cancelled: true, message: 'cancelled' })
    await new Promise((r) => setTimeout(r, 200))
    expect(children.length).toBe(2)
    for (const c of children) expect(alive(c.pid)).toBe(false)
    expect(rec.events.some((e) => e.type === 'run:job-failed')).toBe(false)
  })

  it('warms its children up when asked, at once and without a run; dispose leaves none behind', async () => {
    const children: ChildProcess[] = []
    const warms: unknown[] = []
    const spawner = (path: string): ChildProcess => {
      const c = fork(path, [], {
        execArgv: ['--import', 'tsx'],
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
        serialization: 'advanced',
      })
      const send = c.send.bind(c)
      c.send = ((m: { type: string }, ...rest: never[]) => {
        if (m.type === 'warm') warms.push(m)
        return send(m, ...rest)
      }) as typeof c.send
      children.push(c)
      return c
    }
    const lab = service({ spawner })
    const t0 = performance.now()
    lab.warmUp()
    lab.warmUp() // once is enough
    expect(performance.now() - t0).toBeLessThan(50) // the children start on the next turn
    expect(children).toHaveLength(0)
    await new Promise((r) => setTimeout(r, 10))
    expect(children).toHaveLength(2)
    // each child is told to simulate the short warm-up experiment to its end (no time budget)
    const until = Date.now() + 20_000
    while (warms.length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 25))
    expect(warms).toHaveLength(2)
    expect(warms[0]).toMatchObject({ type: 'warm', spec: { name: 'warm-up' } })
    expect(warms[0]).not.toHaveProperty('budgetMs')
    // the flagship's kinds are warm already: opening it does not warm again
    const flagship = (await lab.examples()).find(
      (e) => e.id === 'gallery/streaming-read-under-write-2003/main',
    )
    expect((await lab.validateSpec({ spec: flagship?.spec })).ok).toBe(true)
    expect(warms).toHaveLength(2)
    lab.dispose()
    await new Promise((r) => setTimeout(r, 200))
    for (const c of children) expect(alive(c.pid)).toBe(false)
    // nor does a warm-up asked for after dispose start any
    const after = service({ spawner })
    after.dispose()
    after.warmUp()
    await new Promise((r) => setTimeout(r, 20))
    expect(children).toHaveLength(2)
  }, 30_000)

  it('turns a crashed child into an error on its run; a fresh child takes its place for the others', async () => {
    const crash = join(tempDir(), 'crash.mjs')
    writeFileSync(
      crash,
      "process.send({ type: 'ready' }); process.on('message', () => { console.error('out of memory'); process.exit(3) })\n",
    )
    let n = 0
    const lab = service({
      parallel: 1,
      spawner: (path) =>
        n++ === 0
          ? fork(crash, [], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] })
          : fork(path, [], {
              execArgv: ['--import', 'tsx'],
              stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
              serialization: 'advanced',
            }),
    })
    const rec = recorder(lab)
    const run = started(await lab.startRun({ spec: quickSpec }))
    const done = await rec.until('run:done', run.runId)
    expect(done.failures).toEqual([
      {
        job: expect.objectContaining({ label: 'noop' }),
        message: 'simulation process exited with code 3: out of memory',
      },
    ])
    expect(done.result.summary.map((s) => s.label)).toEqual(['deadline-fb4'])
    expect(n).toBe(2)
    expect(rec.events.filter((e) => e.type === 'run:job-failed')).toHaveLength(1)
  })
})
