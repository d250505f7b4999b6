import { afterAll, beforeAll, expect, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { cleanupDir, cliPath, describeReal, KERNEL_OFFERED, loopsUnder, root, tempDir } from './real-env'

describeReal('iosched-lab quick --real on a scratch loop device (root)', () => {
  let dir = ''
  const cli = (args: string[]) => {
    const r = spawnSync(process.execPath, [cliPath, ...args], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, IOSCHED_LAB_STATE_DIR: join(dir, 'state'), IOSCHED_LAB_SCRATCH_DIR: dir },
      maxBuffer: 1 << 26,
    })
    return { code: r.status, out: r.stdout, err: r.stderr }
  }
  // two sets, 1 s per test, a 4 MiB test file: about 5 s of fio per scheduler
  const quick = ['quick', 'seq1m-q1t1', 'rnd4k-q32t16', '--measure', '1', '--interval', '0.5', '--size', '4M']

  beforeAll(() => {
    dir = tempDir('iosched-quick-real-')
    mkdirSync(join(dir, 'state'))
  })
  afterAll(() => cleanupDir(dir))

  it('shows the one fio job file of the chained tests without running (--dry-run)', () => {
    const r = cli([...quick, '--real', '--dry-run', '--show-job', '--schedulers', 'none'])
    expect(r.err).toBe('')
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/^\[SEQ1M_Q1T1_read\]$/m)
    expect(r.out).toMatch(/^\[RND4K_Q32T16_write\/15\]$/m)
    expect(r.out).toMatch(/^startdelay=1500ms$/m)
    expect(r.out).toContain('ioengine=libaio')
    expect(r.out).toContain('end_fsync=1')
  })

  it('runs the tests for real with run --real’s runner and prints the disk-mark-like summary', () => {
    const two = KERNEL_OFFERED.includes('mq-deadline') ? ['none', 'mq-deadline'] : ['none']
    const r = cli([...quick, '--real', '--no-trace', '--schedulers', two.join(',')])
    expect(r.err).not.toContain('run failed')
    expect(r.code).toBe(0)
    const lines = r.out.split('\n')
    expect(lines[0]).toMatch(/^Quick tests — for real with fio; 1 s per test, 4\.00 MiB test file/)
    const header = lines.find((l) => l.startsWith('test'))!.split(/\s{2,}/)
    expect(header.slice(1, 4)).toEqual([
      'none (real) read MB/s',
      'none (real) write MB/s',
      'none (real) IOPS r/w',
    ])
    for (const t of ['SEQ1M Q1T1', 'RND4K Q32T16']) {
      const row = lines.find((l) => l.startsWith(t + ' '))!.split(/\s{2,}/)
      expect(row).toHaveLength(1 + 3 * two.length)
      expect(Number(row[1])).toBeGreaterThan(0)
      expect(Number(row[2])).toBeGreaterThan(0)
      const [ri, wi] = row[3].split('/').map(Number)
      expect(ri).toBeGreaterThan(0)
      expect(wi).toBeGreaterThan(0)
    }
    // the scratch device went away with the run
    expect(loopsUnder(dir)).toEqual([])
  }, 120_000)
})
