// `iosched-lab sweep` and `merge`: a sweep sharded into N parts and merged is the unsharded
// sweep's result byte for byte (N = 1, 3, 4); merge refuses parts that are not one sweep's whole.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../src/cli/main'
import { parseValues } from '../../src/cli/sweep-definition'
import { durationText, etaSeconds } from '../../src/cli/sweep-progress'
import { MAX_SWEEP_POINTS } from '../../src/shared/api/sweep'
import { parseShard, unitsOfShard } from '../../src/shared/api/sweep-shards'

const dir = mkdtempSync(join(tmpdir(), 'iosched-sweep-'))
const spec = join(dir, 'spec.json')
writeFileSync(
  spec,
  JSON.stringify({
    name: 'tiny sweep',
    device: { preset: 'ssd-sata-mlc' },
    workload: { processes: [{ name: 'rr', type: 'random-read', params: { count: 40 } }] },
    schedulers: ['noop', 'deadline', 'bfq'],
    repetitions: 2,
  }),
)
const at = (name: string): string => join(dir, name)
const PARAM = ['--param', 'schedulers[1].tunables.fifo_batch']
const VALUES = ['--values', '1,4,16']

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = []
  const err: string[] = []
  const code = await main(
    args,
    (s) => void out.push(s),
    (s) => void err.push(s),
  )
  return { code, out: out.join('\n'), err: err.join('\n') }
}

/** Shard K of N of the sweep (in this process: `--jobs 0`, unless given). */
const shard = (k: number, n: number, ...more: string[]) =>
  cli(
    'sweep',
    spec,
    ...PARAM,
    ...VALUES,
    '--shard',
    `${k}/${n}`,
    '--jobs',
    '0',
    '--out',
    at(`p${k}of${n}.json`),
    ...more,
  )

let whole: Buffer
beforeAll(async () => {
  // the unsharded sweep in the run pool, as a user runs it
  const r = await cli('sweep', spec, ...PARAM, ...VALUES, '--jobs', '2', '--out', at('whole.json'))
  expect(r.err).toBe('')
  expect(r.code).toBe(0)
  whole = readFileSync(at('whole.json'))
}, 120_000)

describe('a sharded sweep', () => {
  for (const n of [1, 3, 4])
    it(`merged from ${n} parts is the unsharded sweep, byte for byte`, async () => {
      for (let k = 1; k <= n; k++) expect((await shard(k, n)).code).toBe(0)
      const parts = Array.from({ length: n }, (_, i) => at(`p${i + 1}of${n}.json`)).reverse()
      const r = await cli('merge', ...parts, '--out', at(`merged${n}.json`))
      expect(r.err).toBe('')
      expect(r.code).toBe(0)
      expect(r.out).toContain(`18 runs from ${n} part`)
      expect(readFileSync(at(`merged${n}.json`)).equals(whole)).toBe(true)
    }, 60_000)

  it('is the app’s sweep result: one experiment per value, each with every scheduler × repetition', () => {
    const doc = JSON.parse(whole.toString())
    expect(doc.schema).toBe('iosched-lab/sweep@1')
    expect(doc.sweep).toEqual({ path: 'schedulers[1].tunables.fifo_batch', values: [1, 4, 16] })
    expect(doc.points.map((p: { value: number }) => p.value)).toEqual([1, 4, 16])
    for (const p of doc.points) {
      expect(p.result.schema).toBe('iosched-lab/experiment@1')
      expect(p.result.runs).toHaveLength(6)
      expect(p.result.spec.schedulers[1].tunables.fifo_batch).toBe(p.value)
      expect(p.result.summary.map((s: { label: string }) => s.label)).toEqual(['noop', 'deadline', 'bfq'])
    }
  })

  it('deals the units round-robin, so shards differ by at most one run', () => {
    const units = Array.from({ length: 18 }, (_, i) => i)
    const sizes = [1, 2, 3, 4].map((k) => unitsOfShard(units, { index: k, count: 4 }))
    expect(sizes.map((s) => s.length)).toEqual([5, 5, 4, 4])
    expect(sizes[1]).toEqual([1, 5, 9, 13, 17])
    expect(sizes.flat().sort((a, b) => a - b)).toEqual(units)
  })

  it('refuses a bad --shard', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 })
    expect(parseShard('0/4')).toMatch(/from 1 to 4, got 0/)
    expect(parseShard('5/4')).toMatch(/from 1 to 4, got 5/)
    expect(parseShard('2')).toMatch(/expected K\/N/)
  })
})

describe('a sweep’s report', () => {
  it('labels each point’s runs with its value, in text and CSV', async () => {
    const text = await cli('report', at('whole.json'), '--text')
    expect(text.err).toBe('')
    expect(text.out).toContain('tiny sweep — sweep of schedulers[1].tunables.fifo_batch')
    for (const v of [1, 4, 16]) expect(text.out).toMatch(new RegExp(`deadline fifo_batch=${v}\\s`))
    const csv = await cli('report', at('whole.json'), '--csv')
    // one row per run and process: 3 values × 3 schedulers × 2 repetitions
    expect(
      csv.out
        .trim()
        .split('\n')
        .filter((l) => l.includes('fifo_batch=')).length,
    ).toBe(18)
  })
  it('says what is wrong with a sweep file it cannot read', async () => {
    const doc = JSON.parse(readFileSync(at('whole.json'), 'utf8'))
    writeFileSync(at('broken-sweep.json'), JSON.stringify({ ...doc, points: 'none' }))
    const r = await cli('report', at('broken-sweep.json'))
    expect(r.code).toBe(2)
    expect(r.err).toMatch(/broken-sweep\.json: not a valid sweep result \(expected "sweep" and "points"\)/)
  })
})

describe('merge refuses', () => {
  beforeAll(async () => {
    for (let k = 1; k <= 3; k++) expect((await shard(k, 3)).code).toBe(0)
  }, 60_000)
  const three = () => [1, 2, 3].map((k) => at(`p${k}of3.json`))
  const refused = async (...files: string[]) => {
    const r = await cli('merge', ...files, '--out', at('refused.json'))
    expect(r.code).toBe(2)
    return r.err
  }

  it('a missing shard, and one given twice', async () => {
    const [p1, p2] = three()
    expect(await refused(p1, p2)).toContain('missing shard 3/3 (merge needs every part, 1 to 3)')
    expect(await refused(p1, p2, p2, three()[2])).toContain(`${p2} and ${p2} are both shard 2/3`)
  })

  it('parts of another sweep: other values, another parameter, another spec', async () => {
    await cli(
      'sweep',
      spec,
      ...PARAM,
      '--values',
      '1,4,32',
      '--shard',
      '3/3',
      '--jobs',
      '0',
      '--out',
      at('other-values.json'),
    )
    await cli(
      'sweep',
      spec,
      '--param',
      'schedulers[1].tunables.writes_starved',
      ...VALUES,
      '--shard',
      '3/3',
      '--jobs',
      '0',
      '--out',
      at('other-param.json'),
    )
    const [p1, p2] = three()
    expect(await refused(p1, p2, at('other-values.json'))).toMatch(
      /other-values\.json: a part of another sweep than .*p1of3\.json \(--values differ; definition/,
    )
    expect(await refused(p1, p2, at('other-param.json'))).toContain(
      '--param schedulers[1].tunables.writes_starved ≠ schedulers[1].tunables.fifo_batch',
    )
    const edited = JSON.parse(readFileSync(three()[2], 'utf8'))
    edited.spec.repetitions = 3
    writeFileSync(at('edited.json'), JSON.stringify(edited))
    expect(await refused(p1, p2, at('edited.json'))).toContain(
      'edited.json: its spec, parameter or values do not match its definition hash',
    )
  })

  it('shards of another count, a part short of runs, and files that are not parts', async () => {
    const [p1, p2, p3] = three()
    expect(await refused(p1, p2, p3, at('p2of4.json'))).toContain(
      'p2of4.json: shard 2/4, but ' + p1 + ' is shard 1/3',
    )
    const short = JSON.parse(readFileSync(p3, 'utf8'))
    short.runs.pop()
    writeFileSync(at('short.json'), JSON.stringify(short))
    expect(await refused(p1, p2, at('short.json'))).toContain(
      'short.json: holds 5 runs and failures, not the 6 of shard 3/3',
    )
    expect(await refused(p1, p2, spec)).toContain(`${spec}: not a sweep part (no "schema"`)
    expect(await refused(at('whole.json'))).toContain('a merged sweep result, not a part')
  })
})

describe('sweep arguments', () => {
  it('reads values as numbers, true/false, words, or a JSON array', () => {
    expect(parseValues('1, 4,16')).toEqual([1, 4, 16])
    expect(parseValues('true,false')).toEqual([true, false])
    expect(parseValues('4k,64k')).toEqual(['4k', '64k'])
    expect(parseValues('[1, "4k", true]')).toEqual([1, '4k', true])
    expect(() => parseValues('1,,2')).toThrow(/value 2 is empty/)
  })

  it('runs more points than the app’s limit, and refuses what is not a sweep', async () => {
    const n = MAX_SWEEP_POINTS + 36
    const values = Array.from({ length: n }, (_, i) => i + 1).join(',')
    const one = join(dir, 'one.json')
    writeFileSync(
      one,
      JSON.stringify({ ...JSON.parse(readFileSync(spec, 'utf8')), schedulers: ['deadline'], repetitions: 1 }),
    )
    const r = await cli(
      'sweep',
      one,
      '--param',
      'schedulers[0].tunables.fifo_batch',
      '--values',
      values,
      '--jobs',
      '0',
      '--out',
      at('many.json'),
    )
    expect(r.code).toBe(0)
    expect(JSON.parse(readFileSync(at('many.json'), 'utf8')).points).toHaveLength(n)
    const bad = await cli(
      'sweep',
      spec,
      '--param',
      'schedulers[1].tunables.fifo_batch',
      '--values',
      '1,oops',
      '--out',
      at('x.json'),
    )
    expect(bad.code).toBe(2)
    expect(bad.err).toMatch(
      /spec\.json: schedulers\[1\]\.tunables\.fifo_batch: .* \(with schedulers\[1\]\.tunables\.fifo_batch = "oops"\)/,
    )
    const none = await cli('sweep', spec, '--values', '1,2')
    expect(none.err).toContain('sweep: give --param, --out')
  }, 120_000)

  it('says how long is left at the pace so far', () => {
    expect(etaSeconds(10, 0, 100)).toBeNull()
    expect(etaSeconds(10, 25, 100)).toBe(30)
    expect(durationText(45)).toBe('45 s')
    expect(durationText(192)).toBe('3 min 12 s')
    expect(durationText(3720)).toBe('1 h 02 min')
  })
})
