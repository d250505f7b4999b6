// validate --matrix FILE: the user's own workloads, checked before anything runs (no root needed
// to be told what is wrong with the file).
import { describe, expect, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { validateSpec as validateExperiment } from '../../src/shared/experiment/validate'
import { parseValidateMatrix } from '../../src/shared/validate/matrix-file'
import { validateSpec } from '../../src/shared/validate/matrix'

const root = join(import.meta.dirname, '../..')
const dir = mkdtempSync(join(tmpdir(), 'iosched-matrix-'))

describe('a validation matrix of the user’s own', () => {
  it('takes fio jobs as in a spec, on the raw device unless a file is named', () => {
    const m = parseValidateMatrix([
      {
        id: 'mixed-qd16',
        title: '70/30 random mix',
        processes: [
          {
            name: 'mix',
            params: { rw: 'randrw', rwmixread: 70, bs: '4k', iodepth: 16, ioengine: 'libaio', direct: true },
          },
        ],
      },
      {
        id: 'two',
        rankBy: 'r',
        processes: [
          { name: 'w', params: { rw: 'write', bs: '1M', direct: true } },
          { name: 'r', params: { rw: 'randread', bs: '4k', direct: true } },
        ],
      },
    ])
    expect(m.ok).toBe(true)
    if (!m.ok) return
    expect(m.workloads.map((w) => [w.id, w.title, w.rankBy])).toEqual([
      ['mixed-qd16', '70/30 random mix', 'mix'],
      ['two', 'two', 'r'],
    ])
    expect(m.workloads[0].processes[0].params.filename).toBe('/dev')
  })

  it('reads the probe matrix the lab keeps beside its benchmarks (workloads outside validate’s own)', () => {
    const doc = JSON.parse(readFileSync(join(root, 'bench/validate-probe-matrix.json'), 'utf8')) as unknown
    const m = parseValidateMatrix(doc)
    expect(m.ok && m.workloads.map((w) => w.id)).toEqual([
      'randread-qd8',
      'randrw-qd16',
      'reader-vs-randwriters',
      'reader-vs-seqwriter-qd1',
      'buffered-seqread',
      'readers-qd4-x4',
      'idle-reader-vs-reader',
      'rt-reader-vs-deep-writer',
      'reader-vs-fsync-writer',
    ])
  })

  it('carries a process’s I/O priority, nice and start into the spec both sides run', () => {
    const m = parseValidateMatrix([
      {
        id: 'idle-reader',
        processes: [
          { name: 'bg', params: { rw: 'randread', bs: '4k', direct: true }, ioClass: 'idle', startMs: 200 },
          {
            name: 'fg',
            params: { rw: 'randread', bs: '4k', direct: true },
            ioClass: 'rt',
            ioLevel: 2,
            nice: -5,
          },
        ],
      },
    ])
    expect(m.ok).toBe(true)
    if (!m.ok) return
    const spec = validateSpec(m.workloads[0], {
      device: { preset: 'nullblk' },
      schedulers: ['mq-deadline'],
      seconds: 2,
      regionBytes: 2 ** 28,
      repetitions: 2,
      cvPercent: 5,
      maxRepetitions: 2,
    }) as { workload: { processes: Record<string, unknown>[] } }
    expect(
      spec.workload.processes.map(({ name, ioClass, ioLevel, nice, startMs }) => ({
        name,
        ioClass,
        ioLevel,
        nice,
        startMs,
      })),
    ).toEqual([
      { name: 'bg', ioClass: 'idle', ioLevel: undefined, nice: undefined, startMs: 200 },
      { name: 'fg', ioClass: 'rt', ioLevel: 2, nice: -5, startMs: undefined },
    ])
    const checked = validateExperiment(spec)
    expect(checked.ok).toBe(true)
  })

  it('refuses a field a process does not have, and a bad priority, saying where', () => {
    const m = parseValidateMatrix([
      { id: 'a', processes: [{ name: 'x', params: { rw: 'read' }, prio: 3 }] },
      { id: 'b', processes: [{ name: 'y', params: { rw: 'read' }, ioClass: 'urgent' }] },
    ])
    expect(m.ok).toBe(false)
    if (m.ok) return
    expect(m.problems[0]).toMatch(
      /^\[0\]\.processes\[0\]\.prio: not a field of a process \(they are name, params, ioClass/,
    )
    expect(m.problems.join('\n')).toMatch(/\[1\]\.processes\[0\]\.ioClass: /)
  })

  it('says what is wrong and where, every problem at once', () => {
    const m = parseValidateMatrix([
      { id: 'a', processes: [{ name: 'x', params: { rw: 'sideways', bs: '4k' } }] },
      { id: 'a', processes: [] },
      { id: 'b', rankBy: 'nobody', processes: [{ name: 'x', params: {} }] },
    ])
    expect(m.ok).toBe(false)
    if (m.ok) return
    expect(m.problems.join('\n')).toMatch(/\[1\]\.id: "a" is given twice/)
    expect(m.problems.join('\n')).toMatch(/\[2\]\.rankBy: no process "nobody"/)
    expect(
      parseValidateMatrix([{ id: 'a', processes: [{ name: 'x', params: { rw: 'sideways' } }] }]),
    ).toMatchObject({
      ok: false,
      problems: [expect.stringMatching(/^\[0\]\.processes\[0\]\.params\.rw: /)],
    })
    expect(parseValidateMatrix({})).toEqual({
      ok: false,
      problems: ['the matrix: expected a non-empty array of workloads'],
    })
  })

  it('is refused by the CLI as bad input (exit 2) before any real run, naming the file', () => {
    const f = join(dir, 'bad.json')
    writeFileSync(f, JSON.stringify([{ id: 'x', processes: [{ name: 'r', params: { rw: 'sideways' } }] }]))
    const r = spawnSync(process.execPath, [join(root, 'bin/iosched-lab.mjs'), 'validate', '--matrix', f], {
      cwd: root,
      encoding: 'utf8',
    })
    expect(r.status).toBe(2)
    expect(r.stderr).toContain(`${f}: [0].processes[0].params.rw:`)
  })
})
