// The session store, version 2: a save holds the spec, every run, the environment, notes and tags,
// header first; large sessions are gzip-compressed; the library lists from headers, caches by
// mtime, and lists corrupt or newer files with their error.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { release } from 'node:os'
import { join } from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { SessionStore } from '../../src/main/services/sessions'
import { readSessionHeader } from '../../src/main/services/library/session-file'
import { experiment, importedRuns, specDoc, tempLibrary } from './helpers'

const flagship = () => experiment('flagship', { deadline: [30, 31, 32], anticipatory: [10, 11, 10.5] })

describe('session store v2', () => {
  it('saves the spec, every run, the environment, notes and tags, and reads them back', async () => {
    const store = new SessionStore(tempLibrary(), '9.9.9')
    const result = flagship()
    const runs = importedRuns('disk-a fio', [12, 13])
    const info = await store.save({
      name: 'Disk A',
      spec: specDoc('flagship', ['deadline', 'anticipatory']),
      result,
      runs,
      notes: 'the 2003 measurement,\nagain',
      tags: ['hdd', ' 2003 ', 'HDD', ''],
      devices: [{ name: 'sda', model: 'WDC WD800', rotational: true }],
    })
    expect(info).toMatchObject({
      name: 'Disk A',
      schedulers: ['deadline', 'anticipatory', 'disk-a fio'],
      hasResult: true,
      tags: ['hdd', '2003'],
      runs: 8,
      kinds: ['simulated', 'imported'],
      compressed: false,
    })
    const doc = await store.open(info.path)
    expect(doc.schema).toBe('iosched-lab/session@2')
    expect(doc.notes).toBe('the 2003 measurement,\nagain')
    expect(doc.tags).toEqual(['hdd', '2003'])
    expect(doc.result?.runs).toHaveLength(6)
    expect(doc.runs.map((r) => [r.label, r.repetition, r.imported?.tool])).toEqual([
      ['disk-a fio', 0, 'fio'],
      ['disk-a fio', 1, 'fio'],
    ])
    expect(doc.environment).toMatchObject({
      app: '9.9.9',
      node: process.version,
      os: { release: release() },
      devices: [{ name: 'sda', model: 'WDC WD800', rotational: true }],
    })
    expect(doc.environment.cpu?.count).toBeGreaterThan(0)
    expect(doc.index.runSets.map((s) => [s.key, s.kind, s.repetitions, s.workloads])).toEqual([
      ['result/deadline', 'simulated', 3, ['cat']],
      ['result/anticipatory', 'simulated', 3, ['cat']],
      ['runs/imported/disk-a fio', 'imported', 2, ['fio']],
    ])
  })

  it('writes the header on the first line, so the library reads nothing else', async () => {
    const store = new SessionStore(tempLibrary())
    const info = await store.save({ name: 'one', spec: null, result: flagship(), tags: ['x'] })
    const text = readFileSync(info.path, 'utf8')
    const first = text.slice(0, text.indexOf('\n'))
    expect(first).toMatch(/^\{"schema":"iosched-lab\/session@2","name":"one",.*"environment":\{.*\},$/)
    expect(first).not.toContain('"runs":[{')
    expect(JSON.parse(text).name).toBe('one') // still one JSON document
    const header = await readSessionHeader(info.path)
    expect(header?.index.runs).toBe(6)
    expect(header?.tags).toEqual(['x'])
  })

  it('lists a session from its header line alone; opening it reads (and checks) the rest', async () => {
    const folder = tempLibrary()
    const store = new SessionStore(folder)
    const info = await store.save({ name: 'damaged body', spec: null, result: flagship(), tags: ['t'] })
    const text = readFileSync(info.path, 'utf8')
    writeFileSync(info.path, text.slice(0, text.indexOf('\n') + 1) + '"spec": nul') // the runs lost
    const { entries, problems } = await store.scan()
    expect(problems).toEqual([])
    expect(entries.map((e) => [e.name, e.index.runs, e.tags])).toEqual([['damaged body', 6, ['t']]])
    await expect(store.open(info.path)).rejects.toThrow('not a JSON document')
  })

  it('lists each run set with its tunables; a header written before they were kept is read in full', async () => {
    const folder = tempLibrary()
    const store = new SessionStore(folder)
    const result = flagship()
    result.runs = result.runs.map((r) => (r.label === 'deadline' ? { ...r, tunables: { fifo_batch: 4 } } : r))
    const info = await store.save({ name: 'tuned', spec: null, result, runs: importedRuns('fio a', [3]) })
    const tunables = async () => (await store.scan()).entries[0].index.runSets.map((s) => [s.key, s.tunables])
    const expected = [
      ['result/deadline', { fifo_batch: 4 }],
      ['result/anticipatory', {}],
      ['runs/imported/fio a', {}],
    ]
    await expect(tunables()).resolves.toEqual(expected)
    // the header as an older lab wrote it: run sets without tunables
    const text = readFileSync(info.path, 'utf8')
    const cut = text.indexOf('\n')
    const header = JSON.parse(text.slice(0, cut) + '"x":0}') as {
      index: { runSets: { tunables?: unknown }[] }
    }
    for (const s of header.index.runSets) delete s.tunables
    const old = JSON.stringify(header).replace(/,"x":0\}$/, ',')
    writeFileSync(info.path, old + text.slice(cut))
    expect((await readSessionHeader(info.path))?.index.runSets[0].tunables).toBeUndefined()
    await expect(tunables()).resolves.toEqual(expected)
  })

  it('compresses a large session in the library, and switches the extension as it grows or shrinks', async () => {
    const folder = tempLibrary()
    const store = new SessionStore(folder, '1', { gzipThresholdBytes: 20_000 })
    const small = await store.save({ name: 'grows', spec: specDoc('g', ['noop']) })
    expect(small.path).toBe(join(folder, 'grows.json'))
    expect(small.compressed).toBe(false)
    const big = await store.save({
      name: 'grows',
      spec: specDoc('g', ['noop']),
      result: flagship(),
      replace: true,
    })
    expect(big.path).toBe(join(folder, 'grows.json.gz'))
    expect(big.compressed).toBe(true)
    expect(readdirSync(folder)).toEqual(['grows.json.gz'])
    const bytes = readFileSync(big.path)
    expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b])
    expect(bytes.length).toBe(big.bytes)
    expect(JSON.parse(gunzipSync(bytes).toString()).schema).toBe('iosched-lab/session@2')
    expect((await store.open('grows.json.gz')).result?.runs).toHaveLength(6)
    expect((await readSessionHeader(big.path))?.name).toBe('grows') // inflates the first line only
    // saved again through its own path, small once more: back to plain JSON, the .gz removed
    const again = await store.save({
      name: 'grows',
      spec: specDoc('g', ['noop']),
      path: big.path,
      replace: true,
    })
    expect(again.path).toBe(join(folder, 'grows.json'))
    expect(readdirSync(folder)).toEqual(['grows.json'])
  })

  it('detects gzip by its magic bytes whatever the name, and saves as .json or .json.gz anywhere', async () => {
    const folder = tempLibrary()
    const store = new SessionStore(folder, '1', { gzipThresholdBytes: 10 })
    const elsewhere = join(folder, '..', 'mail')
    const plain = await store.save({
      name: 'p',
      spec: null,
      result: flagship(),
      path: join(elsewhere, 'p.json'),
    })
    expect(plain.compressed).toBe(false)
    const gz = await store.save({
      name: 'z',
      spec: null,
      result: flagship(),
      path: join(elsewhere, 'z.json.gz'),
    })
    expect(gz.compressed).toBe(true)
    const disguised = join(elsewhere, 'disguised.json')
    writeFileSync(disguised, readFileSync(gz.path))
    expect((await store.open(disguised)).name).toBe('z')
    expect(readFileSync(plain.path, 'utf8').startsWith('{"schema"')).toBe(true)
  })

  it('lists from headers and caches entries until a file changes', async () => {
    const folder = tempLibrary()
    const store = new SessionStore(folder)
    await store.save({ name: 'a', spec: null, result: flagship() })
    await store.save({ name: 'b', spec: null, runs: importedRuns('b', [1]) })
    const first = await store.scan()
    expect(first.entries.map((e) => e.name).sort()).toEqual(['a', 'b'])
    expect(store.index.reads).toBe(2)
    await store.scan()
    expect(store.index.reads).toBe(2) // nothing changed: nothing read
    await store.setMeta({ path: 'a.json', tags: ['retagged'] })
    const third = await store.scan()
    expect(store.index.reads).toBe(3)
    expect(third.entries.find((e) => e.name === 'a')?.tags).toEqual(['retagged'])
  })

  it('lists a corrupt file, a newer one and a truncated gzip with their errors, and the rest as usual', async () => {
    const folder = tempLibrary()
    const store = new SessionStore(folder)
    await store.save({ name: 'good', spec: null, result: flagship() })
    writeFileSync(join(folder, 'junk.json'), '{ "schema": "iosched-lab/session@2", "name": ')
    writeFileSync(join(folder, 'future.json'), JSON.stringify({ schema: 'iosched-lab/session@7', name: 'x' }))
    writeFileSync(
      join(folder, 'cut.json.gz'),
      gzipSync(Buffer.from('{"schema":"iosched-lab/session@2"')).subarray(0, 20),
    )
    writeFileSync(join(folder, 'spec.json'), JSON.stringify(specDoc('not a session', ['noop'])))
    writeFileSync(join(folder, 'notes.txt'), 'not listed at all')
    writeFileSync(join(folder, '.good.json.123.abcd.tmp'), '{"half": ')
    const { entries, problems } = await store.scan()
    expect(entries.map((e) => e.name)).toEqual(['good'])
    expect(Object.fromEntries(problems.map((p) => [p.file, p.error]))).toEqual({
      'cut.json.gz': expect.stringContaining('corrupt compressed file'),
      'future.json': expect.stringContaining('iosched-lab/session@7 is newer than this lab reads'),
      'junk.json': 'not a JSON document',
      'spec.json': 'not an IOSched Lab session (no "schema")',
    })
    expect((await store.list()).map((s) => s.name)).toEqual(['good'])
  })

  it('changes the notes and tags of a saved session, keeping its runs and date', async () => {
    const store = new SessionStore(tempLibrary())
    const info = await store.save({ name: 'meta', spec: null, result: flagship(), notes: 'old' })
    const before = await store.open(info.path)
    const after = await store.setMeta({ path: info.path, notes: 'new notes', tags: ['b', 'a'] })
    expect(after.tags).toEqual(['b', 'a'])
    const doc = await store.open(info.path)
    expect(doc).toMatchObject({ notes: 'new notes', tags: ['b', 'a'], savedAt: before.savedAt })
    expect(doc.result).toEqual(before.result)
  })

  it('adds imported runs to a session, continuing their repetitions, or starts one', async () => {
    const folder = tempLibrary()
    const store = new SessionStore(folder)
    const created = await store.addRuns('disk-b.json', 'disk B', importedRuns('bonnie', [5, 6], 'bonnie++'))
    expect(created).toMatchObject({ name: 'disk B', runs: 2, kinds: ['imported'] })
    await store.addRuns('disk-b.json', 'ignored', importedRuns('bonnie', [7], 'bonnie++'))
    const doc = await store.open('disk-b.json')
    expect(doc.name).toBe('disk B')
    expect(doc.spec).toBeNull()
    expect(doc.runs.map((r) => r.repetition)).toEqual([0, 1, 2])
    expect(doc.index.runSets).toMatchObject([
      { key: 'runs/imported/bonnie', repetitions: 3, workloads: ['bonnie++'] },
    ])
    expect(existsSync(join(folder, 'disk-b.json'))).toBe(true)
  })
})
