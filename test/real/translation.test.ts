import { describe, expect, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { resolveSpec } from '../../src/shared/experiment/validate'
import { translateSpec, TranslationError } from '../../src/main/services/real/fio-job'
import { findExecutable } from '../../src/main/services/real/exec'
import { readWhileWriting, tempDir } from './real-env'

const target = { path: '/dev/loop9', sizeBytes: 1 << 30, description: 'a test device' }
const MiB = 1 << 20

const spec = (processes: unknown[], extra: Record<string, unknown> = {}) =>
  resolveSpec({
    device: { preset: 'ssd-sata-mlc' },
    workload: { processes, ...extra },
    schedulers: ['noop'],
    seed: 7,
  })

/**
 * What fio makes of a job file's `options`: `fio --parse-only --debug=parse` logs
 * "__handle_option=bs, type=…, ptr=128k" … "ret=0, out=131072" (sizes in bytes, times in µs);
 * each option's `out`, in the file's order.
 */
function fioParsed(
  text: string,
  options: readonly string[],
): { status: number | null; parsed: [string, number][] } {
  const dir = tempDir('iosched-fio-parse-')
  const f = join(dir, 'job.fio')
  writeFileSync(f, text)
  const r = spawnSync('fio', ['--parse-only', '--debug=parse', f], { encoding: 'utf8' })
  rmSync(dir, { recursive: true, force: true })
  const parsed: [string, number][] = []
  let option = ''
  for (const line of r.stdout.split('\n')) {
    const h = /__handle_option=(\w+), type=\w+, ptr=(\S+)/.exec(line)
    if (h) option = h[1]
    const o = /ret=0, out=(\d+)/.exec(line)
    if (o && options.includes(option)) parsed.push([option, Number(o[1])])
  }
  return { status: r.status, parsed }
}

/** The options of one section, as a map. */
const opts = (plan: ReturnType<typeof translateSpec>, section: string): Record<string, string> =>
  Object.fromEntries(plan.jobs.find((j) => j.section === section)!.options)

describe('translating a spec into a fio job file', () => {
  it('turns the flagship experiment into a looping writer and a reader that ends the run', () => {
    const s = resolveSpec(
      JSON.parse(
        '{"device":{"preset":"hdd-2003-ide"},"host":{"preset":"linux-2003"},"workload":{"files":[{"name":"foo","size":"512M"},{"name":"100m-file","size":"100M"}],"processes":[{"name":"writer","type":"dd","params":{"op":"write","file":"foo","bs":"1M","count":512,"loop":true}},{"name":"reader","type":"cat","params":{"file":"100m-file","size":"100M"},"startMs":10000}],"stop":{"processes":["reader"],"maxSeconds":900}},"schedulers":["noop","deadline"],"seed":1}',
      ),
    )
    const plan = translateSpec(s, target)
    expect(plan.jobs.map((j) => j.process)).toEqual(['writer', 'reader'])
    const w = opts(plan, 'writer')
    expect(w).toMatchObject({ filename: '/dev/loop9', rw: 'write', bs: String(MiB), size: String(512 * MiB) })
    expect(w.time_based).toBe('1')
    expect(w.direct).toBeUndefined()
    // files follow each other from 64 MiB, aligned to 1 MiB, as the simulator lays them out
    expect(w.offset).toBe(String(64 * MiB))
    const r = opts(plan, 'reader')
    expect(r).toMatchObject({
      rw: 'read',
      bs: String(128 * 1024),
      size: String(100 * MiB),
      startdelay: '10000ms',
    })
    expect(r.offset).toBe(String((64 + 512) * MiB))
    // the reader alone is the stop set: when it finishes, fio ends the writer too
    expect(r.exitall).toBe('1')
    expect(w.exitall).toBeUndefined()
    // every job is capped at the time left until the run's limit
    expect(w.runtime).toBe('900000ms')
    expect(r.runtime).toBe('890000ms')
    expect(plan.readOnly).toBe(false)
    expect(plan.jobs.find((j) => j.process === 'reader')!.plannedBytes).toBe(100 * MiB)
    expect(plan.jobs.find((j) => j.process === 'writer')!.plannedBytes).toBe(0)
    expect(plan.text).toMatch(/^\[global\]$/m)
    expect(plan.text).toMatch(/^thread=1$/m)
    // the job file writes its sizes as people do (fio reads them as the same bytes: below)
    const reader = plan.text.slice(plan.text.indexOf('[reader]'))
    for (const line of ['bs=128k', 'size=100m', 'offset=576m', 'startdelay=10s', 'runtime=890s'])
      expect(reader).toMatch(new RegExp(`^${line}$`, 'm'))
    expect(plan.text).not.toMatch(/^(bs|size|offset|io_size)=\d{4,}$/m)
    // and its times in seconds, not runtime=900000ms
    expect(plan.text).toMatch(/^runtime=900s$/m)
    expect(plan.text).not.toMatch(/^(runtime|startdelay|ramp_time)=\d+000ms$/m)
    expect(plan.notes.join('\n')).toContain('host preset "linux-2003"')
  })

  it('splits multi-process workloads into one section per process, named as the simulator names them', () => {
    const plan = translateSpec(
      spec([
        {
          name: 'seekers',
          type: 'random-read',
          params: { processes: 3, size: '64M', bs: '4k', count: 500, direct: true, thinkUs: 100 },
        },
        {
          name: 'jobs',
          type: 'fio',
          params: {
            rw: 'randrw',
            rwmixread: 70,
            numjobs: 2,
            size: '16M',
            ioengine: 'libaio',
            iodepth: 8,
            direct: true,
          },
        },
      ]),
      target,
    )
    expect(plan.jobs.map((j) => j.process)).toEqual([
      'seekers/0',
      'seekers/1',
      'seekers/2',
      'jobs/0',
      'jobs/1',
    ])
    const s0 = opts(plan, 'seekers/0')
    expect(s0).toMatchObject({
      rw: 'randread',
      bs: '4096',
      number_ios: '500',
      io_size: String(500 * 4096),
      norandommap: '1',
      direct: '1',
      thinktime: '100',
    })
    // the seekers share one file; each fio job has a file of its own
    expect(opts(plan, 'seekers/1').offset).toBe(s0.offset)
    const j0 = opts(plan, 'jobs/0')
    const j1 = opts(plan, 'jobs/1')
    expect(j0).toMatchObject({
      rw: 'randrw',
      rwmixread: '70',
      ioengine: 'libaio',
      iodepth: '8',
      size: String(16 * MiB),
    })
    expect(Number(j1.offset) - Number(j0.offset)).toBe(16 * MiB)
    expect(plan.readOnly).toBe(false)
  })

  it('carries I/O priority, nice, raw-device access and CPU hogs over, and marks read-only workloads', () => {
    const plan = translateSpec(
      spec([
        {
          name: 'raw',
          type: 'dd',
          params: { op: 'read', file: '/dev', bs: '64k', count: 100, skip: 10 },
          ioClass: 'idle',
          nice: 5,
        },
        { name: 'hog', type: 'cpu-hog', nice: -5 },
      ]),
      target,
    )
    expect(opts(plan, 'raw')).toMatchObject({
      offset: String(640 * 1024),
      size: String(6400 * 1024),
      prioclass: '3',
      prio: '4',
      nice: '5',
    })
    expect(opts(plan, 'hog')).toMatchObject({
      ioengine: 'cpuio',
      cpuload: '100',
      nice: '-5',
      time_based: '1',
    })
    expect(plan.readOnly).toBe(true)
  })

  it('gives fio the job’s own cache and sync semantics, and keeps dd’s and cat’s cache', () => {
    const plan = translateSpec(
      spec(
        [
          {
            name: 'w',
            type: 'fio',
            params: {
              rw: 'write',
              bs: '1M',
              size: '64M',
              time_based: true,
              runtime: 4,
              ramp_time: 1.5,
              end_fsync: true,
              fsync_on_close: true,
              fsync: 32,
            },
          },
          {
            name: 'r',
            type: 'fio',
            params: { rw: 'read', bs: '128k', size: '8M', loops: 3, invalidate: false, direct: true },
          },
          {
            name: 'a',
            type: 'fio',
            params: {
              rw: 'randread',
              direct: true,
              ioengine: 'libaio',
              iodepth: 16,
              iodepth_batch_complete_max: 16,
              size: '8M',
            },
          },
          { name: 'd', type: 'dd', params: { op: 'write', bs: '1M', count: 8 } },
          { name: 'c', type: 'cat', params: { size: '8M' } },
        ],
        { stop: { maxSeconds: 5 } },
      ),
      target,
    )
    const w = opts(plan, 'w')
    expect(w).toMatchObject({ ramp_time: '1500ms', end_fsync: '1', fsync_on_close: '1', fsync: '32' })
    // fio's own default (invalidate=1) is fio's: not written
    expect(w.invalidate).toBeUndefined()
    // ramp_time runs before the runtime: both fit the 5 s limit
    expect(w.runtime).toBe('3500ms')
    const r = opts(plan, 'r')
    expect(r).toMatchObject({ loops: '3', invalidate: '0' })
    expect(r.ramp_time).toBeUndefined()
    // reaping in batches as asked; fio's default minimum (1) is fio's: not written
    expect(opts(plan, 'a')).toMatchObject({ iodepth: '16', iodepth_batch_complete_max: '16' })
    expect(opts(plan, 'a').iodepth_batch_complete_min).toBeUndefined()
    // dd and cat never drop the cache: fio must not either
    expect(opts(plan, 'd').invalidate).toBe('0')
    expect(opts(plan, 'c').invalidate).toBe('0')
    // a buffered fio job on a file: the real run flushes the whole device instead of the range
    expect(plan.notes.join('\n')).toMatch(/process "w": .*BLKFLSBUF/)
    expect(plan.notes.join('\n')).not.toMatch(/process "r": .*BLKFLSBUF/)
  })

  it('says what it cannot reproduce exactly, and refuses what cannot run', () => {
    const plan = translateSpec(
      spec(
        [
          {
            name: 'a',
            type: 'random-read',
            params: { file: 'frag', size: '8M', dirtyShare: 0.25, count: 100 },
          },
          { name: 'b', type: 'cat', params: { size: '8M' } },
          { name: 'c', type: 'cat', params: { size: '8M' } },
          { name: 'late', type: 'cat', params: { size: '8M' }, startMs: 5000 },
        ],
        {
          files: [{ name: 'frag', size: '8M', extent: '64k', gap: '64k' }],
          stop: { processes: ['b', 'c'], maxSeconds: 2 },
        },
      ),
      target,
    )
    const notes = plan.notes.join('\n')
    expect(notes).toContain('"frag" is fragmented')
    expect(notes).toContain('dirtyShare 0.25 is approximated by rw=randrw with rwmixread=80')
    expect(notes).toContain('process "late" starts at 5000 ms, after the run\'s limit of 2 s: left out')
    expect(notes).toContain('fio can only end the other jobs when one job finishes')
    expect(plan.jobs.some((j) => j.options.some(([k]) => k === 'exitall'))).toBe(false)
    // files that do not fit the real device
    expect(() => translateSpec(spec([{ name: 'big', type: 'cat', params: { size: '2G' } }]), target)).toThrow(
      TranslationError,
    )
    expect(() => translateSpec(spec([{ name: 'big', type: 'cat', params: { size: '2G' } }]), target)).toThrow(
      /file "big.cat" \(2147483648 bytes at byte \d+\) does not fit on the device/,
    )
  })

  it('makes section names fio accepts from any process name', () => {
    const plan = translateSpec(
      spec([
        { name: 'my reader [1]', type: 'cat', params: { size: '1M' } },
        { name: 'global', type: 'cat', params: { size: '1M' } },
      ]),
      target,
    )
    expect(plan.jobs.map((j) => [j.section, j.process])).toEqual([
      ['my_reader__1_', 'my reader [1]'],
      ['global_', 'global'],
    ])
  })

  it.runIf(findExecutable('fio') !== null)('writes job files fio itself parses (fio --parse-only)', () => {
    const dir = tempDir('iosched-job-')
    const s = resolveSpec(readWhileWriting(2, ['noop']))
    for (const plan of [
      translateSpec(s, target, { rampSeconds: 0.5 }),
      translateSpec(
        spec([
          {
            name: 'rr',
            type: 'random-read',
            params: { processes: 2, size: '8M', dirtyShare: 0.1, thinkUs: 50 },
          },
          {
            name: 'f',
            type: 'fio',
            params: { rw: 'randwrite', size: '8M', rate: '10M', thinktime: 10, time_based: true, runtime: 1 },
          },
          {
            name: 'g',
            type: 'fio',
            params: {
              rw: 'write',
              size: '8M',
              loops: 2,
              ramp_time: 0.5,
              invalidate: false,
              end_fsync: true,
              fsync_on_close: true,
              fsync: 4,
            },
          },
          { name: 'hog', type: 'cpu-hog', ioClass: 'be', ioLevel: 2 },
        ]),
        target,
      ),
    ]) {
      const f = join(dir, 'job.fio')
      writeFileSync(f, plan.text)
      const r = spawnSync('fio', ['--parse-only', f], { encoding: 'utf8' })
      expect(r.stderr).toBe('')
      expect(r.status).toBe(0)
    }
    rmSync(dir, { recursive: true, force: true })
  })

  it.runIf(findExecutable('fio') !== null)(
    'writes sizes with fio’s suffixes that fio parses to the very bytes the lab planned',
    () => {
      const plan = translateSpec(
        spec([
          { name: 'w', type: 'dd', params: { op: 'write', bs: '1M', count: 64 } },
          { name: 'r', type: 'cat', params: { bs: '128k', size: '48M' } },
          { name: 'q', type: 'random-read', params: { processes: 2, size: '64M', bs: '4k', count: 100 } },
          { name: 'f', type: 'fio', params: { rw: 'randread', bs: '1536', size: '3G' } },
        ]),
        { ...target, sizeBytes: 8 * 2 ** 30 },
      )
      const SIZES = ['bs', 'size', 'offset', 'io_size']
      const { status, parsed: out } = fioParsed(plan.text, SIZES)
      expect(status).toBe(0)
      const parsed = out.map(([k, v]) => `${k}=${v}`)
      const planned = plan.jobs.flatMap((j) =>
        j.options.filter(([k]) => SIZES.includes(k)).map(([k, v]) => `${k}=${v}`),
      )
      // offset=0 is parsed too, but logged without an "out"; every other size is there
      expect(parsed.sort()).toEqual(planned.filter((x) => x !== 'offset=0').sort())
      // and the text wrote them with suffixes where one divides exactly (1536 stays as it is)
      expect(plan.text).toMatch(/^bs=1m$/m)
      expect(plan.text).toMatch(/^size=3g$/m)
      expect(plan.text).toMatch(/^bs=1536$/m)
    },
  )

  it.runIf(findExecutable('fio') !== null)(
    'writes times in seconds where whole, which fio parses to the very µs the lab planned',
    () => {
      // a reader that starts 10 s in, a writer; every job's runtime fits the 900 s limit; ramps of 1.5 s
      const plan = translateSpec(
        spec(
          [
            { name: 'w', type: 'dd', params: { op: 'write', bs: '1M', count: 64, loop: true } },
            { name: 'r', type: 'cat', params: { bs: '128k', size: '48M' }, startMs: 10000 },
          ],
          { stop: { processes: ['r'], maxSeconds: 900 } },
        ),
        target,
        { rampSeconds: 1.5 },
      )
      const TIMES = ['runtime', 'ramp_time', 'startdelay']
      const { status, parsed: out } = fioParsed(plan.text, TIMES)
      expect(status).toBe(0)
      // in µs: "ptr=890s" … "out=890000000"
      const parsed = out.map(([k, us]) => `${k}=${us / 1000}`)
      const jobs = plan.jobs.flatMap((j) =>
        j.options.filter(([k]) => TIMES.includes(k)).map(([k, v]) => `${k}=${parseInt(v, 10)}`),
      )
      // the global ramp_time, then each job's times, in ms: as the lab planned them
      expect(parsed.sort()).toEqual(['ramp_time=1500', ...jobs].sort())
      expect(plan.text).toMatch(/^startdelay=10s$/m)
      expect(plan.text).toMatch(/^ramp_time=1500ms$/m) // not a whole second: as it is
      expect(plan.text).toMatch(/^runtime=\d+s$/m)
    },
  )
})
