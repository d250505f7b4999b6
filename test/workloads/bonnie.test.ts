import { describe, expect, it } from 'vitest'
import { resolveSpec } from '../../src/shared/experiment/validate'
import { simulate } from '../../src/shared/experiment/runner'
import { bonnieCsv, bonnieTable } from '../../src/shared/workloads/bonnie-report'

const bonnie = (params: Record<string, unknown>, host: Record<string, unknown> = {}) =>
  simulate(
    resolveSpec({
      device: { preset: 'hdd-7200-sata' },
      host: { preset: 'linux-2003', overrides: host },
      workload: { processes: [{ name: 'b', type: 'bonnie++', params }] },
      schedulers: ['deadline'],
    }),
    0,
    0,
  ).processes[0]

describe('bonnie++', () => {
  const p = bonnie({ size: '128M', files: 1, seeks: 600 }, { memoryMiB: 64, reservedMiB: 32 })
  const byName = Object.fromEntries(p.phases!.map((x) => [x.name, x]))

  it('runs every phase in bonnie++’s order over the whole file', () => {
    expect(p.phases!.map((x) => x.name)).toEqual([
      'putc',
      'put_block',
      'rewrite',
      'getc',
      'get_block',
      'seeks',
      'seq_create',
      'seq_stat',
      'seq_del',
      'ran_create',
      'ran_stat',
      'ran_del',
    ])
    for (const n of ['putc', 'put_block', 'rewrite', 'getc', 'get_block'])
      expect(byName[n].bytes).toBe(128 * 2 ** 20)
    expect(byName.seeks.ops).toBe(600)
    expect(byName.seq_create.ops).toBe(1024)
    expect(p.finished).toBe(true)
  })

  it('is CPU-bound per character and I/O-bound per block, as bonnie++ reports', () => {
    const cpu = (n: string) => byName[n].cpuSeconds / byName[n].seconds
    expect(cpu('putc')).toBeGreaterThan(3 * cpu('put_block'))
    expect(cpu('getc')).toBeGreaterThan(3 * cpu('get_block'))
    // rewrite reads and writes every block: slower than either alone
    expect(byName.rewrite.seconds).toBeGreaterThan(byName.put_block.seconds)
    // the seekers' CPU is counted, and it is small next to the time spent waiting for the disk
    expect(byName.seeks.cpuSeconds).toBeGreaterThan(0)
    expect(byName.seeks.cpuSeconds / byName.seeks.seconds).toBeLessThan(0.2)
    // random 8 KiB reads of a file much larger than the cache: disk-bound seeks
    expect(byName.seeks.ops / byName.seeks.seconds).toBeLessThan(400)
  })

  it('prints the table and the CSV line as bonnie++ 1.03 does, with +++++ for phases too short to time', () => {
    const csv = bonnieCsv('sim', 128 * 2 ** 20, 1, p.phases!).split(',')
    expect(csv).toHaveLength(27)
    expect(csv.slice(0, 2)).toEqual(['sim', '128M'])
    expect(Number(csv[4])).toBeCloseTo((128 * 1024) / byName.put_block.seconds, -1)
    expect(csv[14]).toBe('1')
    expect(csv.slice(15)).toContain('+++++')
    const table = bonnieTable('sim', 128 * 2 ** 20, 1, p.phases!).split('\n')
    expect(table).toHaveLength(8)
    expect(table[3]).toMatch(/^sim\s+128M\s+\d+\s+\d+\s+\d+\s+\d+/)
  })
})
