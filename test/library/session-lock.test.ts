// The lock of a session's writers: taken over from a dead owner or when it has gone stale, waited
// for while its owner lives (then a "busy" error naming the owner and the lock file), refreshed
// by its holder so a long write is not taken for a dead one, and released even when the work fails.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { lockPathOf, withSessionLock } from '../../src/main/services/library/session-lock'
import { tempLibrary } from './helpers'

function folderWithLock(owner: object | string): { folder: string; session: string; lock: string } {
  const folder = tempLibrary()
  mkdirSync(folder, { recursive: true })
  const session = join(folder, 'disk-a.json')
  const lock = lockPathOf(session)
  writeFileSync(lock, typeof owner === 'string' ? owner : JSON.stringify(owner))
  return { folder, session, lock }
}

const owner = (pid: number, host = hostname()) => ({ pid, host, since: new Date().toISOString(), token: 't' })

describe('the session lock', () => {
  it('is one file beside the session, the same for NAME.json and NAME.json.gz', () => {
    expect(lockPathOf('/lib/disk-a.json')).toBe('/lib/.disk-a.lock')
    expect(lockPathOf('/lib/disk-a.json.gz')).toBe('/lib/.disk-a.lock')
  })

  it('is taken over from an owner that is no longer running', async () => {
    const dead = spawnSync(process.execPath, ['-e', '']).pid!
    const { folder, session, lock } = folderWithLock(owner(dead))
    const done = await withSessionLock(session, async () => existsSync(lock), { waitMs: 2_000 })
    expect(done).toBe(true) // held while the work ran
    expect(readdirSync(folder)).toEqual([]) // released, and the stale one gone
  })

  it('is taken over when it was not refreshed for staleMs, whoever holds it', async () => {
    const { folder, session, lock } = folderWithLock(owner(process.pid, 'another-host'))
    const old = new Date(Date.now() - 60_000)
    utimesSync(lock, old, old)
    await withSessionLock(session, async () => undefined, { waitMs: 2_000, staleMs: 30_000 })
    expect(readdirSync(folder)).toEqual([])
  })

  it('is taken over when its maker died before writing it (empty, not new)', async () => {
    const { session, lock } = folderWithLock('')
    const old = new Date(Date.now() - 10_000)
    utimesSync(lock, old, old)
    await expect(withSessionLock(session, async () => 'ok', { waitMs: 2_000 })).resolves.toBe('ok')
  })

  it('is waited for while its owner runs, then refused as busy, naming the owner and the lock', async () => {
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'])
    try {
      const { session, lock } = folderWithLock(owner(sleeper.pid!))
      const err = await withSessionLock(session, async () => 'never', { waitMs: 300 }).catch((e) => e)
      expect(err).toMatchObject({ kind: 'busy' })
      expect(err.message).toContain(`process ${sleeper.pid} on ${hostname()}`)
      expect(err.message).toContain(lock)
      expect(existsSync(lock)).toBe(true) // a live owner's lock is left alone
    } finally {
      sleeper.kill('SIGKILL')
    }
  })

  it('is refreshed by its holder, so a long write is not taken for a dead one', async () => {
    const folder = tempLibrary()
    const session = join(folder, 'slow.json')
    const order: string[] = []
    const slow = withSessionLock(
      session,
      async () => {
        order.push('slow starts')
        await new Promise((r) => setTimeout(r, 2_500))
        order.push('slow ends')
      },
      { staleMs: 900 },
    )
    await new Promise((r) => setTimeout(r, 100))
    // a writer on another host could not tell our pid is alive: only the refreshes keep it out
    const waiter = withSessionLock(session, async () => void order.push('waiter'), { staleMs: 900 })
    await Promise.all([slow, waiter])
    expect(order).toEqual(['slow starts', 'slow ends', 'waiter'])
  })

  it('is released when the work throws', async () => {
    const folder = tempLibrary()
    const session = join(folder, 'x.json')
    await expect(
      withSessionLock(session, async () => {
        throw new Error('boom')
      }),
    ).rejects.toThrow('boom')
    expect(readdirSync(folder)).toEqual([])
  })
})
