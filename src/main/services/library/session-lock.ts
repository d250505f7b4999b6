// One writer of a session at a time, across processes (the CLI, the app, the browser host) and
// within one: a lock file beside the session, `.NAME.lock`, made with O_EXCL and holding its
// owner (pid, host, since, token). A writer reads, changes and writes the session only while it
// holds the lock, so two `import --session` at once both land. A lock whose owner is dead (same
// host, no such process) or that was not refreshed for `staleMs` (the owner refreshes it while it
// works) is stale: it is moved aside and removed, and the waiter takes the lock.
import { randomBytes } from 'node:crypto'
import { link, mkdir, open, readFile, rename, rm, stat, utimes } from 'node:fs/promises'
import { hostname } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { ApiError } from '../../../shared/api/errors'
import { alive } from './process-alive'

export interface LockOptions {
  /** How long to wait for another writer before giving up (default 30 s). */
  waitMs?: number
  /** A lock not refreshed for this long is stale, whoever holds it (default 30 s). */
  staleMs?: number
}

/** What a lock file holds. */
export interface LockOwner {
  pid: number
  host: string
  /** ISO time the lock was taken. */
  since: string
  token: string
}

/** A lock file written by nobody yet (its maker killed between creating and writing it) is stale after this. */
const UNWRITTEN_STALE_MS = 5_000
const DEFAULTS = { waitMs: 30_000, staleMs: 30_000 }

/** The lock of a session file: `.NAME.lock` beside it, the same for `NAME.json` and `NAME.json.gz`. */
export function lockPathOf(sessionPath: string): string {
  const stem = basename(sessionPath).replace(/\.json(\.gz)?$/, '')
  return join(dirname(sessionPath), `.${stem}.lock`)
}

/** Whether a file name is a session lock (never listed, never a session). */
export const isLockName = (name: string): boolean => name.startsWith('.') && name.endsWith('.lock')

/** Run `fn` holding the lock of `sessionPath`; waits for another writer, recovers a stale lock. */
export async function withSessionLock<T>(
  sessionPath: string,
  fn: () => Promise<T>,
  opts: LockOptions = {},
): Promise<T> {
  const lock = await acquire(lockPathOf(sessionPath), sessionPath, { ...DEFAULTS, ...opts })
  try {
    return await fn()
  } finally {
    await lock.release()
  }
}

interface Held {
  release(): Promise<void>
}

interface Seen {
  owner: LockOwner | null
  mtimeMs: number
  ino: number
}

async function acquire(path: string, session: string, opts: Required<LockOptions>): Promise<Held> {
  await mkdir(dirname(path), { recursive: true })
  const me: LockOwner = {
    pid: process.pid,
    host: hostname(),
    since: new Date().toISOString(),
    token: randomBytes(8).toString('hex'),
  }
  const deadline = Date.now() + opts.waitMs
  let delay = 5
  for (;;) {
    let fh
    try {
      fh = await open(path, 'wx', 0o644)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
      const seen = await inspect(path)
      if (!seen) continue // released meanwhile
      if (isStale(seen, opts.staleMs)) {
        await breakLock(path, seen)
        continue
      }
      if (Date.now() >= deadline) throw busy(session, path, seen.owner, opts.waitMs)
      await sleep(delay * (0.5 + Math.random()))
      delay = Math.min(delay * 2, 100)
      continue
    }
    let ino: number
    try {
      await fh.writeFile(JSON.stringify(me))
      ino = (await fh.stat()).ino
    } catch (e) {
      await fh.close().catch(() => undefined)
      await rm(path, { force: true })
      throw e
    }
    await fh.close()
    // refreshed while held, so a long write is not taken for a dead one
    const beat = setInterval(() => {
      const now = new Date()
      void utimes(path, now, now).catch(() => undefined)
    }, opts.staleMs / 3)
    beat.unref()
    return {
      async release() {
        clearInterval(beat)
        const still = await inspect(path)
        if (still && still.ino === ino) await rm(path, { force: true })
      },
    }
  }
}

/** The lock file's owner and age, or null when it is gone. */
async function inspect(path: string): Promise<Seen | null> {
  try {
    const st = await stat(path)
    return { owner: ownerOf(await readFile(path, 'utf8')), mtimeMs: st.mtimeMs, ino: st.ino }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw e
  }
}

function ownerOf(text: string): LockOwner | null {
  try {
    const v = JSON.parse(text) as Partial<LockOwner>
    return typeof v.pid === 'number' && typeof v.host === 'string' && typeof v.token === 'string'
      ? { pid: v.pid, host: v.host, since: String(v.since ?? ''), token: v.token }
      : null
  } catch {
    return null
  }
}

/** Dead owner on this host, no refresh for `staleMs`, or never written and not new. */
export function isStale(seen: Seen, staleMs: number, now = Date.now()): boolean {
  const age = now - seen.mtimeMs
  if (age > staleMs) return true
  if (!seen.owner) return age > UNWRITTEN_STALE_MS
  return seen.owner.host === hostname() && seen.owner.pid !== process.pid && !alive(seen.owner.pid)
}

/**
 * Remove a stale lock without removing a fresh one another waiter made meanwhile: the lock is
 * renamed aside (only one waiter's rename can move it) and removed if it is the file judged stale,
 * else put back.
 */
async function breakLock(path: string, seen: Seen): Promise<void> {
  const aside = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.stale`
  try {
    await rename(path, aside)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return // another waiter broke it
    throw e
  }
  try {
    if ((await stat(aside)).ino !== seen.ino) await link(aside, path).catch(() => undefined)
  } finally {
    await rm(aside, { force: true })
  }
}

function busy(session: string, lock: string, owner: LockOwner | null, waitMs: number): ApiError {
  const who = owner ? `process ${owner.pid} on ${owner.host} (since ${owner.since})` : 'another process'
  return new ApiError(
    'busy',
    `${session}: another writer holds this session — ${who} — and did not finish within ${Math.round(waitMs / 1000)} s; ` +
      `try again (or, if no such process is running, remove ${lock})`,
  )
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))
