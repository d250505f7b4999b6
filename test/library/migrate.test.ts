// Migrations, one test per step. The v1 fixtures were written by the lab's version-1 store
// (`iosched-lab/session@1`, before this version existed): a simulated result, a spec alone, a sweep.
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SessionStore } from '../../src/main/services/sessions'
import { readSessionDocument } from '../../src/shared/session/document'
import { migrate, MIGRATIONS, SessionFormatError, sessionVersion } from '../../src/shared/session/migrate'
import { SESSION_VERSION } from '../../src/shared/session/types'
import { FIXTURES, tempLibrary } from './helpers'

const fixture = (name: string): unknown => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'))

describe('session migrations', () => {
  it('has one migration per older version', () => {
    expect(SESSION_VERSION).toBe(2)
    expect(Object.keys(MIGRATIONS).map(Number)).toEqual([1])
    expect(sessionVersion(fixture('v1-result.json'))).toBe(1)
    expect(sessionVersion({ schema: 'iosched-lab/session@12' })).toBe(12)
    expect(sessionVersion({ schema: 'iosched-lab/experiment@1' })).toBeNull()
  })

  it('v1 → v2: a session with a result keeps its spec and runs, gains empty notes, tags and extra runs', () => {
    const v1 = fixture('v1-result.json') as Record<string, unknown>
    const v2 = MIGRATIONS[1](v1)
    expect(v2).toMatchObject({
      schema: 'iosched-lab/session@2',
      name: 'v1 with result',
      savedAt: v1.savedAt,
      app: '0.1.0',
      notes: '',
      tags: [],
      environment: { app: '0.1.0' },
      runs: [],
    })
    expect(v2.spec).toEqual(v1.spec)
    expect(v2.result).toEqual(v1.result)
    const doc = readSessionDocument(v1)
    expect(doc.index).toMatchObject({
      runs: 4,
      kinds: ['simulated'],
      devices: ['ssd-sata-mlc'],
      schedulers: ['noop', 'deadline'],
      labels: ['noop', 'deadline-fb4'],
      workloads: ['random-read'],
      hasResult: true,
      hasSweep: false,
    })
    expect(doc.index.runSets.map((s) => [s.key, s.repetitions, s.processes])).toEqual([
      ['result/noop', 2, ['rr']],
      ['result/deadline-fb4', 2, ['rr']],
    ])
  })

  it('v1 → v2: a spec alone and a sweep', () => {
    const spec = readSessionDocument(fixture('v1-spec-only.json'))
    expect(spec).toMatchObject({ name: 'v1 spec only', result: null, sweep: null, runs: [] })
    expect(spec.index).toMatchObject({ runs: 0, labels: ['noop', 'deadline-fb4'], runSets: [] })
    const sweep = readSessionDocument(fixture('v1-sweep.json'))
    expect(sweep.sweep?.points.map((p) => p.value)).toEqual([1, 16])
    expect(sweep.index.hasSweep).toBe(true)
    expect(sweep.index.runSets.map((s) => [s.key, s.point])).toEqual([
      ['sweep/0/noop', { path: 'schedulers[1].tunables.fifo_batch', value: 1 }],
      ['sweep/0/deadline', { path: 'schedulers[1].tunables.fifo_batch', value: 1 }],
      ['sweep/1/noop', { path: 'schedulers[1].tunables.fifo_batch', value: 16 }],
      ['sweep/1/deadline', { path: 'schedulers[1].tunables.fifo_batch', value: 16 }],
    ])
  })

  it('refuses a broken v1 document, saying which field and which version', () => {
    const v1 = fixture('v1-result.json') as Record<string, unknown>
    expect(() => migrate({ ...v1, result: { runs: [] } })).toThrow(
      /not a valid IOSched Lab session \(version 1; result: expected an experiment result/,
    )
    expect(() => migrate({ schema: 'iosched-lab/session@3' })).toThrow(SessionFormatError)
    expect(() => migrate({ schema: 'iosched-lab/session@3' })).toThrow(/newer than this lab reads/)
  })

  it('opens, lists and re-saves v1 files: the library shows them as version 1 until saved again', async () => {
    const folder = tempLibrary()
    mkdirSync(folder, { recursive: true })
    for (const f of ['v1-result.json', 'v1-spec-only.json', 'v1-sweep.json'])
      copyFileSync(join(FIXTURES, f), join(folder, f))
    const store = new SessionStore(folder, '2.0.0')
    const { entries, problems } = await store.scan()
    expect(problems).toEqual([])
    expect(entries.map((e) => [e.file, e.version, e.index.runs]).sort()).toEqual([
      ['v1-result.json', 1, 4],
      ['v1-spec-only.json', 1, 0],
      ['v1-sweep.json', 1, 4],
    ])
    // the file is left as it was until saved: then it is a v2 file
    expect(readFileSync(join(folder, 'v1-result.json'), 'utf8')).toContain('"iosched-lab/session@1"')
    await store.setMeta({ path: 'v1-result.json', tags: ['migrated'] })
    expect(readFileSync(join(folder, 'v1-result.json'), 'utf8')).toMatch(
      /^\{"schema":"iosched-lab\/session@2"/,
    )
    const again = (await store.scan()).entries.find((e) => e.file === 'v1-result.json')
    expect(again).toMatchObject({ version: 2, tags: ['migrated'], name: 'v1 with result' })
  })
})
