import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { execFileSync, spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { parseBonnieCsv } from '../../src/main/services/real/bonnie-csv'
import { parseDdOutput } from '../../src/main/services/real/dd-output'
import { bonnieEngine } from '../../src/main/services/real/bonnie-engine'
import { ddEngine } from '../../src/main/services/real/dd-engine'
import { RealExperimentRunner } from '../../src/main/services/real/real-experiment'
import { resolveRealSpec } from '../../src/main/services/real/real-spec'
import { cleanupDir, describeReal, loopsUnder, tempDir } from './real-env'

describe('dd’s summary', () => {
  it('reads GNU dd, as this machine prints it', () => {
    const dir = tempDir('iosched-dd-')
    const r = spawnSync('dd', ['if=/dev/zero', `of=${join(dir, 'f')}`, 'bs=64k', 'count=16'], {
      encoding: 'utf8',
      env: { ...process.env, LC_ALL: 'C' },
    })
    cleanupDir(dir)
    const d = parseDdOutput(r.stderr)
    expect(d.bytes).toBe(16 * 65536)
    expect(d.seconds).toBeGreaterThan(0)
    expect(d.recordsIn).toEqual({ full: 16, partial: 0 })
    expect(d.recordsOut).toEqual({ full: 16, partial: 0 })
  })

  it('reads older GNU, BSD and comma-decimal summaries, and says when there is none', () => {
    expect(parseDdOutput('104857600 bytes (105 MB) copied, 3.71 s, 28.3 MB/s\n')).toMatchObject({
      bytes: 104857600,
      seconds: 3.71,
    })
    const bsd =
      '100+0 records in\n100+0 records out\n104857600 bytes transferred in 4.123456 secs (25429412 bytes/sec)\n'
    expect(parseDdOutput(bsd)).toEqual({
      bytes: 104857600,
      seconds: 4.123456,
      recordsIn: { full: 100, partial: 0 },
      recordsOut: { full: 100, partial: 0 },
    })
    expect(parseDdOutput('1048576 bytes (1,0 MB, 1,0 MiB) copied, 0,00123 s, 852 MB/s').seconds).toBe(0.00123)
    expect(() => parseDdOutput('dd: failed to open /dev/x: Permission denied', 'writer')).toThrow(
      'writer: no dd summary ("N bytes … copied, S s" or "N bytes transferred in S secs") in: "dd: failed to open /dev/x: Permission denied"',
    )
  })
})

describe('bonnie++’s CSV', () => {
  it('reads 2.00a (format 1.98: seeks fields shift the rest), with +++++ as too fast', () => {
    const b = parseBonnieCsv(
      '1.98,2.00a,vm,1,1796016280,64M,,8192,5,,,61234,12,30000,9,,,+++++,+++,1234.5,15,,,,,,,,,,,,,,,,,,,817us,2551us,,394us,12109us,,,,,,\n',
    )
    expect(b).toMatchObject({
      format: '1.98',
      bonnieVersion: '2.00a',
      machine: 'vm',
      sizeBytes: 64 << 20,
      seeks: 8192,
      seekProcesses: 5,
    })
    expect(b.phases.putc).toEqual({ rate: null, tooFast: false, cpuPercent: null, maxLatencyMs: null })
    expect(b.phases.put_block).toEqual({ rate: 61234, tooFast: false, cpuPercent: 12, maxLatencyMs: 0.817 })
    expect(b.phases.get_block).toMatchObject({ rate: null, tooFast: true, maxLatencyMs: 0.394 })
    expect(b.phases.seeks).toMatchObject({ rate: 1234.5, cpuPercent: 15, maxLatencyMs: 12.109 })
  })

  it('reads 1.97 and 1.03 lines by their own layouts', () => {
    const v197 = parseBonnieCsv(
      '1.97,1.97,box,1,1300000000,2G,,500,95,60000,10,25000,5,1200,96,70000,8,180.2,2,,,,,,,,,,,,,,,,,,5000us,300ms,1s,9000us,20ms,80ms,,,,,,',
    )
    expect(v197).toMatchObject({ format: '1.97', sizeBytes: 2 * 2 ** 30, seeks: null })
    expect(v197.phases.putc.rate).toBe(500)
    expect(v197.phases.seeks).toMatchObject({ rate: 180.2, maxLatencyMs: 80 })
    expect(v197.phases.rewrite.maxLatencyMs).toBe(1000)
    const v103 = parseBonnieCsv(
      'ide-2003,1G,22000,90,27000,15,11000,8,21000,88,26000,10,150.5,1,16,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++',
    )
    expect(v103).toMatchObject({
      format: '1.03',
      machine: 'ide-2003',
      bonnieVersion: null,
      sizeBytes: 1 << 30,
    })
    expect(v103.phases.get_block).toEqual({ rate: 26000, tooFast: false, cpuPercent: 10, maxLatencyMs: null })
    expect(v103.phases.seeks.rate).toBe(150.5)
  })

  it('names the bad field', () => {
    expect(() => parseBonnieCsv('1.98,2.00a,vm,1,1,64M,,8192,5,,,fast,1,,,,,,,,,')).toThrow(
      'put_block rate (field 12): expected a number or +++++, got "fast"',
    )
    expect(() => parseBonnieCsv('Writing intelligently...done')).toThrow('no bonnie++ CSV line')
  })
})

describeReal('dd and bonnie++ as engines (root)', () => {
  let dir = ''
  beforeAll(() => (dir = tempDir('iosched-engines-')))
  afterAll(() => cleanupDir(dir))
  const spec = (schedulers: unknown[]) => {
    const v = resolveRealSpec({
      name: 'dd-engine',
      device: { preset: 'ssd-sata-mlc' },
      workload: {
        files: [
          { name: 'big', size: '64M' },
          { name: 'small', size: '32M' },
        ],
        processes: [
          {
            name: 'writer',
            type: 'dd',
            params: { op: 'write', file: 'big', bs: '1M', count: 64, loop: true, direct: true },
          },
          { name: 'reader', type: 'cat', params: { file: 'small', size: '32M' }, startMs: 200 },
        ],
        stop: { processes: ['reader'], maxSeconds: 3 },
      },
      schedulers,
    })
    if (!v.ok) throw new Error(JSON.stringify(v.issues))
    return v.spec
  }

  it('runs dd workloads with dd itself: bytes and seconds from its summary', async () => {
    const r = await new RealExperimentRunner().run(spec(['noop']), {
      engine: ddEngine,
      target: { kind: 'scratch', parentDir: dir },
      stateDir: join(dir, 'state'),
    })
    const run = r.runs[0]
    expect(run.real.engine).toBe('dd')
    expect(run.real.jobFile).toMatch(
      /^dd if=\/dev\/zero of=\/dev\/loop\d+ bs=1048576 count=67108864 seek=\d+ iflag=count_bytes oflag=seek_bytes,direct conv=notrunc$/m,
    )
    const [w, rd] = run.processes
    expect(rd).toMatchObject({ name: 'reader', bytes: 32 << 20, finished: true })
    expect(w.writeBytes).toBeGreaterThan(0)
    expect(w.finished).toBe(false)
    expect(Number.isNaN(rd.latencyMs.p50)).toBe(true)
    expect(run.stoppedBy).toBe('processes')
    expect(loopsUnder(dir)).toEqual([])
  }, 60_000)

  it('runs bonnie++ on a fresh filesystem of the scratch device and reads its CSV per phase', async () => {
    const r = await new RealExperimentRunner().run(spec(['kyber']), {
      engine: bonnieEngine,
      target: { kind: 'scratch', parentDir: dir },
      stateDir: join(dir, 'state'),
      maxSeconds: 60,
    })
    const run = r.runs[0]
    expect(run.real.observedScheduler).toBe('kyber')
    const put = run.processes.find((p) => p.name === 'put_block')!
    // a rate, or bonnie++'s "+++++" (too fast to time: on a fresh machine with 24 GiB the page
    // cache takes the 96 MiB at once), which reads as no figure, not as 0 or an error
    expect(put).toBeDefined()
    if (!Number.isNaN(put.MBps)) expect(put.MBps).toBeGreaterThan(0)
    expect(run.processes.map((p) => p.name)).toContain('get_block')
    expect(run.totals.writeBytes).toBeGreaterThan(0)
    expect(loopsUnder(dir)).toEqual([])
    expect(execFileSync('findmnt', ['-rn', '-o', 'TARGET'], { encoding: 'utf8' })).not.toContain(dir)
  }, 120_000)
})
