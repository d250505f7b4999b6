import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { repairAtStart } from '../../src/main/services/real/startup-repair'
import { newService } from '../api/fixtures'
import { crashedJournal } from './crashed-journal'
import {
  OTHER_SCHEDULER,
  activeScheduler,
  cleanupDir,
  cliPath,
  createLoop,
  describeReal,
  root,
  tempDir,
  waitFor,
} from './real-env'

describeReal('journals replayed when the app or the browser host starts (root)', () => {
  let dir = ''
  let disk = { device: '', name: '', file: '' }
  const switchAway = () => writeFileSync(`/sys/block/${disk.name}/queue/scheduler`, OTHER_SCHEDULER)

  beforeAll(() => {
    dir = tempDir('iosched-startup-')
    disk = createLoop(dir, 256)
  })
  afterAll(() => cleanupDir(dir))

  it('restores the device and reports it through startupRepairs', async () => {
    const state = join(dir, 'state-a')
    switchAway()
    const journal = crashedJournal(state, disk)
    const lab = newService({ real: { startupRepair: repairAtStart(state) } })
    try {
      const r = await lab.startupRepairs()
      expect(r.root).toBe(true)
      expect(r.actions.join('\n')).toContain(`${disk.name}: scheduler ${OTHER_SCHEDULER} → mq-deadline`)
      expect(r.problems).toEqual([])
      expect(activeScheduler(disk.name)).toBe('mq-deadline')
      expect(readFileSync(`/sys/block/${disk.name}/queue/iosched/read_expire`, 'utf8').trim()).toBe('300')
      expect(existsSync(journal)).toBe(false)
    } finally {
      lab.dispose()
    }
  })

  it('without root, lists what needs repairing instead of touching it', async () => {
    const state = join(dir, 'state-b')
    switchAway()
    const journal = crashedJournal(state, disk)
    const uid = vi.spyOn(process, 'getuid').mockReturnValue(1000)
    try {
      const r = await repairAtStart(state)
      expect(r).toMatchObject({ root: false, actions: [], problems: [] })
      expect(r.pending).toEqual([
        expect.stringContaining(`${disk.name} left on ${OTHER_SCHEDULER} (was mq-deadline)`),
      ])
      expect(r.pending[0]).toContain('needs root')
      expect(activeScheduler(disk.name)).toBe(OTHER_SCHEDULER)
    } finally {
      uid.mockRestore()
    }
    expect(existsSync(journal)).toBe(true)
    await repairAtStart(state)
    expect(activeScheduler(disk.name)).toBe('mq-deadline')
  })

  it('`iosched-lab serve` repairs at start and says so', async () => {
    const state = join(dir, 'state-c')
    switchAway()
    crashedJournal(state, disk)
    const rendererDir = join(dir, 'renderer')
    mkdirSync(rendererDir, { recursive: true })
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html>')
    const child = spawn(process.execPath, [cliPath, 'serve', '--renderer', rendererDir, '--library', dir], {
      cwd: root,
      env: { ...process.env, IOSCHED_LAB_STATE_DIR: state },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let err = ''
    let out = ''
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d))
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d))
    try {
      await waitFor(() => out.includes('Press Ctrl+C'), 30_000, 'the host to start')
      expect(err).toContain(
        `serve: repaired after an earlier crash: ${disk.name}: scheduler ${OTHER_SCHEDULER} → mq-deadline`,
      )
      expect(activeScheduler(disk.name)).toBe('mq-deadline')
      expect(readdirSync(join(state, 'journal'))).toEqual([])
    } finally {
      child.kill('SIGTERM')
      await new Promise((r) => child.once('exit', r))
    }
  }, 60_000)
})
