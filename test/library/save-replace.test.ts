// A save replaces a file only when told to: a new session whose name's file is there already (in
// the library under either extension, or at a path), a save as over the session it came from,
// and a save of a session another writer changed since it was opened are refused with a
// "conflict" that says which file and why; the file is left as it was. `replace: true` replaces;
// `replace: { revision }` replaces only that revision (the session as opened or last saved).
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SessionStore } from '../../src/main/services/sessions'
import { experiment, importedRuns, tempLibrary } from './helpers'

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => 'saved',
    (e: Error & { kind?: string }) => e,
  )

describe('saving over a file that is there', () => {
  it('is refused without replace, naming the file and the session there, and leaves it as it was', async () => {
    const folder = tempLibrary()
    const store = new SessionStore(folder, '1')
    const first = await store.save({
      name: 'Disk A',
      spec: null,
      notes: 'precious',
      runs: importedRuns('x', [1]),
    })
    const before = readFileSync(first.path)
    // the same name again (a save as that kept the name): the same file
    const err = await refusal(store.save({ name: 'disk a', spec: null, notes: 'other' }))
    expect(err).toMatchObject({ kind: 'conflict' })
    expect((err as Error).message).toMatch(
      new RegExp(
        `^${first.path}: a session file is there already \\(“Disk A”, saved .*\\): save under another name, or replace it$`,
      ),
    )
    expect(readFileSync(first.path).equals(before)).toBe(true)
    // named by its path, or the other extension of its name in the library
    for (const path of [first.path, join(folder, 'disk-a.json.gz'), 'disk-a.json'])
      expect(await refusal(store.save({ name: 'x', spec: null, path }))).toMatchObject({ kind: 'conflict' })
    expect(readdirSync(folder)).toEqual(['disk-a.json'])
    // a new name is a new file, the old one untouched
    const copy = await store.save({ name: 'Disk A, again', spec: null })
    expect(copy.path).toBe(join(folder, 'disk-a-again.json'))
    expect((await store.open(first.path)).notes).toBe('precious')
    // told to: replaced
    const replaced = await store.save({ name: 'Disk A', spec: null, notes: 'new', replace: true })
    expect(replaced).toMatchObject({ path: first.path, revision: 2 })
    expect((await store.open(first.path)).notes).toBe('new')
  })

  it('replaces the revision it was given, and refuses once another writer changed the session', async () => {
    const folder = tempLibrary()
    const store = new SessionStore(folder, '1', { gzipThresholdBytes: 3_000 })
    const opened = await store.save({ name: 'shared', spec: null, notes: 'v1' })
    expect(opened.revision).toBe(1)
    // the app saves the session it opened: its revision is still the file's
    const saved = await store.save({
      name: 'shared',
      spec: null,
      notes: 'v2',
      path: opened.path,
      replace: { revision: 1 },
    })
    expect(saved.revision).toBe(2)
    // meanwhile another program adds runs (and the session grows into NAME.json.gz)
    const other = new SessionStore(folder, 'cli', { gzipThresholdBytes: 3_000 })
    const grown = await other.addRuns(opened.path, 'shared', experiment('big', { noop: [1, 2, 3] }).runs)
    expect(grown).toMatchObject({ revision: 3, compressed: true })
    // the app's next save of revision 2 would drop those runs: refused
    const err = await refusal(
      store.save({ name: 'shared', spec: null, notes: 'v3', path: saved.path, replace: { revision: 2 } }),
    )
    expect(err).toMatchObject({ kind: 'conflict' })
    expect((err as Error).message).toContain(
      `${grown.path}: the session was changed since it was opened here (now “shared”, saved`,
    )
    expect((err as Error).message).toContain('revision 3, not 2')
    expect((await store.open(grown.path)).runs).toHaveLength(3)
    // with the file's revision: saved
    await store.save({ name: 'shared', spec: null, path: saved.path, replace: { revision: 3 } })
  })
})
