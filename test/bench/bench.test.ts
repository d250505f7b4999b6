import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { simulate } from '../../src/shared/experiment/runner'
import { resolveSpec } from '../../src/shared/experiment/validate'

// The benchmark's figures are not asserted (speed is measured, not tested); its output is a
// documented contract: `npm run bench -- --json` prints {"cases": [{name, scheduler, device,
// requestsPerSecond, peakMemoryMiB}, …]}. The flagship's three cases keep this quick.
describe('npm run bench -- --json', () => {
  it('prints one figure per case, each measured in a process of its own', () => {
    const root = fileURLToPath(new URL('../..', import.meta.url))
    const out = execFileSync(
      process.execPath,
      [
        '--expose-gc',
        '--import',
        'tsx',
        'bench/index.ts',
        '--quick',
        '--json',
        '--runs',
        '1',
        '--forks',
        '1',
        '--only',
        'streaming-read',
      ],
      { cwd: root, encoding: 'utf8' },
    )
    const { cases } = JSON.parse(out) as { cases: Record<string, unknown>[] }
    expect(cases.map((c) => c.scheduler)).toEqual(['noop', 'deadline', 'anticipatory'])
    for (const c of cases) {
      expect(c).toMatchObject({ name: 'streaming-read-under-write-2003', device: 'hdd-2003-ide' })
      expect(c.requestsPerSecond).toBeGreaterThan(0)
      expect(c.peakMemoryMiB).toBeGreaterThan(0)
      expect(c.requests).toBeGreaterThan(1000)
    }
    // what it counted is the run itself: the same spec and seed simulate the same run here
    const flagship = JSON.parse(readFileSync(`${root}/examples/streaming-read-under-write-2003.json`, 'utf8'))
    const run = simulate(resolveSpec({ ...flagship, schedulers: ['deadline'] }), 0, 0)
    expect(cases[1].requests).toBe(run.sim?.requests)
  }, 120_000)
})
