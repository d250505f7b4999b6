import { afterAll, beforeAll, expect, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { findExecutable } from '../../src/main/services/real/exec'
import {
  cleanupDir,
  cliPath,
  createLoop,
  describeReal,
  loopsUnder,
  readWhileWriting,
  root,
  tempDir,
} from './real-env'

describeReal('iosched-lab run --real and friends on the command line (root)', () => {
  let dir = ''
  const env = () => ({
    ...process.env,
    IOSCHED_LAB_STATE_DIR: join(dir, 'state'),
    IOSCHED_LAB_SCRATCH_DIR: dir,
  })
  const cli = (args: string[], as?: string) => {
    const cmd = as ? 'runuser' : process.execPath
    const argv = as
      ? ['-u', as, '--', 'env', `HOME=${dir}`, process.execPath, cliPath, ...args]
      : [cliPath, ...args]
    const r = spawnSync(cmd, argv, { cwd: root, encoding: 'utf8', env: env(), maxBuffer: 1 << 26 })
    return { code: r.status, out: r.stdout, err: r.stderr }
  }
  const spec = () => join(dir, 'spec.json')

  beforeAll(() => {
    dir = tempDir('iosched-cli-real-')
    chmodSync(dir, 0o755)
    mkdirSync(join(dir, 'state'))
    writeFileSync(spec(), JSON.stringify(readWhileWriting(1.5, ['noop', 'kyber'])))
    chmodSync(spec(), 0o644)
  })
  afterAll(() => cleanupDir(dir))

  it('shows the job file and the exact command without running (--dry-run)', () => {
    const r = cli(['run', spec(), '--real', '--show-job', '--dry-run', '--fio-arg=--status-interval=1'])
    expect(r.code).toBe(0)
    expect(r.out).toContain('[global]')
    expect(r.out).toMatch(/^\[writer\]$/m)
    expect(r.out).toContain('filename=/dev/loopN')
    expect(r.out).toMatch(
      /^fio --output-format=json\+ --output=\S+ --eta=always --eta-newline=1 --eta-interval=500ms --status-interval=1 \S+\.fio$/m,
    )
  })

  it('previews the job the run would use on a device, and says when the run would refuse', () => {
    const disk = createLoop(dir, 256, 'preview.img')
    try {
      const raw = join(dir, 'raw.json')
      writeFileSync(
        raw,
        JSON.stringify({
          device: { preset: 'ssd-sata-mlc' },
          workload: {
            processes: [{ name: 'rr', type: 'random-read', params: { file: '/dev', bs: '4k', count: 10 } }],
          },
          schedulers: ['noop'],
        }),
      )
      // a /dev region is the whole device, as in the real run (not the spec's 0 bytes of files)
      const reads = cli(['run', raw, '--real', '--dry-run', '--device', disk.name])
      expect(reads.err).toBe('')
      expect(reads.code).toBe(0)
      expect(reads.out).toContain(`filename=${disk.device}`)
      expect(reads.out).toMatch(/^size=256m$/m)
      // writes without the typed name: the preview refuses as the run would, with its status
      const writes = cli(['run', spec(), '--real', '--dry-run', '--device', disk.name])
      expect(writes.code).toBe(2)
      expect(writes.out).toContain(`filename=${disk.device}`)
      expect(writes.err).toContain(
        `iosched-lab: the real run would refuse: refusing ${disk.device}: the workload writes to the whole device`,
      )
      const shown = cli(['run', spec(), '--real', '--show-job', '--device', disk.name])
      expect(shown.code).toBe(2)
      expect(shown.err).toContain('the real run would refuse')
      expect(
        cli(['run', spec(), '--real', '--dry-run', '--device', disk.name, '--confirm', disk.name]).code,
      ).toBe(0)
      expect(cli(['run', spec(), '--real', '--dry-run', '--device', 'nosuchdisk']).err).toContain(
        'the real run would refuse: there is no block device named "nosuchdisk"',
      )
    } finally {
      spawnSync('losetup', ['--detach', disk.device])
    }
  })

  it('prints simulated and real runs side by side (--also-simulate)', () => {
    const r = cli(['run', spec(), '--real', '--also-simulate'])
    expect(r.err).not.toContain('run failed')
    expect(r.code).toBe(0)
    const lines = r.out.split('\n')
    expect(lines[0]).toMatch(
      /^read-while-writing — ssd-sata-mlc \(simulated\) vs scratch loop device \/dev\/loop\d+ .* \(real\)/,
    )
    const rows = lines.map((l) => l.split(/\s{2,}/)[0])
    expect(rows).toEqual(expect.arrayContaining(['noop', 'noop (real)', 'kyber (real)']))
    expect(rows.indexOf('noop (real)')).toBe(rows.indexOf('noop') + 1)
    expect(r.out).toContain('note: noop runs as "none" on blk-mq kernels')
    // the real runs' stages say what traced them: blktrace, or the tracepoints where it could not
    // (the trace notes say so; this machine's kernel refuses blktrace's relay files)
    const text = r.out.replace(/\s+/g, ' ')
    const tracefs = text.includes('traced through the kernel’s block tracepoints (a tracefs instance)')
    expect(text).toContain(
      `D2C device; real runs, traced with ${tracefs ? "the kernel's block tracepoints via tracefs, where blktrace could not trace" : 'blktrace'}):`,
    )
    // the real runs' request stages beside their simulated companion's, each scheduler a row, and
    // an explanation of each kind with its mechanism named
    expect(text).toContain('D2C device; simulated runs):')
    const stageRow = (label: string): number[] | undefined => {
      const m = new RegExp(
        `^${label.replace(/[()]/g, '\\$&')}\\s+(\\d+)((?:\\s+[\\d.e-]+){4})\\s+\\d+$`,
        'm',
      ).exec(r.out)
      return m ? [Number(m[1]), ...m[2].trim().split(/\s+/).map(Number)] : undefined
    }
    for (const label of ['noop', 'kyber', 'noop (real)', 'kyber (real)']) {
      const row = stageRow(label)
      expect(row, `${label}'s stages in\n${r.out}`).toBeDefined()
      const [requests, q2g, i2d, d2c, q2c] = row!
      expect(requests).toBeGreaterThan(0)
      expect(d2c).toBeGreaterThan(0)
      // the stages shown are within Q2C (G2I, not shown, is the rest; means of three digits)
      expect(q2g + i2d + d2c).toBeLessThanOrEqual(q2c * 1.002)
    }
    expect(r.out).toMatch(/^why \([a-z -]+; simulated runs\):$/m)
    expect(r.out).toMatch(/^why \([a-z -]+; real runs\):$/m)
    expect(loopsUnder(dir)).toEqual([])
  }, 90_000)

  it('simulates the companion on the host the real rows ran on, not the spec’s (--also-simulate)', () => {
    const other = join(dir, 'spec-2003-host.json')
    writeFileSync(other, JSON.stringify({ ...readWhileWriting(1, ['noop']), host: { preset: 'linux-2003' } }))
    chmodSync(other, 0o644)
    const r = cli(['run', other, '--real', '--also-simulate', '--max-seconds', '1'])
    expect(r.code).toBe(0)
    expect(r.err).toMatch(
      /note: the simulated rows run on the host the real rows ran on \(linux-modern with this machine, captured now\), not on the spec's linux-2003/,
    )
    expect(r.out.split('\n')[0]).toMatch(/host linux-modern \(simulated\)/)
    expect(loopsUnder(dir)).toEqual([])
  }, 90_000)

  it('writes the run --json document with source "real" and the real run’s facts', () => {
    const r = cli(['run', spec(), '--real', '--json', '--max-seconds', '1'])
    expect(r.code).toBe(0)
    const doc = JSON.parse(r.out)
    expect(doc.schema).toBe('iosched-lab/run-output@1')
    expect(doc.schedulers.map((s: { source: string }) => s.source)).toEqual(['real', 'real'])
    expect(doc.real.target.kind).toBe('scratch-loop')
    expect(doc.real.jobFile).toContain('[reader]')
    expect(doc.runs[1].real.kernelScheduler).toBe('kyber')
    expect(doc.runs[1].real.command[0]).toBe('fio')
    expect(doc.runs[0].processes.map((p: { name: string }) => p.name)).toEqual(['writer', 'reader'])
  }, 60_000)

  it('repeats each scheduler until stable, here to the cap (--until-stable)', () => {
    // a real device never repeats to within a millionth of a percent: every scheduler runs 3 times
    const r = cli([
      ...['run', spec(), '--real', '--json', '--max-seconds', '0.5'],
      ...['--until-stable', '--target-cv', '0.000001', '--max-repetitions', '3'],
    ])
    expect(r.err).not.toContain('run failed')
    expect(r.code).toBe(0)
    const doc = JSON.parse(r.out)
    expect(doc.untilStable).toEqual({ cvPercent: 0.000001, maxRepetitions: 3 })
    for (const s of doc.schedulers) {
      expect(s.repetitions).toBe(3)
      expect(s.stability).toMatchObject({ runs: 3, reason: 'run cap reached' })
    }
    const reps = (label: string) =>
      doc.runs
        .filter((x: { label: string }) => x.label === label)
        .map((x: { repetition: number }) => x.repetition)
    expect(reps('noop')).toEqual([0, 1, 2])
    expect(reps('kyber')).toEqual([0, 1, 2])
    // in the order they ran: rounds of both, each round starting one scheduler further on
    expect([...r.err.matchAll(/^real: (\w+ #\d)/gm)].map((m) => m[1])).toEqual([
      'noop #1',
      'kyber #1',
      'kyber #2',
      'noop #2',
      'noop #3',
      'kyber #3',
    ])
    expect(r.err).toMatch(/repeating until stable: noop: 2 runs, CV [\d.]+ % \(\w+\) — not stable yet/)
    expect(loopsUnder(dir)).toEqual([])
  }, 90_000)

  it('rejects extra fio options that would move the I/O', () => {
    const r = cli(['run', spec(), '--real', '--fio-arg=--filename=/dev/vda'])
    expect(r.code).toBe(2)
    expect(r.err).toContain('--fio-arg "--filename=/dev/vda" is not allowed: the lab chooses the device')
  })

  it.runIf(findExecutable('runuser') !== null)(
    'without root: says real runs need sudo, and simulation still works',
    () => {
      const r = cli(['run', spec(), '--real'], 'nobody')
      expect(r.code).toBe(1)
      expect(r.err).toContain('real device tests need root')
      expect(r.err).toContain('sudo')
      const s = cli(['run', spec()], 'nobody')
      expect(s.code).toBe(0)
      expect(s.out).toContain('noop')
    },
    60_000,
  )
})
