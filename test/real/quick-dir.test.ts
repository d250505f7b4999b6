import { afterAll, beforeAll, expect, it } from 'vitest'
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  activeScheduler,
  cleanupDir,
  cliPath,
  createLoop,
  describeReal,
  KERNEL_OFFERED,
  OTHER_SCHEDULER,
  root,
  tempDir,
  waitFor,
} from './real-env'

/**
 * `quick --real --dir DIR` for real: an ext4 file system of the test's own on a loop device of its
 * own, mounted in a temp directory; the lab's test file goes into a directory there, the loop
 * device's scheduler is the one switched and restored, the file is removed — after a run and
 * after a cancel.
 */
describeReal('iosched-lab quick --real --dir: a test file on a file system (root)', () => {
  let dir = ''
  let mnt = ''
  let bench = ''
  let loop = { device: '', name: '', file: '' }
  let mounted = false
  const env = () => ({ ...process.env, IOSCHED_LAB_STATE_DIR: join(dir, 'state') })
  const cli = (args: string[]) => {
    const r = spawnSync(process.execPath, [cliPath, ...args], {
      cwd: root,
      encoding: 'utf8',
      env: env(),
      maxBuffer: 1 << 26,
    })
    return { code: r.status, out: r.stdout, err: r.stderr }
  }
  const quick = ['quick', 'seq1m-q1t1', 'rnd4k-q32t16', '--measure', '1', '--interval', '0.5', '--size', '4M']

  beforeAll(() => {
    dir = tempDir('iosched-quick-dir-')
    mkdirSync(join(dir, 'state'))
    loop = createLoop(dir, 160)
    execFileSync('mkfs.ext4', ['-q', '-F', loop.device])
    mnt = join(dir, 'mnt')
    mkdirSync(mnt)
    execFileSync('mount', [loop.device, mnt])
    mounted = true
    bench = join(mnt, 'bench')
    mkdirSync(bench)
    // a known scheduler to come back to
    execFileSync('sh', ['-c', `echo mq-deadline > /sys/block/${loop.name}/queue/scheduler`])
  })
  afterAll(() => {
    if (mounted) spawnSync('umount', [mnt])
    cleanupDir(dir)
  })

  it('shows the job on the test file and the device it switches, without running (--dry-run)', () => {
    const r = cli([...quick, '--real', '--dir', bench, '--dry-run', '--show-job', '--schedulers', 'none'])
    expect(r.code).toBe(0)
    expect(r.out).toMatch(new RegExp(`^filename=${bench}/iosched-lab-run-XXXXXX/iosched-lab\\.test$`, 'm'))
    expect(r.out).toContain(`the scheduler of /dev/${loop.name} is switched`)
    // the ranges start at the file's first byte
    expect(r.out).toMatch(/^offset=0$/m)
    expect(readdirSync(bench)).toEqual([])
  })

  it('refuses a directory with too little room, one that is missing, and a tmpfs, saying why', () => {
    const big = cli([...quick, '--size', '1G', '--real', '--dir', bench, '--dry-run'])
    expect(big.code).not.toBe(0)
    expect(big.err).toMatch(new RegExp(`${bench} has \\d+ MiB free, too little for the 1\\.0 GiB test file`))
    const missing = cli([...quick, '--real', '--dir', join(bench, 'nope'), '--dry-run'])
    expect(missing.err).toContain(`${join(bench, 'nope')} does not exist`)
    const shm = cli([...quick, '--real', '--dir', '/dev/shm', '--dry-run'])
    expect(shm.err).toContain('/dev/shm is on tmpfs mounted at /dev/shm')
    expect(shm.err).toContain('no disk and no I/O scheduler is under it')
  })

  it('runs the tests on a test file there, records the file system, removes the file and restores the scheduler', () => {
    const two = ['none', OTHER_SCHEDULER].filter((s) => KERNEL_OFFERED.includes(s))
    const r = cli([...quick, '--real', '--dir', bench, '--no-trace', '--schedulers', two.join(','), '--json'])
    expect(r.err).not.toContain('run failed')
    expect(r.code).toBe(0)
    const doc = JSON.parse(r.out) as {
      summary: { rows: { test: string; cells: Record<string, { readMBps: number; writeIops: number }> }[] }
      result: {
        runs: {
          label: string
          real: {
            target: { kind: string; name: string; path: string }
            kernelScheduler: string
            observedScheduler: string
            jobFile: string
            system: {
              device: { name: string }
              file: { path: string; fileSystem: { type: string; mountPoint: string; options: string } }
            }
          }
        }[]
      }
    }
    const runs = doc.result.runs.filter((x) => x.real)
    expect(runs.map((x) => x.real.kernelScheduler).sort()).toEqual([...two].sort())
    for (const run of runs) {
      expect(run.real.target.kind).toBe('file')
      expect(run.real.target.name).toBe(loop.name)
      expect(run.real.target.path.startsWith(`${bench}/iosched-lab-run-`)).toBe(true)
      expect(run.real.observedScheduler).toBe(run.real.kernelScheduler)
      expect(run.real.jobFile).toContain(`filename=${run.real.target.path}`)
      expect(run.real.system.device.name).toBe(loop.name)
      expect(run.real.system.file.path).toBe(run.real.target.path)
      expect(run.real.system.file.fileSystem.type).toBe('ext4')
      expect(run.real.system.file.fileSystem.mountPoint).toBe(mnt)
      expect(run.real.system.file.fileSystem.options).toMatch(/^rw/)
    }
    for (const t of ['SEQ1M Q1T1', 'RND4K Q32T16']) {
      const row = doc.summary.rows.find((x) => x.test === t)!
      for (const s of two) {
        expect(row.cells[`${s} (real)`].readMBps).toBeGreaterThan(0)
        expect(row.cells[`${s} (real)`].writeIops).toBeGreaterThan(0)
      }
    }
    // nothing left behind: the file and its directory went, the scheduler is the one before
    expect(readdirSync(bench)).toEqual([])
    expect(activeScheduler(loop.name)).toBe('mq-deadline')
    expect(readdirSync(join(dir, 'state')).filter((f) => f.endsWith('.json'))).toEqual([])
  }, 120_000)

  it('removes the test file and restores the scheduler when cancelled during the run', async () => {
    const p = spawn(
      process.execPath,
      [cliPath, 'quick', 'seq1m-q1t1', '--measure', '30', '--size', '4M', '--real', '--dir', bench],
      { cwd: root, env: env(), stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let err = ''
    p.stderr.on('data', (d: Buffer) => (err += d.toString()))
    const done = new Promise<number | null>((res) => p.on('exit', (c) => res(c)))
    // fio runs on the file: the scheduler is switched to the first entry's
    await waitFor(
      () =>
        readdirSync(bench).length > 0 && activeScheduler(loop.name) === 'none' && /\(kernel none\)/.test(err),
      60_000,
      'the run to start on the test file',
    )
    const own = join(bench, readdirSync(bench)[0])
    expect(existsSync(join(own, 'iosched-lab.test'))).toBe(true)
    p.kill('SIGINT')
    expect(await done).toBe(130)
    expect(readdirSync(bench)).toEqual([])
    expect(activeScheduler(loop.name)).toBe('mq-deadline')
    // no fio left holding the file system
    const holders = spawnSync('fuser', ['-m', mnt], { encoding: 'utf8' })
    expect((holders.stdout ?? '').trim()).toBe('')
    expect(readFileSync('/proc/mounts', 'utf8')).toContain(mnt)
    // nor its tracer (a cancel while the trace started once left it, and the scheduler switched)
    const instances = spawnSync('ls', ['/sys/kernel/tracing/instances'], { encoding: 'utf8' }).stdout ?? ''
    expect(instances.split('\n').filter((n) => n.startsWith(`iosched-lab-${p.pid}-`))).toEqual([])
  }, 120_000)
})
