import { describe, expect, it } from 'vitest'
import { checkKernelTunables, mapScheduler } from '../../src/main/services/real/kernel-schedulers'
import { resolveRealSpec } from '../../src/main/services/real/real-spec'
import { checkExtraFioArgs, fioArguments, shellQuote } from '../../src/main/services/real/fio-command'
import { readWhileWriting } from './real-env'

describe('the lab’s schedulers on today’s kernel', () => {
  it('maps noop to none and deadline to mq-deadline with its tunables in sysfs units', () => {
    expect(mapScheduler('noop', {})).toMatchObject({ ok: true, kernel: 'none', writes: [] })
    const m = mapScheduler('deadline', {
      read_expire: 250,
      write_expire: 5000,
      writes_starved: 2,
      fifo_batch: 8,
      front_merges: false,
    })
    expect(m.ok && m.kernel).toBe('mq-deadline')
    if (!m.ok) return
    expect(m.writes.map((w) => [w.file, w.text])).toEqual([
      ['read_expire', '250'],
      ['write_expire', '5000'],
      ['writes_starved', '2'],
      ['fifo_batch', '8'],
      ['front_merges', '0'],
    ])
    expect(m.notes[0]).toContain('deadline runs as mq-deadline')
  })

  it('writes kyber targets in ns and bfq’s fractional slice_idle as slice_idle_us', () => {
    const k = mapScheduler('kyber', { read_lat_nsec: 1_000_000, write_lat_nsec: 5_000_000 })
    expect(k.ok && k.writes.map((w) => `${w.file}=${w.text}`)).toEqual([
      'read_lat_nsec=1000000',
      'write_lat_nsec=5000000',
    ])
    const b = mapScheduler('bfq', { slice_idle: 0.5, low_latency: false, max_budget: 0 })
    expect(b.ok && b.writes.map((w) => `${w.file}=${w.text}`)).toEqual([
      'slice_idle_us=500',
      'low_latency=0',
      'max_budget=0',
    ])
    const b2 = mapScheduler('bfq', { slice_idle: 8 })
    expect(b2.ok && b2.writes[0]).toMatchObject({ file: 'slice_idle', text: '8', unit: 'ms' })
  })

  it('refuses schedulers the kernel no longer has, saying why and what is nearest', () => {
    const a = mapScheduler('anticipatory', {})
    expect(a.ok).toBe(false)
    expect(!a.ok && a.reason).toMatch(/removed in Linux 2\.6\.33.*bfq/)
    const c = mapScheduler('cfq', { slice_idle: 8 })
    expect(!c.ok && c.reason).toMatch(/removed in Linux 5\.0.*bfq/)
    expect(!mapScheduler('sstf', {}).ok && (mapScheduler('sstf', {}) as { reason: string }).reason).toContain(
      'textbook',
    )
    expect(!mapScheduler('row', {}).ok).toBe(true)
  })

  it('notes tunables without a sysfs file and the ones the kernel rounds', () => {
    const m = mapScheduler('mq-deadline', { read_expire: 12.5, async_depth: 0, made_up: 3 })
    expect(m.ok).toBe(true)
    if (!m.ok) return
    expect(m.writes.map((w) => `${w.file}=${w.text}`)).toEqual(['read_expire=13'])
    expect(m.notes.join('\n')).toContain('read_expire = 12.5 ms rounded to 13')
    expect(m.notes.join('\n')).toContain('async_depth 0 means "the kernel default"')
    expect(m.notes.join('\n')).toContain('tunable made_up of mq-deadline has no sysfs file')
  })

  it('checks tunables of kernel schedulers the simulator does not model', () => {
    expect(checkKernelTunables('kyber', { read_lat_nsec: 1000 })).toEqual([])
    expect(checkKernelTunables('kyber', { read_lat: 1000 })[0][1]).toContain(
      'kyber has no tunable "read_lat"; known: read_lat_nsec, write_lat_nsec',
    )
    expect(checkKernelTunables('bfq', { low_latency: 'yes' })[0][1]).toContain('expected true or false')
  })
})

describe('specs for real runs', () => {
  // as if the simulator modelled only noop and deadline (the registry grows; the rule stays)
  const simulated = (n: string): boolean => ['noop', 'none', 'deadline'].includes(n)

  it('accepts kernel schedulers the simulator lacks, validating their tunables against sysfs', () => {
    const v = resolveRealSpec(
      readWhileWriting(2, [
        'none',
        { name: 'kyber', label: 'kyber-1ms', tunables: { read_lat_nsec: 1_000_000 } },
        'bfq',
      ]),
      simulated,
    )
    expect(v.ok).toBe(true)
    if (!v.ok) return
    expect(v.spec.schedulers.map((s) => [s.name, s.label])).toEqual([
      // blk-mq's none, the scheduler of its own (schedulers/none.ts)
      ['none', 'none'],
      ['kyber', 'kyber-1ms'],
      ['bfq', 'bfq'],
    ])
    expect(v.spec.schedulers[1].tunables).toEqual({ read_lat_nsec: 1_000_000 })
    expect(v.kernelOnly).toEqual(['kyber-1ms', 'bfq'])
  })

  it('reports bad kernel tunables and the rest of the spec’s problems with their paths', () => {
    const v = resolveRealSpec(
      {
        ...readWhileWriting(2, [{ name: 'kyber', tunables: { read_lat_nsec: -1 } }]),
        repetitions: 0,
      },
      simulated,
    )
    expect(v.ok).toBe(false)
    if (v.ok) return
    const text = v.issues.map((i) => `${i.path}: ${i.message}`).join('\n')
    expect(text).toContain('repetitions')
    expect(text).toMatch(/schedulers\[0\]\.tunables\.read_lat_nsec: expected ≥ 1 ns, got -1/)
  })
})

describe('fio’s command line', () => {
  it('asks for json+ to a file and ETA lines, and --readonly for read-only workloads', () => {
    const a = fioArguments({
      jobFile: '/w/job.fio',
      output: '/w/out.json',
      readOnly: true,
      extra: ['--status-interval=1'],
    })
    expect(a).toEqual([
      '--output-format=json+',
      '--output=/w/out.json',
      '--eta=always',
      '--eta-newline=1',
      '--eta-interval=500ms',
      '--readonly',
      '--status-interval=1',
      '/w/job.fio',
    ])
    expect(shellQuote(['fio', 'a b', "it's"])).toBe(`fio 'a b' 'it'\\''s'`)
  })

  it('refuses extra options that would move the I/O, change the report or run commands', () => {
    expect(
      checkExtraFioArgs(['--status-interval=1', '--iodepth_batch_submit=4', '--numa_cpu_nodes=0']),
    ).toEqual([])
    const bad = checkExtraFioArgs([
      '--filename=/dev/vda',
      '--output=x',
      '--name=x',
      '--exec_prerun=rm',
      'bs=4k',
      '--ioscheduler=bfq',
    ])
    expect(bad).toHaveLength(6)
    expect(bad[0]).toContain('the lab chooses the device')
    expect(bad[4]).toContain('expected a fio option')
  })
})
