import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
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

describe('experiment spec validation', () => {
  it('resolves a valid spec with every default filled in', () => {
    const v = validateSpec(base())
    expect(v.ok).toBe(true)
    if (!v.ok) return
    expect(v.spec.repetitions).toBe(1)
    expect(v.spec.seed).toBe(1)
    expect(v.spec.host.preset).toBe('linux-modern')
    expect(v.spec.schedulers.map((s) => s.label)).toEqual(['noop', 'deadline'])
    expect(v.spec.schedulers[1].tunables).toEqual({
      read_expire: 500,
      write_expire: 5000,
      writes_starved: 2,
      fifo_batch: 16,
      front_merges: true,
    })
    expect(v.spec.processes[0].params.bs).toBe(65536)
    expect(v.spec.files).toEqual([{ name: 'r.dd', size: 655360 }])
    expect(v.spec.stop.processes).toEqual(['r'])
  })

  it('names the path and the problem of a bad tunable', () => {
    const doc = {
      ...base(),
      schedulers: ['noop', 'deadline', { name: 'deadline', label: 'dl-small', tunables: { fifo_batch: -3 } }],
    }
    expect(problems(doc)).toEqual(['schedulers[2].tunables.fifo_batch: expected a positive integer, got -3'])
  })

  it('treats unknown keys as errors at every level', () => {
    expect(problems({ ...base(), colour: 'red' })).toEqual(['colour: unknown key'])
    const v = problems({
      ...base(),
      device: { preset: 'hdd-7200-sata', overrides: { rpmm: 5400 } },
      schedulers: [{ name: 'deadline', tunables: { fifo_bach: 4 } }],
    })
    expect(v.some((l) => l.startsWith('device.overrides.rpmm: unknown key'))).toBe(true)
    expect(
      v.some((l) =>
        /^schedulers\[0\]\.tunables\.fifo_bach: unknown key; expected one of: read_expire/.test(l),
      ),
    ).toBe(true)
  })

  it('lists what is known when a name is unknown', () => {
    expect(problems({ ...base(), schedulers: ['cfqq'] })[0]).toMatch(
      /^schedulers\[0\]: unknown scheduler "cfqq"; known: noop, none, deadline/,
    )
    expect(problems({ ...base(), device: { preset: 'floppy' } })[0]).toMatch(
      /^device\.preset: unknown device preset "floppy"/,
    )
    const w = base()
    w.workload.processes[0].type = 'bonnie'
    expect(problems(w)[0]).toMatch(
      /^workload\.processes\[0\]\.type: unknown workload "bonnie"; known: dd, cat/,
    )
    expect(problems({ ...base(), host: { preset: 'amiga' } })[0]).toMatch(
      /^host\.preset: unknown host preset "amiga"/,
    )
  })

  it('accepts kernel aliases and the same scheduler twice with distinct labels', () => {
    const v = validateSpec({
      ...base(),
      schedulers: ['as', { name: 'deadline', label: 'dl-4', tunables: { fifo_batch: 4 } }, 'deadline'],
    })
    expect(v.ok).toBe(true)
    if (v.ok)
      expect(v.spec.schedulers.map((s) => [s.name, s.label])).toEqual([
        ['anticipatory', 'as'],
        ['deadline', 'dl-4'],
        ['deadline', 'deadline'],
      ])
  })

  it('refuses two entries with the same label', () => {
    expect(
      problems({ ...base(), schedulers: ['deadline', { name: 'deadline', tunables: { fifo_batch: 4 } }] }),
    ).toEqual(['schedulers[1]: label "deadline" is also used by schedulers[0]; give each a distinct "label"'])
  })

  it('checks types, sizes and cross-references', () => {
    const doc = base() as Record<string, unknown>
    doc.repetitions = 0
    doc.seed = 'x'
    expect(problems(doc)).toEqual([
      'repetitions: expected a positive integer, got 0',
      'seed: expected a number, got "x"',
    ])
    const w = base()
    w.workload.processes[0].params = { bs: 'huge', count: 10 }
    expect(problems(w)).toEqual([
      'workload.processes[0].params.bs: expected a size (bytes, or like "4k", "1M"), got "huge"',
    ])
    const s = { ...base(), workload: { ...base().workload, stop: { processes: ['writer'] } } }
    expect(problems(s)).toEqual(['workload.stop.processes[0]: no process named "writer"'])
    const f = { ...base(), workload: { ...base().workload, files: [{ name: 'r.dd', size: '4k' }] } }
    expect(problems(f)[0]).toMatch(
      /^workload\.files\[0\]\.size: 4096 bytes is smaller than workload\.processes\[0\] needs/,
    )
    expect(problems({ schedulers: ['noop'] })).toEqual([
      'device: missing (expected an object)',
      'workload: missing (expected an object)',
    ])
  })

  it('runs workload-specific checks', () => {
    const doc = {
      ...base(),
      workload: { processes: [{ name: 'f', type: 'fio', params: { rw: 'randread', iodepth: 32 } }] },
    }
    expect(problems(doc)).toEqual([
      'workload.processes[0].params.iodepth: iodepth 32 needs an asynchronous ioengine (libaio or io_uring), not psync',
    ])
  })

  it('accepts the shipped flagship example', () => {
    const doc = JSON.parse(
      readFileSync(new URL('../../examples/streaming-read-under-write-2003.json', import.meta.url), 'utf8'),
    )
    const v = validateSpec(doc)
    expect(v.ok ? [] : v.issues).toEqual([])
  })
})

describe('process groups', () => {
  it('folds a workload’s instances into one row: bytes add up, time is the longest', async () => {
    const { simulate } = await import('../../src/shared/experiment/runner')
    const { groupProcesses } = await import('../../src/shared/experiment/process-groups')
    const v = validateSpec({
      device: { preset: 'nullblk' },
      workload: {
        processes: [{ name: 'rr', type: 'random-read', params: { processes: 3, count: 40, direct: true } }],
      },
      schedulers: ['noop'],
    })
    if (!v.ok) throw new Error('invalid')
    const run = simulate(v.spec, 0, 0)
    const g = groupProcesses(run)
    expect(run.processes).toHaveLength(3)
    expect(g.processes.map((p) => p.name)).toEqual(['rr'])
    expect(g.processes[0].bytes).toBe(3 * 40 * 4096)
    expect(g.processes[0].ops).toBe(120)
    expect(g.processes[0].seconds).toBe(Math.max(...run.processes.map((p) => p.seconds)))
    expect(g.processes[0].latencyMs.max).toBe(Math.max(...run.processes.map((p) => p.latencyMs.max)))
  })
})
