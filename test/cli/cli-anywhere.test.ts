// The command line from any working directory: its simulation children must not depend on it
// (Node resolves a bare `--import tsx` from the working directory, not from the lab's files).
import { spawnSync } from 'node:child_process'
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { execArgvFor } from '../../src/main/services/simulation-worker'
import { quickSpec } from '../api/fixtures'

const root = join(import.meta.dirname, '../..')
const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

/** A fresh directory outside the checkout, holding the quick spec. */
function elsewhere(): string {
  const d = realpathSync(mkdtempSync(join(tmpdir(), 'iosched-elsewhere-')))
  dirs.push(d)
  writeFileSync(join(d, 'quick.json'), JSON.stringify(quickSpec))
  return d
}

describe('the command line outside the checkout', () => {
  it('runs a spec named relative to another working directory: every scheduler simulated', () => {
    const cwd = elsewhere()
    const r = spawnSync(
      process.execPath,
      [join(root, 'bin/iosched-lab.mjs'), 'run', 'quick.json', '--json'],
      {
        cwd,
        encoding: 'utf8',
      },
    )
    expect(r.stderr).not.toContain('run failed')
    expect(r.status).toBe(0)
    const doc = JSON.parse(r.stdout) as { schedulers: { label: string }[] }
    expect(doc.schedulers.map((s) => s.label)).toEqual(['noop', 'deadline-fb4'])
  }, 60_000)

  it('starts simulation children from the TypeScript sources, whatever the working directory', () => {
    const cwd = elsewhere()
    const script = join(import.meta.dirname, 'pool-elsewhere.ts')
    const r = spawnSync(process.execPath, [...execArgvFor(script), script], { cwd, encoding: 'utf8' })
    expect(r.status, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual({ cwd, done: ['noop', 'deadline-fb4'], failures: [] })
  }, 60_000)

  it('names tsx’s loader by an absolute file URL, and nothing for built JavaScript', () => {
    const [flag, loader] = execArgvFor('/x/simulate.ts')
    expect(flag).toBe('--import')
    expect(loader).toMatch(/^file:\/\/\/.*\/node_modules\/tsx\//)
    expect(execArgvFor('/x/simulate.js')).toEqual([])
  })
})
