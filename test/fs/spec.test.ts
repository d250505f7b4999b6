import { describe, expect, it } from 'vitest'
import { formatIssues, resolveSpec, validateSpec } from '../../src/shared/experiment/validate'
import { simulate } from '../../src/shared/experiment/runner'
import { hostPresets } from '../../src/shared/host/presets'
import { fileSystems } from '../../src/shared/fs/registry'
import { listText } from '../../src/cli/commands/list'

const spec = (host: unknown, schedulers: unknown[] = ['noop']) => ({
  device: { preset: 'hdd-7200-sata' },
  host,
  workload: {
    files: [{ name: 'img', size: 5_120_000 }],
    processes: [
      {
        name: 'dd',
        type: 'dd',
        params: { op: 'write', file: 'img', bs: 512, count: 300, dsync: true, truncate: true },
      },
    ],
  },
  schedulers,
})

const problems = (doc: unknown): string[] => {
  const v = validateSpec(doc)
  return v.ok ? [] : formatIssues(v.issues).split('\n')
}

describe('host.filesystem in the spec', () => {
  it('takes a type and mount options, each with its default filled in', () => {
    const r = resolveSpec(spec({ filesystem: { type: 'ext3', data: 'writeback', commitSeconds: 2 } }))
    expect(r.host.filesystem).toEqual({
      type: 'ext3',
      values: {
        data: 'writeback',
        commitSeconds: 2,
        atime: 'strictatime',
        barrier: false,
        commitIo: 'async',
      },
    })
  })
  it('says where a wrong type or option is', () => {
    expect(problems(spec({ filesystem: { type: 'zfs' } }))[0]).toMatch(
      /^host\.filesystem\.type: unknown file system "zfs"; known: none, ext2, ext3, ext4, ffs/,
    )
    expect(problems(spec({ filesystem: { type: 'ext3', delalloc: true } }))[0]).toMatch(
      /^host\.filesystem\.delalloc: unknown key/,
    )
    expect(problems(spec({ filesystem: { type: 'ext4', data: 'sometimes' } }))[0]).toMatch(
      /^host\.filesystem\.data: /,
    )
  })
  it('each host preset names a file system the registry has, with valid options', () => {
    for (const p of hostPresets) {
      if (!p.filesystem) continue
      const fs = fileSystems.find((f) => f.name === p.filesystem!.type)
      expect(fs, p.name).toBeDefined()
      for (const k of Object.keys(p.filesystem.options ?? {}))
        expect(fs!.params.map((x) => x.name)).toContain(k)
      expect(p.sources.filesystem, p.name).toBeTruthy()
    }
  })
  it('a spec’s type replaces the preset’s; options of the preset apply only to its own type', () => {
    const r = resolveSpec({ ...spec({ preset: 'linux-modern', filesystem: { type: 'ext2' } }) })
    expect(r.host.filesystem!.type).toBe('ext2')
  })
  it('`iosched-lab list` documents every file system and its mount options', () => {
    const t = listText()
    for (const f of fileSystems) {
      expect(t).toContain(`\n${f.name} — ${f.summary}`)
      for (const p of f.params) expect(t).toContain(p.meaning)
    }
  })
})

describe('the journal thread is another I/O context for the schedulers', () => {
  const ddSeconds = (fs: unknown, sched: unknown) => {
    const s = resolveSpec(spec({ filesystem: fs }, [sched]))
    return simulate(s, 0).processes[0].seconds
  }
  it('CFQ idling for dd’s next request while jbd2 holds what dd waits for slows dd oflag=dsync', () => {
    // barrier off: the disk's write cache absorbs the commits (with it on, each commit waits for
    // the media, dd's think time exceeds slice_idle and CFQ stops idling for it)
    const fs = { type: 'ext4', barrier: false }
    const noop = ddSeconds(fs, 'noop')
    const cfq = ddSeconds(fs, 'cfq')
    const cfqNoIdle = ddSeconds(fs, { name: 'cfq', tunables: { slice_idle: 0 } })
    expect(cfq / noop).toBeGreaterThan(2)
    expect(cfqNoIdle / noop).toBeLessThan(1.3)
  })
  it('without a file system model (no journal), CFQ costs dd nothing', () => {
    const noop = ddSeconds({ type: 'none' }, 'noop')
    const cfq = ddSeconds({ type: 'none' }, 'cfq')
    expect(cfq / noop).toBeLessThan(1.3)
  })
  it('barrier=1 on a disk with a write cache: each commit waits for the cache to reach the media', () => {
    const on = ddSeconds({ type: 'ext4', barrier: true }, 'noop')
    const off = ddSeconds({ type: 'ext4', barrier: false }, 'noop')
    // at least one rotation (8.3 ms at 7200 rpm) per record instead of a cache hit
    expect(on / 300).toBeGreaterThan(0.008)
    expect(on / off).toBeGreaterThan(3)
  })
  it('same spec and seed, same result', () => {
    const s = resolveSpec(spec({ filesystem: { type: 'ext3' } }, ['cfq']))
    expect(JSON.stringify(simulate(s, 0))).toBe(JSON.stringify(simulate(s, 0)))
  })
})
