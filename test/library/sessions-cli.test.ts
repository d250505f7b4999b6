// `iosched-lab sessions` and `iosched-lab import --session`: the library on the command line.
import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { SessionStore } from '../../src/main/services/sessions'
import { BONNIE_103, FIO_MINI } from '../formats/fixtures'
import { experiment, FIXTURES, specDoc, tempLibrary } from './helpers'

const root = join(import.meta.dirname, '../..')
const cli = (...args: string[]) => {
  const r = spawnSync(process.execPath, [join(root, 'bin/iosched-lab.mjs'), ...args], {
    cwd: root,
    encoding: 'utf8',
  })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

describe('iosched-lab sessions', () => {
  const library = tempLibrary()
  const files = join(library, '..', 'files')
  beforeAll(async () => {
    const store = new SessionStore(library, 'test', { gzipThresholdBytes: 5_000 })
    const result = experiment('flagship', { deadline: [30, 31, 29], anticipatory: [10, 11, 10.5] })
    // anticipation kept, but for longer than its default 6 ms
    for (const r of result.runs)
      if (r.label === 'anticipatory') r.tunables = { antic_expire: 10, read_expire: 125 }
    await store.save({
      name: 'Disk A: flagship',
      spec: specDoc('flagship', ['deadline', 'anticipatory']),
      result,
      tags: ['hdd', '2003'],
      notes: 'cat of 100 MB under a looping dd',
    })
    copyFileSync(join(FIXTURES, 'v1-result.json'), join(library, 'old-one.json'))
    writeFileSync(join(library, 'broken.json'), '{"schema": "iosched-lab/session@2", ')
    mkdirSync(files, { recursive: true })
    writeFileSync(join(files, 'disk-a.csv'), BONNIE_103)
    writeFileSync(join(files, 'mini.json'), FIO_MINI)
  })

  it('imports files into a new session, then adds more to it', () => {
    const r = cli(
      'import',
      join(files, 'disk-a.csv'),
      '--session',
      'Disk A: tools',
      '--library',
      library,
      '--scheduler',
      'cfq',
    )
    expect(r.code).toBe(0)
    expect(r.err).toMatch(/^added 2 runs to session “Disk A: tools” \(.*disk-a-tools\.json\): 2 in all/)
    expect(r.out).toContain('bonnie++ 1.03 (bonnie-csv), 2 runs') // still prints what it read
    const again = cli(
      'import',
      join(files, 'disk-a.csv'),
      join(files, 'mini.json'),
      '--session',
      'disk a: TOOLS',
      '--library',
      library,
    )
    expect(again.err).toMatch(/added 3 runs to session “Disk A: tools” .*: 5 in all/)
  })

  it('lists the sessions with their facts, and the unreadable files with their errors', () => {
    const r = cli('sessions', '--library', library)
    expect(r.code).toBe(0)
    expect(r.out).toMatch(
      /Disk A: flagship\s+\d{4}-\d\d-\d\d \d\d:\d\d UTC\s+6\s+simulated\s+hdd-2003-ide\s+deadline, anticipatory\s+hdd, 2003/,
    )
    expect(r.out).toMatch(/Disk A: tools .* 5\s+imported\s+unknown, sda\s+disk-a, mini/)
    expect(r.out).toMatch(/v1 with result .* old-one\.json \(v1\)/)
    expect(r.out).toContain('3 of 3 sessions in')
    expect(r.out).toContain('cannot read broken.json: not a JSON document')
    const filtered = cli('sessions', 'list', '--library', library, '--workload', 'fio', '--json')
    const doc = JSON.parse(filtered.out)
    expect(doc.hits.map((h: { name: string }) => h.name)).toEqual(['Disk A: tools'])
    expect(doc.hits[0].sets.map((s: { key: string }) => s.key)).toEqual(['runs/imported/mini'])
    expect(doc.problems).toEqual([expect.objectContaining({ file: 'broken.json' })])
    expect(cli('sessions', '--library', library, '--tag', 'hdd', '--tag', '2003').out).toContain(
      '1 of 3 sessions',
    )
    expect(cli('sessions', '--library', library, '--from', 'soon').code).toBe(2)
  })

  it('shows a session: notes, tags, environment, run sets and the results as text', () => {
    const r = cli('sessions', 'show', 'disk a: flagship', '--library', library)
    expect(r.code).toBe(0)
    expect(r.out).toContain('tags: hdd, 2003')
    expect(r.out).toContain('cat of 100 MB under a looping dd')
    expect(r.out).toMatch(/system: Linux \S+/)
    // each run set's tunables: those that differ from the scheduler's defaults
    expect(r.out).toMatch(/result\/deadline\s+deadline\s+simulated\s+hdd-2003-ide\s+3\s+cat\s+defaults\n/)
    expect(r.out).toMatch(/result\/anticipatory\s+anticipatory\s+.*\s+cat\s+antic_expire=10\n/)
    expect(r.out).toMatch(/saved: \d{4}-\d\d-\d\d \d\d:\d\d UTC by iosched-lab/)
    expect(r.out).toMatch(/seconds, runs in order/)
    const json = JSON.parse(cli('sessions', 'show', 'old-one', '--json', '--library', library).out)
    expect(json).toMatchObject({ schema: 'iosched-lab/session@2', name: 'v1 with result', hasResult: true })
    const missing = cli('sessions', 'show', 'nope', '--library', library)
    expect(missing.code).toBe(2)
    expect(missing.err).toContain('no session "nope"')
    // a file that is not a session: what is wrong with it, exit 2 — not an internal error
    const broken = cli('sessions', 'show', join(library, 'broken.json'), '--library', library)
    expect(broken.err).toBe(`iosched-lab: ${join(library, 'broken.json')}: not a JSON document\n`)
    expect(broken.code).toBe(2)
  })

  it('compares run sets of two sessions against a baseline', () => {
    const r = cli(
      'sessions',
      'compare',
      'Disk A: flagship:deadline',
      'Disk A: flagship:anticipatory',
      'disk-a-tools:disk-a',
      '--library',
      library,
    )
    expect(r.err).toBe('')
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/^run: run time \(s\), Welch's t-test/)
    expect(r.out).toMatch(/Disk A: flagship: deadline \[baseline\]\s+3\s+30\.0 ± 2\.5/)
    expect(r.out).toMatch(/Disk A: flagship: anticipatory\s+3\s+10\.5 ± 1\.2\s+−65 %\s+<0\.0001\s+\*/)
    expect(r.out).toMatch(/Disk A: tools: disk-a \(imported\)\s+4/)
    expect(r.out).toContain('Disk A: flagship: deadline [baseline]: 29.0 30.0 31.0 → 30.0')
    // against the faster baseline, the slower one's 30 s read as the factor they are, not "+186 %"
    const turned = cli(
      'sessions',
      'compare',
      'Disk A: flagship:deadline',
      'Disk A: flagship:anticipatory',
      '--baseline',
      '2',
      '--library',
      library,
    )
    expect(turned.out).toMatch(/Disk A: flagship: deadline\s+3\s+30\.0 ± 2\.5\s+2\.86×\s+<0\.0001\s+\*/)
    const json = JSON.parse(
      cli('sessions', 'compare', 'Disk A: flagship', '--baseline', '2', '--json', '--library', library).out,
    )
    expect(json.baseline).toBe(1)
    expect(json.sets.map((s: { facts: { label: string } }) => s.facts.label)).toEqual([
      'deadline',
      'anticipatory',
    ])
    const bad = cli('sessions', 'compare', 'Disk A: flagship:cfq', '--library', library)
    expect(bad.code).toBe(2)
    expect(bad.err).toContain('has no run set "cfq"')
  })

  it('reports a compressed session', () => {
    const r = cli('sessions', '--library', library, '--json')
    const gz = JSON.parse(r.out).hits.find((h: { compressed: boolean }) => h.compressed)
    expect(gz?.file).toBe('disk-a-flagship.json.gz')
    const report = cli('report', gz.path, '--text')
    expect(report.code).toBe(0)
    expect(report.out).toContain('flagship')
  })
})
