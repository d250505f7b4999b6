import { afterAll, beforeAll, expect, it } from 'vitest'
import { spawn, spawnSync } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { JournalData } from '../../src/main/services/real/journal'
import { processGroupMembers } from '../../src/main/services/real/proc-identity'
import {
  OTHER_SCHEDULER,
  activeScheduler,
  cleanupDir,
  cliPath,
  createLoop,
  describeReal,
  loopsUnder,
  readWhileWriting,
  root,
  tempDir,
  waitFor,
} from './real-env'

/**
 * The lab killed in the middle of a real run. SIGKILL leaves no chance to clean up: the watchdog
 * stops fio at once, and the journal restores the scheduler at the next start (or `doctor`).
 * SIGTERM/SIGINT restore at once.
 */
describeReal('a real run killed in the middle (root)', () => {
  let dir = ''
  let disk = { device: '', name: '', file: '' }
  const state = () => join(dir, 'state')
  const scratch = () => join(dir, 'scratch')
  const env = () => ({ ...process.env, IOSCHED_LAB_STATE_DIR: state(), IOSCHED_LAB_SCRATCH_DIR: scratch() })
  const journals = (): JournalData[] =>
    existsSync(join(state(), 'journal'))
      ? readdirSync(join(state(), 'journal'))
          .filter((f) => f.endsWith('.json'))
          .map((f) => JSON.parse(readFileSync(join(state(), 'journal', f), 'utf8')) as JournalData)
      : []
  const cli = (...args: string[]) => {
    const r = spawnSync(process.execPath, [cliPath, ...args], { cwd: root, encoding: 'utf8', env: env() })
    return { code: r.status, out: r.stdout, err: r.stderr }
  }
  let stderr = ''
  const startRun = (...args: string[]): ChildProcess => {
    stderr = ''
    const c = spawn(process.execPath, [cliPath, 'run', join(dir, 'spec.json'), '--real', ...args], {
      cwd: root,
      env: env(),
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    c.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    return c
  }
  /** Wait until fio runs under the lab: its process group is in the journal and has members. */
  const fioRunning = async (child: ChildProcess): Promise<number> => {
    let pgid = 0
    await waitFor(
      () => {
        if (child.exitCode !== null) throw new Error(`the run ended early (${child.exitCode}): ${stderr}`)
        // the run's tracer (blktrace, or cat on a tracefs instance) has a group of its own too
        const groups = journals()[0]?.groups ?? []
        pgid = groups.find((g) => processGroupMembers(g.pgid).some((m) => m.comm === 'fio'))?.pgid ?? 0
        return pgid > 0
      },
      30_000,
      'fio to start',
    )
    return pgid
  }

  beforeAll(() => {
    dir = tempDir('iosched-crash-')
    mkdirSync(scratch())
    disk = createLoop(dir, 256)
    writeFileSync(join(dir, 'spec.json'), JSON.stringify(readWhileWriting(30, [OTHER_SCHEDULER])))
  })
  afterAll(() => cleanupDir(dir))

  it('SIGKILL: the watchdog stops fio at once; doctor restores scheduler and tunables from the journal', async () => {
    writeFileSync(`/sys/block/${disk.name}/queue/scheduler`, 'mq-deadline')
    writeFileSync(`/sys/block/${disk.name}/queue/iosched/read_expire`, '200')
    const child = startRun('--device', disk.name, '--confirm', disk.name)
    const pgid = await fioRunning(child)
    expect(activeScheduler(disk.name)).toBe(OTHER_SCHEDULER)
    child.kill('SIGKILL')
    await waitFor(() => processGroupMembers(pgid).length === 0, 3000, 'the watchdog to kill fio')
    // nobody restored it yet: the journal remembers
    expect(activeScheduler(disk.name)).toBe(OTHER_SCHEDULER)
    expect(journals()[0].devices[0]).toMatchObject({ name: disk.name, switchedTo: OTHER_SCHEDULER })
    const d = cli('doctor')
    expect(d.code).toBe(0)
    expect(d.out).toContain(`${disk.name}: scheduler ${OTHER_SCHEDULER} → mq-deadline`)
    expect(d.out).toContain(`${disk.name}: mq-deadline read_expire 500 → 200`)
    expect(activeScheduler(disk.name)).toBe('mq-deadline')
    expect(readFileSync(`/sys/block/${disk.name}/queue/iosched/read_expire`, 'utf8').trim()).toBe('200')
    expect(journals()).toEqual([])
  }, 60_000)

  it('SIGKILL with a scratch device: the next start detaches it and deletes its file', async () => {
    const child = startRun()
    await fioRunning(child)
    const scratchLoop = loopsUnder(scratch())
    expect(scratchLoop).toHaveLength(1)
    child.kill('SIGKILL')
    await new Promise((r) => child.once('exit', r))
    // the next real-device command repairs first
    const d = cli('devices')
    expect(d.code, d.err).toBe(0)
    expect(d.err).toContain(`repaired after an earlier crash`)
    expect(d.err).toContain(`detached ${scratchLoop[0]}`)
    expect(loopsUnder(scratch())).toEqual([])
    expect(readdirSync(scratch())).toEqual([])
    expect(journals()).toEqual([])
  }, 60_000)

  it('SIGTERM: stops fio, restores the scheduler and detaches the scratch device before exiting 130', async () => {
    // neither the tests' mq-deadline nor the one the run switches to
    writeFileSync(`/sys/block/${disk.name}/queue/scheduler`, 'none')
    const child = startRun('--device', disk.name, '--confirm', disk.name)
    const pgid = await fioRunning(child)
    expect(activeScheduler(disk.name)).toBe(OTHER_SCHEDULER)
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)))
    child.kill('SIGTERM')
    expect(await exited).toBe(130)
    expect(processGroupMembers(pgid)).toEqual([])
    expect(activeScheduler(disk.name)).toBe('none')
    expect(journals()).toEqual([])
    const scratchRun = startRun()
    await fioRunning(scratchRun)
    const gone = new Promise<number | null>((r) => scratchRun.once('exit', (code) => r(code)))
    scratchRun.kill('SIGINT')
    expect(await gone).toBe(130)
    expect(loopsUnder(scratch())).toEqual([])
    expect(readdirSync(scratch())).toEqual([])
  }, 90_000)
})
