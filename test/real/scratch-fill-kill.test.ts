// A lab killed while it fills a scratch device's backing file (seconds, for hundreds of MiB)
// leaves a large file behind; its owner file and journal entry come before the first byte, so
// the next start and `doctor` delete it and say so. Scratch directories nobody owns (from labs
// that wrote the owner file only after the fill) are doctor's to delete, once surely abandoned.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { execArgvFor } from '../../src/main/services/simulation-worker'
import { OWNERLESS_GRACE_MS } from '../../src/main/services/real/loop-device'
import { SCRATCH_PREFIX } from '../../src/main/services/real/state-dir'
import { cleanupDir, cliPath, describeReal, loopsUnder, root, tempDir } from './real-env'

const MiB = 2 ** 20
const SIZE_MIB = 1024

describeReal('a scratch device whose maker was killed while filling it (root)', () => {
  let dir = ''
  const state = () => join(dir, 'state')
  const scratch = () => join(dir, 'scratch')
  const env = () => ({ ...process.env, IOSCHED_LAB_STATE_DIR: state(), IOSCHED_LAB_SCRATCH_DIR: scratch() })
  const cli = (...args: string[]) => {
    const r = spawnSync(process.execPath, [cliPath, ...args], { cwd: root, encoding: 'utf8', env: env() })
    return { code: r.status, out: r.stdout, err: r.stderr }
  }
  const journals = (): string[] =>
    existsSync(join(state(), 'journal')) ? readdirSync(join(state(), 'journal')) : []

  /** Start making a scratch device and SIGKILL its maker mid-fill; the half-filled file's path. */
  const killMidFill = async (): Promise<{ tempDir: string; bytes: number }> => {
    const child = join(import.meta.dirname, 'scratch-fill-child.ts')
    const p = spawn(process.execPath, [...execArgvFor(child), child, state(), scratch(), String(SIZE_MIB)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const exited = new Promise((r) => p.once('exit', r))
    const deadline = Date.now() + 30_000
    let img = ''
    // poll without yielding: the fill takes about a second on a fast disk
    for (;;) {
      const made = existsSync(scratch())
        ? readdirSync(scratch()).filter((n) => n.startsWith(SCRATCH_PREFIX))
        : []
      img = made.length === 1 ? join(scratch(), made[0], 'scratch.img') : ''
      if (img && existsSync(img) && statSync(img).size > 0) break
      if (p.exitCode !== null || Date.now() > deadline) throw new Error('no scratch file being filled')
    }
    p.kill('SIGKILL')
    await exited
    const bytes = statSync(img).size
    expect(bytes, 'killed before the fill ended').toBeLessThan(SIZE_MIB * MiB)
    expect(loopsUnder(scratch())).toEqual([])
    return { tempDir: join(img, '..'), bytes }
  }

  beforeAll(() => {
    dir = tempDir('iosched-scratch-kill-')
    mkdirSync(scratch())
  })
  afterAll(() => cleanupDir(dir))

  it('`doctor` deletes the half-filled file and reports it', async () => {
    const { tempDir: made } = await killMidFill()
    expect(journals()).toHaveLength(1)
    const d = cli('doctor')
    expect(d.code, d.err).toBe(0)
    expect(d.out).toContain(`repaired: deleted ${made}`)
    expect(d.out).not.toContain('nothing to repair')
    expect(readdirSync(scratch())).toEqual([])
    expect(journals()).toEqual([])
  }, 60_000)

  it('the next real-device command deletes it first, and says so', async () => {
    const { tempDir: made } = await killMidFill()
    const d = cli('devices')
    expect(d.code, d.err).toBe(0)
    expect(d.err).toContain('repaired after an earlier crash')
    expect(d.err).toContain(`deleted ${made}`)
    expect(readdirSync(scratch())).toEqual([])
    expect(journals()).toEqual([])
  }, 60_000)

  it('`doctor` deletes an abandoned scratch directory with neither owner file nor journal', () => {
    const made = (name: string, ageMs: number): string => {
      const d = join(scratch(), `${SCRATCH_PREFIX}${name}`)
      mkdirSync(d)
      writeFileSync(join(d, 'scratch.img'), Buffer.alloc(3 * MiB, 0x5a))
      const t = (Date.now() - ageMs) / 1000
      utimesSync(d, t, t)
      return d
    }
    const old = made('old', OWNERLESS_GRACE_MS + 60_000)
    // another lab may have just made this one and not yet written its owner file: left alone
    const young = made('young', 0)
    const d = cli('doctor')
    expect(d.code, d.err).toBe(0)
    expect(d.out).toContain(
      `repaired: deleted stray scratch directory ${old} (3 MiB; no running lab process owns it)`,
    )
    expect(existsSync(old)).toBe(false)
    expect(existsSync(young)).toBe(true)
  }, 60_000)
})
