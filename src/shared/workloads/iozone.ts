import type { PhaseResult, Program, Sys } from '../host/program'
import type { SimFile } from '../host/files'
import type { ParamValues } from '../util/params'
import { PhaseClock } from './phase-clock'
import type { WorkloadType } from './workload'

type Pass = 'write' | 'rewrite' | 'read' | 'reread'

/**
 * iozone's sequential tests on one file: `-i0` writes it then rewrites it, `-i1` reads it then
 * reads it again, in records of `-r` over `-s` bytes; `-I` uses O_DIRECT; `-e` includes the
 * flush (fsync) in a write pass's time. Each pass is reported as iozone reports it.
 */
class Iozone implements Program {
  private pass = 0
  private rec = 0
  private flushed = false
  private readonly clock = new PhaseClock()

  constructor(
    private readonly f: SimFile,
    private readonly passes: Pass[],
    private readonly record: number,
    private readonly records: number,
    private readonly direct: boolean,
    private readonly flush: boolean,
  ) {}

  step(sys: Sys): void {
    if (this.pass >= this.passes.length) return sys.exit()
    const kind = this.passes[this.pass]
    const write = kind === 'write' || kind === 'rewrite'
    if (this.rec === 0 && !this.flushed) this.clock.begin(sys, kind)
    if (this.rec < this.records) {
      const off = this.rec * this.record
      this.rec++
      this.clock.bytes += this.record
      this.clock.ops++
      if (write) sys.write(this.f, off, this.record, this.direct)
      else sys.read(this.f, off, this.record, this.direct)
      return
    }
    if (write && this.flush && !this.flushed) {
      this.flushed = true
      return sys.fsync(this.f)
    }
    this.clock.end(sys)
    this.pass++
    this.rec = 0
    this.flushed = false
    this.step(sys)
  }

  progress(): number {
    return (this.pass + this.rec / this.records) / this.passes.length
  }

  phases(): PhaseResult[] {
    return this.clock.results()
  }
}

const fileOf = (p: ParamValues, name: string): string => (p.file as string) || `${name}.iozone`

export const iozone: WorkloadType = {
  name: 'iozone',
  summary: 'iozone -i0 (write, rewrite) and/or -i1 (read, reread) -r RECORD -s SIZE [-I] [-e] on one file',
  params: [
    {
      name: 'tests',
      kind: 'enum',
      values: ['0', '1', '0,1'],
      default: '0,1',
      unit: '',
      meaning: '-i: 0 = write/rewrite, 1 = read/reread',
    },
    {
      name: 'record',
      kind: 'size',
      default: 4096,
      unit: 'bytes',
      meaning: '-r: record size',
      min: 512,
      max: 1 << 30,
    },
    {
      name: 'size',
      kind: 'size',
      default: 64 * 1024 * 1024,
      unit: 'bytes',
      meaning: '-s: file size',
      min: 4096,
      max: 2 ** 50,
    },
    { name: 'direct', kind: 'bool', default: false, unit: '', meaning: '-I: O_DIRECT' },
    {
      name: 'flush',
      kind: 'bool',
      default: false,
      unit: '',
      meaning: '-e: include fsync in the write passes’ time',
    },
    {
      name: 'file',
      kind: 'string',
      default: '',
      unit: '',
      meaning: '-f: file name; default: one of its own',
    },
  ],
  check: (p) =>
    (p.size as number) < (p.record as number)
      ? [['size', `-s ${p.size} is smaller than the record size ${p.record}`]]
      : [],
  files: (p, name) => [{ name: fileOf(p, name), size: p.size as number }],
  openEnded: () => false,
  // two passes over the file per test (write and rewrite, read and reread)
  plannedOps: (p) =>
    2 * (p.tests as string).split(',').length * Math.ceil((p.size as number) / (p.record as number)),
  ioBytes: (p) => p.record as number,
  create: (p, env) => {
    const tests = (p.tests as string).split(',')
    const passes: Pass[] = [
      ...(tests.includes('0') ? (['write', 'rewrite'] as const) : []),
      ...(tests.includes('1') ? (['read', 'reread'] as const) : []),
    ]
    const record = p.record as number
    return [
      {
        suffix: '',
        program: new Iozone(
          env.file(fileOf(p, env.name)),
          passes,
          record,
          Math.floor((p.size as number) / record),
          p.direct as boolean,
          p.flush as boolean,
        ),
      },
    ]
  },
}
