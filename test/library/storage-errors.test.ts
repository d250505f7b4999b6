// A disk that refuses a write: a library on a tiny tmpfs filled up (ENOSPC), and one remounted
// read-only (EROFS). `import --session` says what happened and where, keeps the old file byte for
// byte, leaves no temporary or lock file and exits 74 — not 70 with a stack trace; the services
// (app and browser host) answer an ApiError of kind "storage". Needs root (mount); skipped, saying
// why, without it — unless IOSCHED_REQUIRE_REAL=1, where that is a failure.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SessionStore } from '../../src/main/services/sessions'
import { FIO_MINI } from '../formats/fixtures'
import { importedRuns } from './helpers'

const root = join(import.meta.dirname, '../..')
const required = process.env.IOSCHED_REQUIRE_REAL === '1'

/** Why these tests cannot run here, or null: they mount a tmpfs, which takes root. */
function cannotMount(): string | null {
  if (process.getuid?.() !== 0) return 'mounting a small tmpfs needs root'
  const probe = mkdtempSync(join(tmpdir(), 'iosched-mount-probe-'))
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { encoding: 'utf8' })
  if (r.status === 0) spawnSync('umount', [probe])
  rmSync(probe, { recursive: true, force: true })
  return r.status === 0 ? null : `cannot mount a tmpfs: ${(r.stderr || r.error?.message || '').trim()}`
}

const why = cannotMount()
if (why && !required) console.warn(`skipping the full-disk and read-only tests: ${why}`)

const cli = (...args: string[]) => {
  const r = spawnSync(process.execPath, [join(root, 'bin/iosched-lab.mjs'), ...args], {
    cwd: root,
    encoding: 'utf8',
  })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

/** A tmpfs of `size` at a new folder; its library folder holds one session. */
async function smallDisk(size: string): Promise<{ mount: string; library: string; session: string }> {
  const mount = mkdtempSync(join(tmpdir(), 'iosched-small-disk-'))
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', mount], { encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`mount: ${r.stderr}`)
  mounts.push(mount)
  const library = join(mount, 'sessions')
  const info = await new SessionStore(library, 'test').addRuns(
    join(library, 'disk-a.json'),
    'disk A',
    importedRuns('fio', [10, 11]),
  )
  return { mount, library, session: info.path }
}

/** Fill the file system, then give back `free` bytes (less than the next save needs). */
function fill(mount: string, free: number): void {
  const filler = join(mount, 'filler')
  const block = Buffer.alloc(4096, 1)
  const chunks: Buffer[] = []
  for (;;) {
    try {
      writeFileSync(filler, Buffer.concat([...chunks, block]))
      chunks.push(block)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e
      break
    }
  }
  writeFileSync(filler, Buffer.concat(chunks).subarray(0, Math.max(0, chunks.length * 4096 - free)))
}

const mounts: string[] = []
let files = ''

describe.skipIf(why !== null && !required)('a library on a disk that refuses the write', () => {
  beforeAll(() => {
    if (why) throw new Error(`IOSCHED_REQUIRE_REAL=1 but ${why}`)
    files = mkdtempSync(join(tmpdir(), 'iosched-storage-files-'))
    writeFileSync(join(files, 'mini.json'), FIO_MINI)
  })
  afterAll(() => {
    for (const m of mounts) spawnSync('umount', [m])
    for (const m of [...mounts, files]) rmSync(m, { recursive: true, force: true })
  })

  for (const free of [0, 8192])
    it(`disk full (${free} bytes left): import --session exits 74, says so and where, keeps the old file`, async () => {
      const { mount, library, session } = await smallDisk('256k')
      const before = readFileSync(session)
      fill(mount, free)
      const r = cli('import', join(files, 'mini.json'), '--session', 'disk A', '--library', library)
      expect(r.err).toContain(`iosched-lab: ${session}: cannot save the session: the disk is full (ENOSPC)`)
      expect(r.err).toContain('the session file there is unchanged')
      expect(r.err).not.toMatch(/internal error|\n\s+at /)
      expect(r.code).toBe(74)
      expect(readFileSync(session).equals(before)).toBe(true)
      expect(readdirSync(library)).toEqual(['disk-a.json']) // no temporary file, no lock
      // the services (the app, the browser host) say the same, as a "storage" error
      const store = new SessionStore(library, 'test')
      await expect(store.addRuns(session, 'disk A', importedRuns('more', [1]))).rejects.toMatchObject({
        kind: 'storage',
        message: expect.stringContaining('the disk is full'),
      })
      expect(readdirSync(library)).toEqual(['disk-a.json'])
      expect((await store.open(session)).runs).toHaveLength(2)
    })

  it('read-only library: import --session exits 74, says so and where, keeps the old file', async () => {
    const { mount, library, session } = await smallDisk('256k')
    const before = readFileSync(session)
    const ro = spawnSync('mount', ['-o', 'remount,ro', mount], { encoding: 'utf8' })
    expect(ro.stderr).toBe('')
    const r = cli('import', join(files, 'mini.json'), '--session', 'disk A', '--library', library)
    expect(r.err).toContain(
      `iosched-lab: ${session}: cannot save the session: the file system is read-only (EROFS); the session file there is unchanged`,
    )
    expect(r.err).not.toMatch(/internal error|\n\s+at /)
    expect(r.code).toBe(74)
    expect(readFileSync(session).equals(before)).toBe(true)
    // a new session there: nothing written
    const err = await new SessionStore(library, 'test')
      .save({ name: 'new one', spec: null })
      .catch((e: unknown) => e)
    expect(err).toMatchObject({ kind: 'storage' })
    expect((err as Error).message).toBe(
      `${join(library, 'new-one.json')}: cannot save the session: the file system is read-only (EROFS); nothing was written`,
    )
    expect(readdirSync(library)).toEqual(['disk-a.json'])
  })
})
