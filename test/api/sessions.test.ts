import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ApiError } from '../../src/shared/api/errors'
import { defaultLibraryFolder, SessionStore, slugOf } from '../../src/main/services/sessions'
import { newService, quickSpec, recorder, tempDir } from './fixtures'

describe('sessions', () => {
  it('saves a spec and its results in the library, lists and reopens them', async () => {
    const lab = newService()
    const rec = recorder(lab)
    const run = await lab.startRun({ spec: quickSpec })
    if (!('runId' in run)) throw new Error('not started')
    const { result } = await rec.done(run.runId)
    lab.dispose()
    const folder = (await lab.library()).folder
    const info = await lab.saveSession({ name: 'Quick look: SSD', spec: quickSpec, result })
    expect(info).toMatchObject({
      path: join(folder, 'quick-look-ssd.json'),
      name: 'Quick look: SSD',
      schedulers: ['noop', 'deadline-fb4'],
      hasResult: true,
    })
    await lab.saveSession({ name: 'spec only', spec: quickSpec })
    const list = await lab.listSessions()
    expect(list.map((s) => s.name)).toEqual(['spec only', 'Quick look: SSD'])
    const doc = await lab.openSession({ path: info.path })
    expect(doc.schema).toBe('iosched-lab/session@2')
    expect(doc.spec).toEqual(quickSpec)
    expect(doc.result?.summary.map((s) => s.label)).toEqual(['noop', 'deadline-fb4'])
    expect(doc.result?.runs.map((r) => r.label)).toEqual(['noop', 'deadline-fb4'])
    expect(doc.sweep).toBeNull()
    // relative paths are inside the library; no temporary file is left behind
    expect((await lab.openSession({ path: 'spec-only.json' })).name).toBe('spec only')
    expect(readdirSync(folder).sort()).toEqual(['quick-look-ssd.json', 'spec-only.json'])
  })

  it('saves as any path, atomically replacing the file when told to', async () => {
    const dir = tempDir()
    const store = new SessionStore(join(dir, 'lib'), '1.2.3')
    const path = join(dir, 'elsewhere', 'mine.json')
    await store.save({ name: 'one', spec: { a: 1 }, path })
    await expect(store.save({ name: 'two', spec: { a: 2 }, path })).rejects.toMatchObject({
      kind: 'conflict',
    })
    await store.save({ name: 'two', spec: { a: 2 }, path, replace: true })
    const doc = JSON.parse(readFileSync(path, 'utf8'))
    expect(doc).toMatchObject({ schema: 'iosched-lab/session@2', name: 'two', app: '1.2.3', spec: { a: 2 } })
    expect(readdirSync(join(dir, 'elsewhere'))).toEqual(['mine.json'])
    expect(await store.list()).toEqual([])
  })

  it('explains what is wrong with a file that is not a session', async () => {
    const dir = tempDir()
    const store = new SessionStore(dir)
    const err = async (p: string): Promise<ApiError> =>
      store.open(p).then(
        () => {
          throw new Error('opened')
        },
        (e: ApiError) => e,
      )
    writeFileSync(join(dir, 'junk.json'), '{ nope')
    writeFileSync(join(dir, 'spec.json'), JSON.stringify(quickSpec))
    writeFileSync(join(dir, 'future.json'), JSON.stringify({ schema: 'iosched-lab/session@3' }))
    expect((await err('junk.json')).message).toContain('not a JSON document')
    expect((await err('spec.json')).message).toContain('not an IOSched Lab session')
    expect((await err('future.json')).message).toContain('newer than this lab reads')
    expect((await err('missing.json')).kind).toBe('not-found')
    expect(await store.list()).toEqual([])
  })

  it('names files and folders predictably', () => {
    expect(slugOf('Streaming read — under write!')).toBe('streaming-read-under-write')
    expect(slugOf('***')).toBe('session')
    expect(defaultLibraryFolder({ IOSCHED_LAB_HOME: '/x' })).toBe('/x/sessions')
    expect(defaultLibraryFolder({ XDG_DATA_HOME: '/d', HOME: '/h' })).toBe('/d/iosched-lab/sessions')
  })
})
