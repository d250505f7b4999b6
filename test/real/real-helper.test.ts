// The privileged helper (`iosched-lab real-helper`) that the desktop app starts once per session
// with pkexec: its line-delimited JSON protocol spoken directly (tests run as root, so without
// pkexec), and the app's side of it (HelperBackend) under the LabApi.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import type { RunStarted } from '../../src/shared/api/contract'
import type { HelperMessage } from '../../src/main/services/real/helper-protocol'
import { HelperBackend } from '../../src/main/services/real/helper-client'
import { readJournals } from '../../src/main/services/real/journal'
import { resolveRealSpec } from '../../src/main/services/real/real-spec'
import { processGroupMembers } from '../../src/main/services/real/proc-identity'
import { newService, recorder } from '../api/fixtures'
import {
  OTHER_SCHEDULER,
  activeScheduler,
  cleanupDir,
  cliPath,
  createLoop,
  describeReal,
  readWhileWriting,
  root,
  tempDir,
} from './real-env'

/** A helper process and a reader of what it says. */
function startHelper(stateDir: string) {
  const child = spawn(process.execPath, [cliPath, 'real-helper', '--state-dir', stateDir], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  const messages: HelperMessage[] = []
  const waiters: { match: (m: HelperMessage) => boolean; resolve: (m: HelperMessage) => void }[] = []
  let stderr = ''
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const m = JSON.parse(line) as HelperMessage
    messages.push(m)
    for (const w of [...waiters])
      if (w.match(m)) {
        waiters.splice(waiters.indexOf(w), 1)
        w.resolve(m)
      }
  })
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)))
  return {
    child,
    messages,
    exited,
    stderr: () => stderr,
    send: (m: unknown) => child.stdin!.write((typeof m === 'string' ? m : JSON.stringify(m)) + '\n'),
    next(match: (m: HelperMessage) => boolean, ms = 30_000): Promise<HelperMessage> {
      const seen = messages.find(match)
      if (seen) return Promise.resolve(seen)
      return new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`no such message in ${ms} ms; stderr: ${stderr}`)), ms)
        waiters.push({
          match,
          resolve: (m) => {
            clearTimeout(t)
            resolve(m)
          },
        })
      })
    },
  }
}

const answer = (id: number) => (m: HelperMessage) =>
  (m.type === 'result' || m.type === 'error') && m.id === id

describe('the privileged helper’s protocol', () => {
  const state = mkdtempSync(join(tmpdir(), 'iosched-helper-'))
  afterAll(() => rmSync(state, { recursive: true, force: true }))

  it('says hello, answers each request by id, ignores noise, and exits when its input ends', async () => {
    const h = startHelper(state)
    const hello = await h.next((m) => m.type === 'hello')
    expect(hello).toEqual({
      type: 'hello',
      protocol: 1,
      pid: h.child.pid,
      root: process.getuid?.() === 0,
      stateDir: state,
    })
    h.send('this is not json')
    h.send({ id: 1, method: 'checks', params: [] })
    h.send({ id: 2, method: 'format-disk', params: ['vda'] })
    h.send({ id: 3, method: 'cancel', params: ['no-such-run'] })
    const checks = await h.next(answer(1))
    expect(checks).toMatchObject({
      type: 'result',
      value: expect.arrayContaining([expect.objectContaining({ what: 'fio' })]),
    })
    await expect(h.next(answer(2))).resolves.toMatchObject({
      type: 'error',
      error: { message: expect.stringContaining('unknown method "format-disk"') },
    })
    await expect(h.next(answer(3))).resolves.toEqual({ type: 'result', id: 3, value: false })
    expect(h.stderr()).toContain('ignoring a line that is not a request')
    h.child.stdin!.end()
    await expect(h.exited).resolves.toBe(0)
  }, 60_000)
})

describe('the app when root is not granted', () => {
  it('says why the helper did not start, and asks again at the next call', async () => {
    let starts = 0
    // pkexec's answer when the password dialog is dismissed
    const backend = new HelperBackend(() => {
      starts++
      return spawn('sh', ['-c', 'echo "Not authorized" >&2; exit 126'], { stdio: ['pipe', 'pipe', 'pipe'] })
    })
    await expect(backend.start()).rejects.toThrow(
      /real device tests need root, and the privileged helper did not start: the password dialog was dismissed \(Not authorized\)/,
    )
    expect(backend.running).toBe(false)
    await expect(backend.doctor()).rejects.toThrow('the password dialog was dismissed')
    expect(starts).toBe(2)
    await expect(backend.cancel('x')).resolves.toBe(false)
    const missing = new HelperBackend(() =>
      spawn('/nonexistent/pkexec', [], { stdio: ['pipe', 'pipe', 'pipe'] }),
    )
    await expect(missing.start()).rejects.toThrow(/could not be run \(spawn \/nonexistent\/pkexec ENOENT\)/)
  })

  it('a refused start is a problem of the real run, shown before anything starts', async () => {
    const lab = newService({
      real: {
        backend: new HelperBackend(() =>
          spawn('sh', ['-c', 'exit 127'], { stdio: ['pipe', 'pipe', 'pipe'] }),
        ),
      },
    })
    try {
      const r = await lab.startRealRun({ spec: readWhileWriting(1, ['noop']), target: { kind: 'scratch' } })
      if (process.getuid?.() !== 0 || (await lab.realAccess()).problems.length > 0) return // needs fio etc.
      expect(r).toEqual({ problems: [expect.stringContaining('root was not granted')] })
    } finally {
      lab.dispose()
    }
  })
})

describeReal('the privileged helper on a real device (root, fio)', () => {
  let dir = ''
  let disk = { device: '', name: '', file: '' }
  const state = () => join(dir, 'state')
  const spec = (seconds: number, schedulers: unknown[]) => {
    const v = resolveRealSpec(readWhileWriting(seconds, schedulers))
    if (!v.ok) throw new Error(JSON.stringify(v.issues))
    return v.spec
  }
  const onDisk = () => ({ target: { kind: 'device', name: disk.name, confirm: disk.name } })
  const helpers: ReturnType<typeof startHelper>[] = []
  const helper = () => {
    const h = startHelper(state())
    helpers.push(h)
    return h
  }

  beforeAll(() => {
    dir = tempDir('iosched-helper-real-')
    disk = createLoop(dir, 256)
    writeFileSync(`/sys/block/${disk.name}/queue/scheduler`, 'mq-deadline')
  })
  afterAll(async () => {
    for (const h of helpers) h.child.stdin!.end()
    await Promise.all(helpers.map((h) => h.exited))
    cleanupDir(dir)
  })

  it('runs a real experiment: its events carry the call’s id, then the result', async () => {
    const h = helper()
    h.send({ id: 7, method: 'run', params: ['r1', spec(2, ['noop']), onDisk()] })
    const result = await h.next(answer(7), 60_000)
    expect(result.type, JSON.stringify(result)).toBe('result')
    const runs = (
      result as { value: { runs: { label: string; source: string; real: { observedScheduler: string } }[] } }
    ).value.runs
    expect(runs.map((r) => [r.label, r.source, r.real.observedScheduler])).toEqual([['noop', 'real', 'none']])
    const events = h.messages.filter((m) => m.type === 'event')
    expect(events.every((e) => e.type === 'event' && e.id === 7)).toBe(true)
    const names = new Set(events.map((e) => (e as { name: string }).name))
    expect([...names]).toEqual(expect.arrayContaining(['targetReady', 'runStarted', 'progress', 'runDone']))
    expect(activeScheduler(disk.name)).toBe('mq-deadline')
  }, 90_000)

  it('cancels a run on request: the device restored before it answers', async () => {
    const h = helper()
    h.send({ id: 1, method: 'run', params: ['long', spec(30, [OTHER_SCHEDULER]), onDisk()] })
    await h.next((m) => m.type === 'event' && m.name === 'progress')
    expect(activeScheduler(disk.name)).toBe(OTHER_SCHEDULER)
    h.send({ id: 2, method: 'cancel', params: ['long'] })
    await expect(h.next(answer(2))).resolves.toMatchObject({ type: 'result', value: true })
    expect(activeScheduler(disk.name)).toBe('mq-deadline')
    await expect(h.next(answer(1))).resolves.toMatchObject({
      type: 'error',
      error: { name: 'CancelledError' },
    })
  }, 90_000)

  it('when the app goes away (its input ends) mid-run: restores the device, stops fio, exits', async () => {
    const h = helper()
    h.send({ id: 1, method: 'run', params: ['orphan', spec(30, ['kyber']), onDisk()] })
    await h.next((m) => m.type === 'event' && m.name === 'progress')
    expect(activeScheduler(disk.name)).toBe('kyber')
    // fio's process group, as the helper's journal has it (the run's tracer has a group of its own)
    const journals = readJournals(state()).filter((j) => j.data?.owner.pid === h.child.pid)
    const groups = journals[0]?.data?.groups ?? []
    expect(groups.length).toBeGreaterThan(0)
    const pgid = groups.find((g) => processGroupMembers(g.pgid).some((m) => m.comm === 'fio'))?.pgid ?? 0
    expect(processGroupMembers(pgid).map((m) => m.comm)).toContain('fio')
    const others = groups.map((g) => g.pgid).filter((g) => g !== pgid)
    h.child.stdin!.end()
    await expect(h.exited).resolves.toBe(0)
    expect(activeScheduler(disk.name)).toBe('mq-deadline')
    expect(processGroupMembers(pgid)).toEqual([])
    // nor does the tracer outlive it
    for (const g of others) expect(processGroupMembers(g)).toEqual([])
    expect(readJournals(state())).toEqual([])
  }, 90_000)

  it('validates with the events of its stages and runs, then the report as the result', async () => {
    const h = helper()
    const preset = join(dir, 'fp.json')
    writeFileSync(
      preset,
      JSON.stringify({
        schema: 'iosched-lab/device-preset@1',
        name: 'helper-fp',
        model: 'virtual',
        basePreset: 'loop-dio-virtio',
        measured: { target: { name: disk.name, description: 'the test’s loop device' }, points: [] },
        specDevice: { preset: 'loop-dio-virtio', overrides: {} },
      }),
    )
    const o = { ...onDisk(), presetFile: preset, only: ['randread-qd1'], seconds: 1, quick: true }
    h.send({ id: 5, method: 'validate', params: ['v1', o] })
    const result = await h.next(answer(5), 120_000)
    expect(result.type, JSON.stringify(result)).toBe('result')
    const report = (
      result as { value: { schema: string; preset: { from: string }; workloads: { id: string }[] } }
    ).value
    expect(report).toMatchObject({ schema: 'iosched-lab/validate@1', preset: { from: preset } })
    expect(report.workloads.map((w) => w.id)).toEqual(['randread-qd1'])
    const events = h.messages.filter((m) => m.type === 'event' && m.id === 5)
    expect(events[0]).toMatchObject({ name: 'stage', args: ['randread-qd1', 1, 2] })
    // a preset with no sweep of its own: nothing to measure again, said, and the report stands
    expect(report).not.toHaveProperty('drift')
    expect(
      events.some(
        (e) =>
          e.type === 'event' &&
          e.name === 'notice' &&
          String(e.args?.[0]) === 'no drift check: the preset records no sweep to measure again',
      ),
    ).toBe(true)
    expect(events.some((e) => e.type === 'event' && e.name === 'runStarted')).toBe(true)
    expect(activeScheduler(disk.name)).toBe('mq-deadline')
  }, 150_000)

  it('serves the LabApi’s real runs through HelperBackend, started once for the session', async () => {
    let starts = 0
    let proc: ChildProcess | null = null
    const backend = new HelperBackend(() => {
      starts++
      proc = spawn(process.execPath, [cliPath, 'real-helper', '--state-dir', state()], {
        cwd: root,
        stdio: ['pipe', 'pipe', 'pipe'],
      })
      return proc
    })
    const lab = newService({ real: { backend } })
    try {
      const rec = recorder(lab)
      for (const scheduler of ['noop', 'deadline']) {
        const r = await lab.startRealRun({
          spec: readWhileWriting(1, [scheduler]),
          ...onDisk(),
          alsoSimulate: false,
        } as never)
        if (!('runId' in r)) throw new Error(JSON.stringify(r))
        const { result } = await rec.done((r as RunStarted).runId)
        expect(result.runs.map((x) => `${x.label}/${x.source}`)).toEqual([`${scheduler}/real`])
      }
      expect(starts).toBe(1)
      expect(backend.running).toBe(true)
      const d = await lab.doctor()
      expect(d.stateDir).toBe(state())
    } finally {
      await lab.disposeAndWait()
    }
    expect(backend.running).toBe(false)
    expect((proc as ChildProcess | null)?.exitCode).toBe(0)
    expect(activeScheduler(disk.name)).toBe('mq-deadline')
  }, 120_000)
})
