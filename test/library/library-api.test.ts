// The library through the LabApi, as the app calls it (inputs checked by their schemas): import
// files' text into runs, save sessions with notes and tags, search, compare run sets of two
// sessions, change tags, export reports.
import { describe, expect, it } from 'vitest'
import { LabService } from '../../src/main/services/lab-service'
import type { LabApi } from '../../src/shared/api/contract'
import type { ApiError } from '../../src/shared/api/errors'
import { callLabMethod } from '../../src/shared/api/serve'
import { BONNIE_103, FIO_MINI } from '../formats/fixtures'
import { EXAMPLES } from '../api/fixtures'
import { experiment, specDoc, tempLibrary } from './helpers'

const lab = new LabService({
  examplesDir: EXAMPLES,
  libraryDir: tempLibrary(),
  appVersion: 'test',
  parallel: 1,
})
/** A call as it arrives over HTTP or IPC: through the input schema. */
const call = <M extends keyof LabApi>(m: M, input?: unknown) =>
  callLabMethod(lab, m, input) as Promise<Awaited<ReturnType<LabApi[M]>>>
const failure = (m: keyof LabApi, input: unknown): Promise<ApiError> =>
  call(m, input).then(
    () => {
      throw new Error('accepted')
    },
    (e: ApiError) => e,
  )

describe('the library through the LabApi', () => {
  let flagshipPath = ''
  let importsPath = ''

  it('imports files sent as text: runs per file, errors per file', async () => {
    const r = await call('importFiles', {
      files: [
        { name: 'disk-a.csv', text: BONNIE_103 },
        { name: 'mini.json', text: FIO_MINI },
        { name: 'garbage.txt', text: 'hello\nworld\n' },
      ],
      scheduler: 'deadline',
    })
    expect(r.files.map((f) => [f.file, f.format, f.runs.length])).toEqual([
      ['disk-a.csv', 'bonnie-csv', 2],
      ['mini.json', 'fio-json', 1],
    ])
    expect(r.files[0].runs.map((x) => [x.label, x.repetition, x.scheduler, x.imported?.tool])).toEqual([
      ['disk-a', 0, 'deadline', 'bonnie++'],
      ['disk-a', 1, 'deadline', 'bonnie++'],
    ])
    expect(r.errors).toEqual([
      { file: 'garbage.txt', message: expect.stringMatching(/^garbage\.txt: line 1: unrecognised format/) },
    ])
    const runs = r.files.flatMap((f) => f.runs)
    const info = await call('saveSession', {
      name: 'Imports',
      spec: null,
      runs,
      tags: ['real', 'disk-a'],
      notes: 'from the lab PC',
    })
    importsPath = info.path
    expect(info).toMatchObject({ runs: 3, kinds: ['imported'], tags: ['real', 'disk-a'] })
  })

  it('saves a simulated session and finds both with the filters', async () => {
    const result = experiment('flagship', { deadline: [30, 31, 29], anticipatory: [10, 11, 10.5] })
    const info = await call('saveSession', {
      name: 'Flagship',
      spec: specDoc('flagship', ['deadline', 'anticipatory']),
      result,
      tags: ['hdd'],
    })
    flagshipPath = info.path
    const all = await call('librarySearch', {})
    expect(all.total).toBe(2)
    expect(all.hits.map((h) => h.name).sort()).toEqual(['Flagship', 'Imports'])
    expect(all.facets.workloads).toEqual(['bonnie++', 'cat', 'fio'])
    expect(
      (await call('librarySearch', { workload: 'fio' })).hits.map((h) => h.sets.map((s) => s.key)),
    ).toEqual([['runs/imported/mini']])
    expect((await call('librarySearch', { tags: ['hdd'], scheduler: 'anticipatory' })).hits).toHaveLength(1)
    expect(
      (await call('librarySearch', { kind: 'imported', text: 'lab pc' })).hits.map((h) => h.name),
    ).toEqual(['Imports'])
    expect((await failure('librarySearch', { from: 'yesterday' })).issues?.[0]).toEqual({
      path: 'from',
      message: 'expected a date, YYYY-MM-DD',
    })
  })

  it('compares run sets of both sessions against a baseline', async () => {
    const c = await call('libraryCompare', {
      sets: [
        { path: flagshipPath, set: 'result/deadline' },
        { path: flagshipPath, set: 'result/anticipatory' },
        { path: importsPath, set: 'runs/imported/disk-a' },
      ],
    })
    expect(c.sets.map((s) => `${s.session}: ${s.facts.label}`)).toEqual([
      'Flagship: deadline',
      'Flagship: anticipatory',
      'Imports: disk-a',
    ])
    const at = c.metrics.findIndex((m) => m.id === 'run:seconds')
    expect(c.cells[1][at]).toMatchObject({ significant: true })
    expect(c.cells[1][at]!.diffPercent).toBeCloseTo(-65, 0)
    expect(c.sets[2].facts).toMatchObject({ kind: 'imported', repetitions: 2, tool: 'bonnie++' })
    // as JSON on the wire: no NaN anywhere
    expect(JSON.stringify(c)).not.toContain('NaN')
    expect(
      (await failure('libraryCompare', { sets: [{ path: flagshipPath, set: 'result/cfq' }] })).message,
    ).toContain('no run set "result/cfq"')
    expect(
      (
        await failure('libraryCompare', {
          sets: [{ path: flagshipPath, set: 'result/deadline' }],
          baseline: 1,
        })
      ).issues,
    ).toEqual([{ path: 'baseline', message: 'no such run set' }])
  })

  it('changes a session’s tags and notes', async () => {
    const info = await call('setSessionMeta', {
      path: importsPath,
      tags: ['real', 'bonnie'],
      notes: 'redone',
    })
    expect(info.tags).toEqual(['real', 'bonnie'])
    const doc = await call('openSession', { path: importsPath })
    expect(doc).toMatchObject({ notes: 'redone', tags: ['real', 'bonnie'] })
    expect((await failure('setSessionMeta', { path: importsPath, tags: [''] })).message).toContain(
      'an empty tag',
    )
  })

  it('exports a saved session and unsaved work as HTML, CSV, JSON and text', async () => {
    const html = await call('exportReport', { format: 'html', path: flagshipPath })
    expect(html).toMatchObject({ fileName: 'flagship.html', mime: 'text/html;charset=utf-8' })
    expect(html.text).toMatch(/^<!DOCTYPE html>/)
    expect(html.text).toContain('<h1>Flagship</h1>')
    expect(html.text).toContain('<svg')
    expect(html.text).toContain('Linux') // the environment: system and kernel release
    const csv = await call('exportReport', { format: 'csv', path: importsPath })
    expect(csv.fileName).toBe('imports.csv')
    expect(csv.text.split('\n')[0]).toMatch(/^label,scheduler,source,repetition/)
    expect(csv.text).toContain('disk-a,deadline,real,1')
    const text = await call('exportReport', {
      format: 'text',
      session: { name: 'Unsaved work', result: experiment('u', { noop: [2, 3] }), notes: 'to post' },
    })
    expect(text.fileName).toBe('unsaved-work.txt')
    expect(text.text).toMatch(/^Unsaved work\n=+\n/)
    expect(text.text).toContain('to post')
    const json = JSON.parse((await call('exportReport', { format: 'json', path: flagshipPath })).text)
    expect(json).toMatchObject({ schema: 'iosched-lab/report@1', name: 'Flagship' })
    expect((await failure('exportReport', { format: 'pdf', path: flagshipPath })).kind).toBe('bad-input')
    expect((await failure('exportReport', { format: 'html', session: { name: 'empty' } })).message).toContain(
      'holds no runs',
    )
  })
})
