import type { Program, Sys } from '../host/program'
import type { SimFile } from '../host/files'
import type { WorkloadType } from './workload'

/**
 * cat FILE > /dev/null: buffered sequential reads of `bs` (coreutils uses 128 KiB) to the end of
 * the file, through the page cache and read-ahead; each block is then written to /dev/null.
 */
class Cat implements Program {
  private off = 0
  private toNull = false

  constructor(
    private readonly f: SimFile,
    private readonly size: number,
    private readonly bs: number,
  ) {}

  step(sys: Sys): void {
    if (this.toNull) {
      this.toNull = false
      return sys.charDevice(this.bs, false)
    }
    if (this.off >= this.size) return sys.exit()
    const n = Math.min(this.bs, this.size - this.off)
    const off = this.off
    this.off += n
    this.toNull = true
    sys.read(this.f, off, n, false)
  }

  progress(): number {
    return this.off / this.size
  }
}

export const cat: WorkloadType = {
  name: 'cat',
  summary: 'cat FILE > /dev/null: a buffered sequential read through read-ahead',
  params: [
    { name: 'file', kind: 'string', default: '', unit: '', meaning: 'file to read; default: one of its own' },
    {
      name: 'size',
      kind: 'size',
      default: 100 * 1024 * 1024,
      unit: 'bytes',
      meaning: 'file size (bytes read)',
      min: 4096,
      max: 2 ** 50,
    },
    {
      name: 'bs',
      kind: 'size',
      default: 128 * 1024,
      unit: 'bytes',
      meaning: 'read(2) size (coreutils: 128 KiB)',
      min: 1,
      max: 1 << 30,
    },
  ],
  files: (p, name) => [{ name: (p.file as string) || `${name}.cat`, size: p.size as number }],
  openEnded: () => false,
  plannedOps: (p) => Math.ceil((p.size as number) / (p.bs as number)),
  ioBytes: (p) => p.bs as number,
  create: (p, env) => {
    const f = env.file((p.file as string) || `${env.name}.cat`)
    return [{ suffix: '', program: new Cat(f, Math.min(p.size as number, f.size), p.bs as number) }]
  },
}
