import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { scratchDir } from '../formats/tools'

const root = new URL('../..', import.meta.url).pathname
const cli = (...args: string[]) => {
  const r = spawnSync(process.execPath, [join(root, 'bin/iosched-lab.mjs'), ...args], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

describe('iosched-lab report', () => {
  const scratch = scratchDir('iosched-report-cli-')
  const result = join(scratch.dir, 'result.json')
  beforeAll(() => {
    const spec = {
      name: 'small write, two schedulers',
      device: { preset: 'hdd-2003-ide' },
      workload: {
        files: [{ name: 'f', size: '16M' }],
        processes: [{ name: 'writer', type: 'dd', params: { op: 'write', file: 'f', bs: '1M', count: 16 } }],
      },
      schedulers: ['noop', 'deadline'],
      repetitions: 2,
      seed: 7,
    }
    writeFileSync(join(scratch.dir, 'spec.json'), JSON.stringify(spec))
    const r = cli('run', join(scratch.dir, 'spec.json'), '--json', '--jobs', '0')
    expect(r.code).toBe(0)
    writeFileSync(result, r.out)
  }, 120_000)
  afterAll(() => scratch.remove())

  it('prints the mailing-list text by default', () => {
    const r = cli('report', result)
    expect(r.code).toBe(0)
    expect(r.out).toContain('small write, two schedulers')
    expect(r.out).toMatch(/^noop\s+\S+ \S+\s+\S+/m)
    expect(r.out).toMatch(/^deadline\s/m)
    expect(r.out).toContain('device preset: hdd-2003-ide')
    // the workload and the tunables, from the spec the run's document carries: enough to repeat it
    expect(r.out).toContain('workload:\n  files: f 16M\n  writer: dd op=write file=f bs=1M count=16\n')
    expect(r.out).not.toContain('not recorded')
    expect(r.out).toContain(
      'schedulers and tunables:\n  noop: noop, defaults\n  deadline: deadline, defaults',
    )
  })

  it('writes HTML, CSV and JSON, to a file with -o', () => {
    const html = join(scratch.dir, 'r.html')
    const w = cli('report', result, '--html', '-o', html)
    expect(w.code).toBe(0)
    expect(w.err).toContain(`wrote ${html}`)
    const page = readFileSync(html, 'utf8')
    expect(page).toContain('<svg')
    expect(page).not.toMatch(/<script/i)
    // the spec as run, folded at the end
    expect(page).toMatch(/<details id="spec"><summary>The spec as run[^<]*<\/summary>\s*<pre>\{/)
    const csv = cli('report', result, '--csv')
    expect(csv.out.trimEnd().split('\n')).toHaveLength(1 + 4)
    expect(JSON.parse(cli('report', result, '--json').out).schema).toBe('iosched-lab/report@1')
  })

  it('says what is wrong with its input, exit status 2', () => {
    const bad = join(scratch.dir, 'bad.json')
    writeFileSync(bad, '{"schema": "nope"}')
    const r = cli('report', bad)
    expect(r.code).toBe(2)
    expect(r.err).toContain(`${bad}: unknown document "nope"`)
    writeFileSync(bad, '{"schema": ')
    expect(cli('report', bad).err).toContain(`${bad}: `)
    expect(cli('report', result, '--html', '--csv').code).toBe(2)
    expect(cli('report').code).toBe(2)
  })
})
