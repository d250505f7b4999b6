import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { BONNIE_103, DD_BSD_1997, FIO_MINI, KDISKMARK } from '../formats/fixtures'
import { scratchDir } from '../formats/tools'

const root = new URL('../..', import.meta.url).pathname
const cli = (...args: string[]) => {
  const r = spawnSync(process.execPath, [join(root, 'bin/iosched-lab.mjs'), ...args], {
    cwd: root,
    encoding: 'utf8',
  })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

describe('iosched-lab import', () => {
  const scratch = scratchDir('iosched-import-cli-')
  const file = (name: string, text: string): string => {
    const p = join(scratch.dir, name)
    writeFileSync(p, text)
    return p
  }
  let bonnie = ''
  let dd = ''
  let fio = ''
  let kdm = ''
  beforeAll(() => {
    bonnie = file('disk-a.csv', BONNIE_103)
    dd = file('quantum.txt', DD_BSD_1997)
    fio = file('mini.json', FIO_MINI)
    kdm = file('ssd.txt', KDISKMARK)
  })
  afterAll(() => scratch.remove())

  it('prints per run the figures with their units', () => {
    const r = cli('import', bonnie, dd, kdm)
    expect(r.err).toBe('')
    expect(r.code).toBe(0)
    expect(r.out).toContain(`${bonnie}: bonnie++ 1.03 (bonnie-csv), 2 runs`)
    expect(r.out).toMatch(/put_block\s+25497\s+K\/s/)
    expect(r.out).toMatch(/seq_stat\s+not measured\s+\/s/)
    expect(r.out).toContain('note: seq_stat: +++++ (too fast to measure): no phase')
    expect(r.out).toContain(`${dd}: BSD dd (dd), 3 runs`)
    expect(r.out).toMatch(/throughput as printed\s+10751652\s+bytes\/sec/)
    expect(r.out).toMatch(/read SEQ1M Q8T1 as printed\s+512\s+MB\/s \(KiB\/s ÷ 1000\)/)
    expect(r.out).toMatch(/read SEQ1M Q8T1\s+524\.3\s+MB\/s/)
  })

  it('prints the runs as JSON with --json', () => {
    const r = cli('import', fio, dd, '--json', '--scheduler', 'deadline')
    expect(r.code).toBe(0)
    const doc = JSON.parse(r.out)
    expect(doc.schema).toBe('iosched-lab/import@1')
    expect(doc.files.map((f: { format: string }) => f.format)).toEqual(['fio-json', 'dd'])
    const run = doc.files[0].runs[0]
    expect(run).toMatchObject({
      schema: 'iosched-lab/run@1',
      source: 'real',
      scheduler: 'deadline',
      label: 'mini',
    })
    expect(run.imported).toMatchObject({ tool: 'fio', version: '3.33', file: fio })
    expect(run.processes.map((p: { name: string }) => p.name)).toEqual(['reader', 'writer'])
    expect(doc.files[1].runs).toHaveLength(3)
    expect(doc.files[1].metrics[0][0]).toEqual({ name: 'bytes', value: 134217728, unit: 'bytes' })
  })

  it('numbers repetitions across files with the same label', () => {
    const again = file('disk-a-again.csv', BONNIE_103)
    const doc = JSON.parse(cli('import', bonnie, again, '--label', 'disk A', '--json').out)
    const reps = doc.files.flatMap((f: { runs: { label: string; repetition: number }[] }) =>
      f.runs.map((r) => `${r.label} #${r.repetition}`),
    )
    expect(reps).toEqual(['disk A #0', 'disk A #1', 'disk A #2', 'disk A #3'])
  })

  it('names the file, line and field of a malformed input and exits with 2', () => {
    const bad = file('bad.csv', BONNIE_103.replace('25497,15', '25497,1x5'))
    const r = cli('import', bad, dd)
    expect(r.code).toBe(2)
    expect(r.err.trim()).toBe(
      `${bad}: line 5, field put_block_cpu (column 6): put_block %CPU: expected a number or +++, got "1x5"`,
    )
    expect(r.out).toContain('BSD dd') // the good file is still read
    const missing = cli('import', join(scratch.dir, 'nope.txt'))
    expect(missing.code).toBe(2)
    expect(missing.err).toContain('nope.txt: cannot read: no such file')
    const unknown = cli('import', file('notes.md', 'just some notes\n'))
    expect(unknown.code).toBe(2)
    expect(unknown.err).toMatch(/notes\.md: line 1: unrecognised format/)
    expect(cli('import').code).toBe(2)
    expect(cli('import', dd, '--format', 'csv').err).toContain('--format expects one of')
  })
})
