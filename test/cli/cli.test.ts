import { describe, expect, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { schedulers } from '../../src/shared/schedulers/registry'
import { workloads } from '../../src/shared/workloads/registry'

const root = new URL('../..', import.meta.url).pathname
const cli = (...args: string[]) => {
  const r = spawnSync(process.execPath, [join(root, 'bin/iosched-lab.mjs'), ...args], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  })
  return { code: r.status, out: r.stdout, err: r.stderr }
}
const example = 'examples/streaming-read-under-write-2003.json'

describe('iosched-lab command line', () => {
  it('runs the flagship example and prints the side-by-side table', () => {
    const r = cli('run', example)
    expect(r.code).toBe(0)
    const lines = r.out.split('\n')
    expect(lines[0]).toContain('streaming-read-under-write-2003 — hdd-2003-ide, host linux-2003')
    const header = lines.find((l) => l.startsWith('scheduler'))!
    expect(header).toContain('reader MB/s')
    expect(header).toContain('writer s')
    expect(header).toContain('dev rd MB/s')
    // IOPS beside MB/s, per process and for the device
    expect(header).toContain('reader MB/s  reader IOPS')
    expect(header).toContain('dev rd IOPS')
    expect(header).toContain('reader p50/p95/p99/max ms')
    const row = (name: string) =>
      lines
        .find((l) => l.startsWith(name + ' '))!
        .trim()
        .split(/\s{2,}/)
    expect(row('noop')).toHaveLength(13)
    expect(row('deadline')).toHaveLength(13)
    expect(row('noop')[2]).toMatch(/^[\d,.]+$/)
  }, 60_000)

  it('prints the documented JSON document with --json', () => {
    const r = cli('run', example, '--json')
    expect(r.code).toBe(0)
    const doc = JSON.parse(r.out)
    expect(doc.schema).toBe('iosched-lab/run-output@1')
    const listed = JSON.parse(readFileSync(join(root, example), 'utf8')).schedulers.map(
      (s: string | { label: string }) => (typeof s === 'string' ? s : s.label),
    )
    expect(doc.schedulers.map((s: { label: string }) => s.label)).toEqual(listed)
    for (const s of doc.schedulers) {
      expect(Object.keys(s.device)).toEqual(expect.arrayContaining(['readMBps', 'writeMBps']))
      const reader = s.processes.find((p: { name: string }) => p.name === 'reader')
      expect(reader).toMatchObject({ name: 'reader', finished: true })
      expect(reader.bytes).toBe(100 * 2 ** 20)
      expect(reader.MBps).toBeCloseTo(reader.bytes / 1e6 / reader.seconds, 6)
      for (const k of ['p50', 'p90', 'p99', 'p999', 'max']) expect(reader.latencyMs[k]).toBeGreaterThan(0)
    }
    // deadline lets the reader through far sooner than noop, which queues it behind the writeback flood
    const secs = (l: string) =>
      doc.schedulers
        .find((s: { label: string }) => s.label === l)
        .processes.find((p: { name: string }) => p.name === 'reader').seconds
    expect(secs('noop')).toBeGreaterThan(3 * secs('deadline'))
    expect(doc.runs).toHaveLength(listed.length)
    expect(doc.runs[0].schema).toBe('iosched-lab/run@1')
  }, 60_000)

  it('prints CSV with --csv, and mean ± CI with repetitions', () => {
    const dir = mkdtempSync(join(tmpdir(), 'iosched-cli-'))
    const spec = join(dir, 'reps.json')
    writeFileSync(
      spec,
      JSON.stringify({
        device: { preset: 'ssd-sata-mlc' },
        workload: {
          processes: [{ name: 'rr', type: 'random-read', params: { size: '64M', count: 200, direct: true } }],
        },
        schedulers: ['noop', 'deadline'],
        repetitions: 3,
      }),
    )
    const csv = cli('run', spec, '--csv')
    expect(csv.code).toBe(0)
    const lines = csv.out.trim().split('\n')
    expect(lines[0]).toBe(
      'label,scheduler,repetitions,process,bytes,seconds,MBps,p50_ms,p90_ms,p99_ms,p999_ms,max_ms,device_read_MBps,device_write_MBps',
    )
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 4).join(','))).toEqual([
      'noop,noop,3,rr',
      'deadline,deadline,3,rr',
    ])
    const table = cli('run', spec)
    expect(table.out).toContain('3 repetitions, mean ± 95 % CI')
    expect(table.out).toMatch(/noop\s+[\d.]+ ± [\d.]+/)
  }, 60_000)

  it('exits 2 with the place of the problem on bad input', () => {
    const dir = mkdtempSync(join(tmpdir(), 'iosched-cli-'))
    const bad = join(dir, 'bad.json')
    writeFileSync(
      bad,
      JSON.stringify({
        device: { preset: 'hdd-7200-sata' },
        workload: { processes: [{ name: 'r', type: 'dd' }] },
        schedulers: [{ name: 'deadline', tunables: { fifo_batch: -3 } }],
      }),
    )
    const r = cli('run', bad)
    expect(r.code).toBe(2)
    expect(r.err.trim()).toBe(
      `iosched-lab: ${bad}: schedulers[0].tunables.fifo_batch: expected a positive integer, got -3`,
    )
    const broken = join(dir, 'broken.json')
    writeFileSync(broken, '{\n  "device": { "preset": "x" },\n  oops\n}')
    const j = cli('run', broken)
    expect(j.code).toBe(2)
    expect(j.err).toMatch(/broken\.json: invalid JSON at line 3, column 3/)
    expect(cli('run', join(dir, 'missing.json')).err).toMatch(/missing\.json: cannot read: no such file/)
    expect(cli('frobnicate').code).toBe(2)
    expect(cli('run', example, '--json', '--csv').err).toMatch(/choose one of --json and --csv/)
  })

  it('lists the catalogue, as text and as JSON', () => {
    const t = cli('list')
    expect(t.code).toBe(0)
    expect(t.out).toContain('deadline')
    expect(t.out).toContain('fifo_batch')
    expect(t.out).toContain('hdd-2003-ide')
    const j = JSON.parse(cli('list', '--json').out)
    expect(j.schedulers.map((s: { name: string }) => s.name)).toEqual(schedulers.map((s) => s.name))
    const fb = j.schedulers
      .find((s: { name: string }) => s.name === 'deadline')
      .tunables.find((x: { name: string }) => x.name === 'fifo_batch')
    expect(fb).toMatchObject({ default: 16, unit: 'requests' })
    expect(j.devices.presets.map((p: { name: string }) => p.name)).toContain('emmc-4.5')
    expect(j.workloads.map((w: { name: string }) => w.name)).toEqual(workloads.map((w) => w.name))
    expect(j.workloads.map((w: { name: string }) => w.name)).toEqual(
      expect.arrayContaining(['dd', 'cat', 'fio']),
    )
  })

  it('repeats each scheduler until stable (--until-stable), and says how many runs each took', () => {
    const dir = mkdtempSync(join(tmpdir(), 'iosched-stable-'))
    const spec = join(dir, 'spec.json')
    writeFileSync(
      spec,
      JSON.stringify({
        name: 'stable',
        device: { preset: 'hdd-7200-sata' },
        workload: { processes: [{ name: 'rr', type: 'random-read', params: { size: '64M', count: 100 } }] },
        schedulers: ['noop', 'deadline'],
        repetitions: 2,
      }),
    )
    const r = cli(
      'run',
      spec,
      '--until-stable',
      '--target-cv',
      '1.5',
      '--max-repetitions',
      '5',
      '--jobs',
      '0',
    )
    expect(r.code).toBe(0)
    expect(r.out).toContain('repeated until stable (throughput CV ≤ 1.5 %, 2–5 runs), mean ± 95 % CI')
    const verdicts = r.out.split('\n').filter((l) => /^(noop|deadline): \d+ runs, CV /.test(l))
    expect(verdicts).toHaveLength(2)
    for (const v of verdicts) expect(v).toMatch(/— (stable|run cap reached)$/)
    const j = JSON.parse(
      cli(
        'run',
        spec,
        '--json',
        '--until-stable',
        '--target-cv',
        '1.5',
        '--max-repetitions',
        '5',
        '--jobs',
        '0',
      ).out,
    )
    expect(j.untilStable).toEqual({ cvPercent: 1.5, maxRepetitions: 5 })
    for (const s of j.schedulers) {
      expect(s.stability.runs).toBe(s.repetitions)
      expect(s.repetitions).toBeGreaterThanOrEqual(2)
      expect(s.repetitions).toBeLessThanOrEqual(5)
    }
    const bad = cli('run', spec, '--max-repetitions', '4')
    expect(bad.code).toBe(2)
    expect(bad.err).toContain('--target-cv and --max-repetitions go with --until-stable')
    const low = cli('run', spec, '--until-stable', '--max-repetitions', '1')
    expect(low.err).toContain('--max-repetitions expects a whole number from 2 to 1000, got "1"')
  })
})
