import { describe, expect, it } from 'vitest'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { resolveSpec } from '../../src/shared/experiment/validate'
import { estimateWork } from '../../src/shared/experiment/work-estimate'
import { WORK_LIMITS, workExcesses } from '../../src/shared/experiment/work-limits'

const root = join(import.meta.dirname, '../..')
const spec = (processes: unknown[], extra: Record<string, unknown> = {}, device = 'ssd-sata-mlc') =>
  resolveSpec({ device: { preset: device }, workload: { processes, ...extra }, schedulers: ['noop'] })
const over = (s: ReturnType<typeof spec>[]) => workExcesses(estimateWork(s)).map((x) => x.limit.name)

describe('the work a spec asks for, estimated before it runs', () => {
  it('refuses an effectively unbounded run: 10^12 reads with 10^7 s of simulated time', () => {
    const huge = spec([{ name: 'rr', type: 'random-read', params: { count: 1e12 } }], {
      stop: { maxSeconds: 1e7 },
    })
    const e = estimateWork([huge])
    expect(e).toMatchObject({ maxRequestsPerRun: 1e12, requestsBoundBy: 'planned', maxSimSeconds: 1e7 })
    const x = workExcesses(e)
    expect(x.map((y) => y.limit.name)).toEqual(['requestsPerRun'])
    expect(x[0].message).toMatch(
      /^up to 1e12 I\/O requests in one run: the I\/O its processes ask for, which its time limit of 1e7 s simulated does not cut short: more than the limit of 1e9 requests/,
    )
  })

  it('bounds open-ended work by what the device can take in the time limit', () => {
    const open = (maxSeconds: number) =>
      spec([{ name: 'rr', type: 'random-read', params: { count: 0, bs: '4k' } }], { stop: { maxSeconds } })
    // 550 MB/s of 4 KiB requests for 600 s: within the limits
    const e = estimateWork([open(600)])
    expect(e.requestsBoundBy).toBe('time')
    expect(e.maxRequestsPerRun).toBeCloseTo((600 * 550e6) / 4096, 0)
    expect(over([open(600)])).toEqual([])
    expect(over([open(1e7)])).toEqual(['requestsPerRun'])
    // the same reads on a disk take far longer to become too many
    const disk = spec(
      [{ name: 'rr', type: 'random-read', params: { count: 0 } }],
      { stop: { maxSeconds: 1e4 } },
      'hdd-2003-ide',
    )
    expect(estimateWork([disk]).maxRequestsPerRun).toBeLessThan(estimateWork([open(1e4)]).maxRequestsPerRun)
    // a device that takes no time is unbounded: only the planned I/O could bound it
    const instant = resolveSpec({
      device: { preset: 'nullblk', overrides: { completionUs: 0 } },
      workload: { processes: [{ name: 'rr', type: 'random-read', params: { count: 0 } }] },
      schedulers: ['noop'],
    })
    expect(estimateWork([instant]).maxRequestsPerRun).toBe(Infinity)
    expect(workExcesses(estimateWork([instant]))[0].message).toMatch(/^up to unbounded I\/O requests/)
  })

  it('refuses 16 × 4096 processes in one run by their count and their memory', () => {
    const many = spec(
      Array.from({ length: 16 }, (_, i) => ({
        name: `rr${i}`,
        type: 'random-read',
        params: { processes: 4096, count: 10 },
      })),
    )
    const e = estimateWork([many])
    expect(e.maxProcessesPerRun).toBe(65536)
    expect(e.maxRunMemoryMiB).toBeGreaterThan(2000)
    expect(over([many])).toEqual(['processesPerRun', 'runMemoryMiB'])
  })

  it('refuses 2 000 schedulers × 1 000 repetitions by their number and their results’ memory', () => {
    const s = resolveSpec({
      device: { preset: 'ssd-sata-mlc' },
      workload: { processes: [{ name: 'rr', type: 'random-read', params: { count: 10 } }] },
      schedulers: Array.from({ length: 2000 }, (_, i) => ({ name: 'noop', label: `n${i}` })),
      repetitions: 1000,
    })
    const e = estimateWork([s])
    expect(e.runs).toBe(2e6)
    expect(over([s])).toEqual(['runs', 'resultsMemoryMiB'])
    // repeating until stable counts the cap
    const stable = resolveSpec({
      device: { preset: 'ssd-sata-mlc' },
      workload: { processes: [{ name: 'rr', type: 'random-read' }] },
      schedulers: ['noop', 'deadline'],
      untilStable: { maxRepetitions: 50 },
    })
    expect(estimateWork([stable]).runs).toBe(100)
    // sweep points add up
    expect(estimateWork([stable, stable, stable]).runs).toBe(300)
  })

  it('lets every gallery experiment and example run within the limits', () => {
    const specs: unknown[] = []
    for (const f of readdirSync(join(root, 'gallery')).filter((n) => n.endsWith('.json'))) {
      const doc = JSON.parse(readFileSync(join(root, 'gallery', f), 'utf8')) as {
        variants: { spec?: unknown }[]
      }
      for (const v of doc.variants) if (v.spec) specs.push(v.spec)
    }
    for (const f of readdirSync(join(root, 'examples')).filter((n) => n.endsWith('.json')))
      specs.push(JSON.parse(readFileSync(join(root, 'examples', f), 'utf8')))
    expect(specs.length).toBeGreaterThan(5)
    for (const s of specs) expect(over([resolveSpec(s)])).toEqual([])
  })

  it('keeps its limits as data, each with a default, unit and meaning, all documented', () => {
    const docs = readFileSync(join(root, 'docs/spec.md'), 'utf8')
    for (const l of WORK_LIMITS) {
      expect(l.default).toBeGreaterThan(0)
      expect(l.unit).not.toBe('')
      expect(l.meaning.length).toBeGreaterThan(20)
      expect(docs).toContain(`\`${l.name}\``)
    }
  })
})
