import { describe, expect, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { formatIssues, validateSpec } from '../../src/shared/experiment/validate'

const base = () => ({
  device: { preset: 'hdd-7200-sata' },
  workload: { processes: [{ name: 'r', type: 'dd', params: { bs: '64k', count: 10 } }] },
  schedulers: ['noop', 'deadline'],
})
const problems = (doc: unknown): string[] => {
  const v = validateSpec(doc)
  return v.ok ? [] : formatIssues(v.issues).split('\n')
}

describe('every problem of a spec at once', () => {
  it('reports the structure’s problems and those of every well-formed part together', () => {
    const doc = {
      name: 'several',
      colour: 'blue',
      device: { preset: 'hdd-7200-sata', overrides: { rpm: -1 } },
      workload: {
        processes: [
          // a malformed startMs does not hide the bad parameter of the same process
          { name: 'r', type: 'dd', params: { bs: 'huge' }, startMs: -5 },
          { name: 'w', type: 'nope' },
        ],
        stop: { processes: ['r', 'ghost'] },
      },
      schedulers: ['noop', 'frob', { name: 'deadline', tunables: { fifo_batch: -3 } }],
      repetitions: 0,
    }
    // in the order of the document, whichever check found them
    expect(problems(doc)).toEqual([
      'colour: unknown key',
      expect.stringMatching(/^device\.overrides\.rpm: /),
      expect.stringMatching(/^workload\.processes\[0\]\.params\.bs: expected a size/),
      'workload.processes[0].startMs: expected a number ≥ 0, got -5',
      expect.stringMatching(/^workload\.processes\[1\]\.type: unknown workload "nope"/),
      'workload.stop.processes[1]: no process named "ghost"',
      expect.stringMatching(/^schedulers\[1\]: unknown scheduler "frob"/),
      'schedulers[2].tunables.fifo_batch: expected a positive integer, got -3',
      'repetitions: expected a positive integer, got 0',
    ])
  })

  it('keeps the names of malformed processes for the stop list', () => {
    const doc = base()
    Object.assign(doc.workload.processes[0], { nice: 99 })
    Object.assign(doc.workload, { stop: { processes: ['r'] } })
    expect(problems(doc)).toEqual(['workload.processes[0].nice: expected a number ≤ 19, got 99'])
  })

  it('refuses empty and blank names: the experiment, processes, files and labels', () => {
    for (const name of ['', '   ', '\t'])
      expect(problems({ ...base(), name })).toEqual(['name: must not be empty or only spaces'])
    const doc = {
      ...base(),
      workload: {
        files: [{ name: ' ', size: '1M' }],
        processes: [{ name: '', type: 'dd', params: { bs: '64k', count: 10 } }],
      },
      schedulers: ['noop', { name: 'deadline', label: '  ' }],
    }
    expect(problems(doc)).toEqual([
      'workload.files[0].name: must not be empty or only spaces',
      'workload.processes[0].name: must not be empty or only spaces',
      'schedulers[1].label: must not be empty or only spaces',
    ])
    // no name at all is fine: the experiment is called "experiment"
    const v = validateSpec(base())
    expect(v.ok && v.spec.name).toBe('experiment')
  })

  it('refuses a blank name on the command line too, naming the file and the field', () => {
    const dir = mkdtempSync(join(tmpdir(), 'iosched-blank-'))
    const file = join(dir, 'blank.json')
    writeFileSync(file, JSON.stringify({ ...base(), name: ' ' }))
    const cli = join(import.meta.dirname, '../../bin/iosched-lab.mjs')
    const r = spawnSync(process.execPath, [cli, 'run', file], { encoding: 'utf8' })
    expect(r.status).toBe(2)
    expect(r.stderr.trim()).toBe(`iosched-lab: ${file}: name: must not be empty or only spaces`)
  })
})
