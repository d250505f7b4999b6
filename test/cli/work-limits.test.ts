import { describe, expect, it, vi } from 'vitest'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ProgressBar } from '../../src/cli/progress'

const root = join(import.meta.dirname, '../..')
const cli = (...args: string[]) => {
  const r = spawnSync(process.execPath, [join(root, 'bin/iosched-lab.mjs'), ...args], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  })
  return { code: r.status, out: r.stdout, err: r.stderr }
}
const dir = mkdtempSync(join(tmpdir(), 'iosched-limits-'))
const write = (name: string, spec: unknown): string => {
  const f = join(dir, name)
  writeFileSync(f, JSON.stringify(spec))
  return f
}

describe('run and the work limits', () => {
  it('refuses an effectively unbounded run up front, with the reason and the way past it', () => {
    const huge = write('huge.json', {
      device: { preset: 'ssd-sata-mlc' },
      workload: {
        processes: [{ name: 'rr', type: 'random-read', params: { count: 1e12 } }],
        stop: { maxSeconds: 1e7 },
      },
      schedulers: ['noop'],
    })
    const r = cli('run', huge)
    expect(r.code).toBe(2)
    expect(r.out).toBe('')
    expect(r.err.trim().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(
          `^iosched-lab: ${huge}: the run is refused before it starts: .*run it anyway with --allow-large$`,
        ),
      ),
      expect.stringMatching(
        /^iosched-lab: .*: up to 1e12 I\/O requests in one run: the I\/O its processes ask for, which its time limit of 1e7 s simulated does not cut short: more than the limit of 1e9 requests/,
      ),
    ])
  })

  it('runs beyond a limit with --allow-large', () => {
    // 4098 simulated processes (limit 4096), one read each: small work, many processes
    const many = write('many.json', {
      device: { preset: 'ssd-sata-mlc' },
      workload: {
        processes: ['a', 'b'].map((name) => ({
          name,
          type: 'random-read',
          params: { processes: 2049, count: 1, size: '1M' },
        })),
      },
      schedulers: ['noop'],
    })
    const refused = cli('run', many, '--csv')
    expect(refused.code).toBe(2)
    expect(refused.err).toContain(
      '4,098 simulated processes in one run: more than the limit of 4,096 processes',
    )
    const r = cli('run', many, '--csv', '--allow-large', '--jobs', '0')
    expect(r.err).toBe('')
    expect(r.code).toBe(0)
    // one row per process
    expect(r.out.trim().split('\n')).toHaveLength(1 + 4098)
  })
})

describe('the progress bar', () => {
  it('shows the simulated time reached against the run’s bound', () => {
    vi.useFakeTimers()
    try {
      const written: string[] = []
      const out = { isTTY: true, write: (s: string) => written.push(s) } as unknown as NodeJS.WriteStream
      const bar = new ProgressBar(out, 0)
      bar.update('noop', 0.25, 12.34, 600)
      bar.update('deadline', 0.5, 3, null)
      vi.advanceTimersByTime(150)
      bar.done()
      const text = written.join('')
      expect(text).toMatch(/noop\s+\[#{8}\.{22}\]\s+25%\s+12\.3 of 600 s simulated/)
      expect(text).toMatch(/deadline\s+\[#{15}\.{15}\]\s+50%\s+3\.0 s simulated/)
    } finally {
      vi.useRealTimers()
    }
  })
})
