// Killing the lab in the middle of a save loses nothing: a child process saving a large session
// over an existing one is killed (SIGKILL) during its write loop; the old file is intact, and the
// half-written temporary file is never listed; the lock the killed writer held does not stop the
// next save.
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SessionStore } from '../../src/main/services/sessions'
import { experiment, tempLibrary } from './helpers'

const child = join(import.meta.dirname, 'slow-save-child.ts')

/** Start the child; resolves once it says its write has begun, with a function that kills it. */
function startSlowSave(folder: string, name: string, compress: boolean) {
  const p = spawn(process.execPath, ['--import', 'tsx', child, folder, name, compress ? 'gzip' : 'plain'], {
    cwd: join(import.meta.dirname, '../..'),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  p.stderr.on('data', (d) => (err += d))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    p.on('exit', (code, signal) => resolve({ code, signal })),
  )
  const writing = new Promise<void>((resolve, reject) => {
    p.stdout.on('data', (d) => {
      out += d
      if (out.includes('writing')) resolve()
    })
    void exited.then(() => reject(new Error(`the child exited before writing: ${out} ${err}`)))
  })
  return { writing, exited, kill: () => p.kill('SIGKILL'), output: () => out }
}

describe('a save interrupted by a kill', () => {
  for (const compress of [false, true])
    it(`leaves the old file intact and lists no half-written file (${compress ? 'gzip' : 'plain JSON'})`, async () => {
      const folder = tempLibrary()
      const store = new SessionStore(folder, 'parent')
      const old = await store.save({
        name: 'precious',
        spec: null,
        result: experiment('old', { noop: [1, 2] }),
        notes: 'the old version',
      })
      const before = readFileSync(old.path)
      const save = startSlowSave(folder, 'precious', compress)
      await save.writing
      const temps = readdirSync(folder).filter((f) => f.endsWith('.tmp'))
      expect(temps).toHaveLength(1) // the write is under way
      expect(statSync(join(folder, temps[0])).size).toBeGreaterThan(0)
      save.kill()
      expect(await save.exited).toEqual({ code: null, signal: 'SIGKILL' })
      expect(save.output()).not.toContain('saved')
      // the old file: byte for byte, and still a readable session
      expect(readFileSync(old.path).equals(before)).toBe(true)
      expect((await store.open(old.path)).notes).toBe('the old version')
      // the half-written temporary file is there, and the killed writer's lock; the library ignores both
      expect(readdirSync(folder).sort()).toEqual(['.precious.lock', 'precious.json', temps[0]].sort())
      const { entries, problems } = await new SessionStore(folder).scan()
      expect(entries.map((e) => [e.file, e.notes])).toEqual([['precious.json', 'the old version']])
      expect(problems).toEqual([])
      // the next save of that session takes over the dead writer's lock and clears what it left
      await store.save({ name: 'precious', spec: null, notes: 'saved again', replace: true })
      expect(readdirSync(folder)).toEqual(['precious.json'])
    }, 30_000)
})
