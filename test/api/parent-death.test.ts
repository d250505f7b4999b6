// A simulation child goes within a second or two of its parent, even a parent killed with SIGKILL
// while the child is deep in a simulation that would run for minutes: `iosched-lab run`, the
// browser host (`iosched-lab serve`), and the app's utility-process worker (with a stand-in for
// Electron's parentPort). Checked in /proc.
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { execArgvFor } from '../../src/main/services/simulation-worker'
import { killSurvivors, procStat, simulationChildrenOf, waitUntil } from '../helpers/procs'
import { longSpec, tempDir } from './fixtures'

const bin = join(import.meta.dirname, '../../bin/iosched-lab.mjs')

/** Within this long of the parent's SIGKILL every child must be gone (the requirement: ~1 s). */
const GONE_MS = 2000

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const c of cleanups.splice(0)) c()
})

/** Start `args` with node; it, and whatever of `pids()` survives, is killed after the test. */
function start(args: string[], pids: () => number[] = () => []): ChildProcess {
  const p = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] })
  cleanups.push(() => {
    p.kill('SIGKILL')
    killSurvivors(pids())
  })
  return p
}

/** The first match of `re` on the process's stdout. */
function awaitLine(p: ChildProcess, re: RegExp): Promise<RegExpExecArray> {
  let out = ''
  return new Promise((resolve, reject) => {
    p.stdout!.on('data', (d) => {
      out += d
      const m = re.exec(out)
      if (m) resolve(m)
    })
    p.once('exit', (code) => reject(new Error(`exited (${code}) before printing ${re}: ${out}`)))
  })
}

/** SIGKILL `parent`, then wait for every one of `children` to be gone; returns how long it took. */
async function killAndTime(parent: ChildProcess, children: number[]): Promise<number> {
  for (const c of children) expect(procStat(c), `child ${c} before the kill`).not.toBeNull()
  const at = Date.now()
  parent.kill('SIGKILL')
  await waitUntil(
    () => children.every((c) => procStat(c) === null),
    GONE_MS,
    `children ${children.join(', ')} to go after their parent's SIGKILL`,
  )
  return Date.now() - at
}

describe('simulation children whose parent is killed', () => {
  it('go within a second or two of a SIGKILLed `iosched-lab run`, mid-simulation', async () => {
    const dir = tempDir('iosched-orphans-')
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    const spec = join(dir, 'long.json')
    writeFileSync(spec, JSON.stringify(longSpec))
    let kids: number[] = []
    const run = start([bin, 'run', spec, '--jobs', '2'], () => kids)
    // simulating: two children, each past the CPU time it takes to load (under 1.5 s from sources)
    await waitUntil(
      () => {
        kids = simulationChildrenOf(run.pid!)
        return kids.length === 2 && kids.every((k) => (procStat(k)?.cpuSeconds ?? 0) >= 3)
      },
      60_000,
      'two busy simulation children',
    )
    await killAndTime(run, kids)
  }, 90_000)

  it('go within a second or two of a SIGKILLed browser host (`iosched-lab serve`), mid-run', async () => {
    const dir = tempDir('iosched-orphans-')
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    mkdirSync(join(dir, 'renderer'))
    writeFileSync(join(dir, 'renderer', 'index.html'), '<title>IOSched Lab</title>')
    let kids: number[] = []
    const serve = start(
      [bin, 'serve', '--renderer', join(dir, 'renderer'), '--library', join(dir, 'lib'), '--jobs', '2'],
      () => kids,
    )
    const [url] = await awaitLine(serve, /http:\/\/127\.0\.0\.1:\d+\/\?token=\w+/)
    const token = new URL(url).searchParams.get('token')!
    const call = async (method: string, input: unknown): Promise<unknown> => {
      const r = await fetch(new URL(`/api/${method}`, url), {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(input),
      })
      return ((await r.json()) as { value: unknown }).value
    }
    const { runId } = (await call('startRun', { spec: longSpec })) as { runId: string }
    // both children report progress: each is inside a simulation of minutes
    const deadline = Date.now() + 60_000
    for (;;) {
      const status = (await call('runStatus', { runId })) as { events: { type: string; job?: unknown }[] }
      const busy = new Set(
        status.events.filter((e) => e.type === 'run:progress').map((e) => JSON.stringify(e.job)),
      )
      kids = simulationChildrenOf(serve.pid!)
      if (busy.size === 2 && kids.length === 2) break
      if (Date.now() > deadline) throw new Error(`no progress from two jobs: ${JSON.stringify(status)}`)
      await new Promise((r) => setTimeout(r, 100))
    }
    await killAndTime(serve, kids)
  }, 90_000)

  it('go within a second or two when the app is killed: the utility-process worker, no IPC channel', async () => {
    const harness = join(import.meta.dirname, '../app/utility-orphan-harness.ts')
    // a stand-in for Electron's main process: starts the worker (sharing our stdout) and waits
    const script = `require('node:child_process').spawn(process.execPath, ${JSON.stringify([
      ...execArgvFor(harness),
      harness,
    ])}, { stdio: 'inherit' }); setInterval(() => {}, 1000)`
    let kid = 0
    const app = start(['-e', script], () => (kid ? [kid] : []))
    const [, pid] = await awaitLine(app, /busy (\d+)/)
    kid = Number(pid)
    expect(procStat(kid)?.ppid).toBe(app.pid)
    await killAndTime(app, [kid])
  }, 90_000)
})
