// One name, one session: a save that crosses the gzip threshold writes NAME.json.gz (or NAME.json)
// and only then removes the other name's file. A writer killed at any point of it leaves exactly
// one listed session, with the old content or the new; the library lists the current file of the
// two, opening either name gives that session, and the next save removes the stale file.
import { spawn } from 'node:child_process'
import { copyFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SessionStore } from '../../src/main/services/sessions'
import { experiment, tempLibrary } from './helpers'

const big = () => experiment('big', { noop: [1, 2, 3], deadline: [4, 5, 6] })
const THRESHOLD = { gzipThresholdBytes: 20_000 }
const child = join(import.meta.dirname, 'switch-save-child.ts')

/** Start the child's save; resolves once it stopped at `step`, with a function that kills it. */
async function saveStoppedAt(folder: string, direction: 'grow' | 'shrink', step: string) {
  const p = spawn(process.execPath, ['--import', 'tsx', child, folder, direction, step], {
    cwd: join(import.meta.dirname, '../..'),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  p.stderr.on('data', (d) => (err += d))
  const exited = new Promise<NodeJS.Signals | null>((resolve) => p.on('exit', (_c, s) => resolve(s)))
  await new Promise<void>((resolve, reject) => {
    p.stdout.on('data', (d) => {
      out += d
      if (out.includes(step)) resolve()
    })
    void exited.then(() => reject(new Error(`the child exited first: ${out} ${err}`)))
  })
  p.kill('SIGKILL')
  expect(await exited).toBe('SIGKILL')
}

const sessionFiles = (folder: string) => readdirSync(folder).filter((f) => !f.startsWith('.'))

describe('a save that switches between NAME.json and NAME.json.gz', () => {
  it('lists one session when both names are there, the later revision, and removes the other on the next save', async () => {
    const folder = tempLibrary()
    const store = new SessionStore(folder, '1', THRESHOLD)
    await store.save({ name: 'grows', spec: null, notes: 'small' })
    // what a kill between the two steps left: the new .gz beside the old .json
    const other = tempLibrary()
    const elsewhere = new SessionStore(other, '1', THRESHOLD)
    await elsewhere.save({ name: 'grows', spec: null, notes: 'first' })
    await elsewhere.save({ name: 'grows', spec: null, result: big(), notes: 'big', replace: true }) // revision 2
    copyFileSync(join(other, 'grows.json.gz'), join(folder, 'grows.json.gz'))
    expect(sessionFiles(folder).sort()).toEqual(['grows.json', 'grows.json.gz'])
    const { entries, problems } = await store.scan()
    expect(entries.map((e) => [e.file, e.notes, e.revision])).toEqual([['grows.json.gz', 'big', 2]])
    expect(problems).toEqual([])
    expect((await store.list()).map((s) => s.path)).toEqual([join(folder, 'grows.json.gz')])
    // either name opens the current file
    expect((await store.open('grows.json')).notes).toBe('big')
    // the next save of the session: one file again, the revision above both
    const info = await store.setMeta({ path: join(folder, 'grows.json'), tags: ['t'] })
    expect(info).toMatchObject({ path: join(folder, 'grows.json.gz'), revision: 3 })
    expect(sessionFiles(folder)).toEqual(['grows.json.gz'])
  })

  it('lists the readable file of the two when the other cannot be read', async () => {
    const folder = tempLibrary()
    const store = new SessionStore(folder, '1', THRESHOLD)
    await store.save({ name: 'grows', spec: null, notes: 'readable' })
    writeFileSync(join(folder, 'grows.json.gz'), 'not gzip, not JSON')
    const { entries, problems } = await store.scan()
    expect(entries.map((e) => [e.file, e.notes])).toEqual([['grows.json', 'readable']])
    expect(problems).toEqual([])
  })

  for (const direction of ['grow', 'shrink'] as const)
    for (const step of ['writing', 'published'])
      it(`leaves exactly one listed session when the writer is killed (${direction}, ${step})`, async () => {
        const folder = tempLibrary()
        const store = new SessionStore(folder, 'parent', THRESHOLD)
        const old = await store.save({
          name: 'grows',
          spec: null,
          result: direction === 'shrink' ? big() : null,
          notes: 'the old version',
        })
        expect(old.compressed).toBe(direction === 'shrink')
        await saveStoppedAt(folder, direction, step)
        const expected = step === 'published' ? 'the new version' : 'the old version'
        if (step === 'published') expect(sessionFiles(folder).sort()).toEqual(['grows.json', 'grows.json.gz'])
        else expect(sessionFiles(folder)).toEqual([old.path.split('/').pop()])
        const { entries, problems } = await new SessionStore(folder, 'x', THRESHOLD).scan()
        expect(entries.map((e) => [e.name, e.notes])).toEqual([['grows', expected]])
        expect(problems).toEqual([])
        expect((await store.open(old.path)).notes).toBe(expected)
        // the next save cleans up: one file, no temporary file or lock of the killed writer
        await store.setMeta({ path: old.path, notes: 'after' })
        expect(readdirSync(folder)).toHaveLength(1)
        expect((await store.scan()).entries.map((e) => e.notes)).toEqual(['after'])
      }, 30_000)
})
