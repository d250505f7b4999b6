// Writers of one session at once lose nothing: processes adding runs to the same session take
// its lock in turn (library/session-lock.ts), so every run added is in the file at the end — for
// child processes hammering the store, for the CLI's `import --session` started twice at once,
// and for writers inside one process (the app and the browser host serve calls concurrently).
import { spawn } from 'node:child_process'
import { readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SessionStore } from '../../src/main/services/sessions'
import { FIO_MINI } from '../formats/fixtures'
import { importedRuns, tempLibrary } from './helpers'

const root = join(import.meta.dirname, '../..')

/** Run a process to its end; resolves with its exit status and output. */
function run(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    p.stdout.on('data', (d) => (out += d))
    p.stderr.on('data', (d) => (err += d))
    p.on('error', reject)
    p.on('exit', (code) => resolve({ code, out, err }))
  })
}

describe('concurrent writers of one session', () => {
  it('keep every run when child processes add runs to the same session at once', async () => {
    const folder = tempLibrary()
    const store = new SessionStore(folder)
    const file = join(folder, 'shared.json')
    await store.addRuns(file, 'shared', importedRuns('seed', [1]))
    const children = ['a', 'b', 'c'].map((label) =>
      run(['--import', 'tsx', join(import.meta.dirname, 'add-runs-child.ts'), folder, file, label, '15']),
    )
    for (const r of await Promise.all(children)) expect(r).toMatchObject({ code: 0, out: 'done\n' })
    const doc = await store.open(file)
    expect(doc.runs).toHaveLength(1 + 3 * 15)
    for (const label of ['a', 'b', 'c'])
      expect(doc.runs.filter((r) => r.label === label).map((r) => r.repetition)).toEqual(
        Array.from({ length: 15 }, (_, i) => i),
      )
    expect(readdirSync(folder)).toEqual(['shared.json']) // no lock or temporary file left
  }, 120_000)

  it('keep every run when `import --session` runs twice at once', async () => {
    const folder = tempLibrary()
    const fio = join(folder, '..', 'mini.json')
    writeFileSync(fio, FIO_MINI)
    const cli = ['bin/iosched-lab.mjs', 'import', fio, '--session', 'twice', '--library', folder]
    for (let trial = 0; trial < 4; trial++) {
      const [a, b] = await Promise.all([run(cli), run(cli)])
      expect([a.code, b.code]).toEqual([0, 0])
      expect(a.err + b.err).toMatch(/added 1 run[^]*\nadded 1 run/)
    }
    const { entries } = await new SessionStore(folder).scan()
    expect(entries.map((e) => [e.name, e.index.runs])).toEqual([['twice', 8]])
  }, 120_000)

  it('keep every run when one process writes a session from several calls at once', async () => {
    const folder = tempLibrary()
    const store = new SessionStore(folder)
    const file = join(folder, 'busy.json')
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => store.addRuns(file, 'busy', importedRuns(`l${i % 3}`, [i]))),
    )
    expect((await store.open(file)).runs).toHaveLength(12)
  })
})
