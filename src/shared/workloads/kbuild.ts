import type { Program, Sys } from '../host/program'
import type { SimFile } from '../host/files'
import type { Rng } from '../sim/rng'
import { MS } from '../sim/time'
import type { ParamValues } from '../util/params'
import type { WorkloadType } from './workload'

interface Tree {
  src: SimFile
  hdr: SimFile
  obj: SimFile
  sourceBytes: number
  headerBytes: number
  headers: number
  objectBytes: number
}

/**
 * One compiler run (cc1 + as): read its source file, read the headers it includes (drawn from a
 * shared pool, so they are mostly cached after the first units), compute, write its object file.
 * While it computes it builds its working memory (`memPages` of anonymous memory, written as it
 * goes, the computation spread over them) and holds it until it exits: under a small memory that
 * is where a build pages. Each is a new short-lived process, as under make: schedulers that learn
 * per process (AS, CFQ, BFQ) see a stream of strangers.
 */
class CompileUnit implements Program {
  private stage = 0
  private h = 0

  constructor(
    private readonly t: Tree,
    private readonly unit: number,
    private readonly includes: number,
    private readonly compute: number,
    private readonly memPages: number,
    private readonly rng: Rng,
  ) {}

  step(sys: Sys): void {
    const t = this.t
    switch (this.stage) {
      case 0:
        this.stage = 1
        return sys.read(t.src, this.unit * t.sourceBytes, t.sourceBytes, false)
      case 1:
        if (this.h < this.includes) {
          this.h++
          return sys.read(t.hdr, this.rng.int(t.headers) * t.headerBytes, t.headerBytes, false)
        }
        this.stage = 2
        if (this.memPages > 0)
          return sys.touch(0, this.memPages, true, Math.round(this.compute / this.memPages))
        return sys.compute(this.compute)
      case 2:
        this.stage = 3
        return sys.write(t.obj, this.unit * t.objectBytes, t.objectBytes, false)
      default:
        return sys.exit()
    }
  }

  progress(): number {
    return this.stage / 3
  }
}

/** make -j N: keeps N compiler processes running until every unit is built. */
class Make implements Program {
  private next = 0

  constructor(
    private readonly t: Tree,
    private readonly units: number,
    private readonly jobs: number,
    private readonly includes: number,
    private readonly compute: number,
    private readonly memPages: number,
    private readonly rng: Rng,
  ) {}

  step(sys: Sys): void {
    if (this.next < this.units && sys.liveChildren < this.jobs) {
      const u = this.next++
      return sys.spawn(
        `cc${u}`,
        new CompileUnit(this.t, u, this.includes, this.compute, this.memPages, this.rng.fork(`cc${u}`)),
      )
    }
    if (sys.liveChildren > 0) return sys.waitChild()
    sys.exit()
  }

  progress(): number {
    return this.next / this.units
  }
}

const names = (n: string) => ({ src: `${n}.src`, hdr: `${n}.hdr`, obj: `${n}.obj` })

export const kbuild: WorkloadType = {
  name: 'kbuild',
  summary:
    'a kernel-build-like make -j N: short-lived compiler processes reading sources and headers, writing objects',
  params: [
    {
      name: 'jobs',
      kind: 'int',
      default: 2,
      unit: 'processes',
      meaning: 'make -j: compilers running at once',
      min: 1,
      max: 1024,
    },
    {
      name: 'units',
      kind: 'int',
      default: 200,
      unit: 'files',
      meaning: 'source files to compile',
      min: 1,
      max: 1e7,
    },
    {
      name: 'sourceKiB',
      kind: 'number',
      default: 16,
      unit: 'KiB',
      meaning: 'size of a source file',
      min: 0.5,
      max: 1 << 20,
    },
    {
      name: 'headers',
      kind: 'int',
      default: 400,
      unit: 'files',
      meaning: 'header files in the tree',
      min: 1,
      max: 1e7,
    },
    {
      name: 'headerKiB',
      kind: 'number',
      default: 8,
      unit: 'KiB',
      meaning: 'size of a header file',
      min: 0.5,
      max: 1 << 20,
    },
    {
      name: 'includes',
      kind: 'int',
      default: 30,
      unit: 'files',
      meaning: 'headers each unit reads',
      min: 0,
      max: 1e5,
    },
    {
      name: 'computeMs',
      kind: 'number',
      default: 40,
      unit: 'ms',
      meaning: 'CPU time to compile one unit',
      min: 0,
      max: 1e7,
    },
    {
      name: 'cc1MiB',
      kind: 'number',
      default: 16,
      unit: 'MiB',
      meaning:
        'working memory of one compiler run: allocated and written while it compiles, held until it exits (0 = none)',
      min: 0,
      max: 1 << 20,
      source:
        '[inferred, not a measurement] GCC 3.x grows its garbage-collected heap to ggc-min-heapsize before collecting (GCC params.def; RAM/8 from GCC 3.3, 32 MB on a 256 MB machine), plus the preprocessed unit and obstacks; no measured cc1 of 2003 was found',
    },
    {
      name: 'objectKiB',
      kind: 'number',
      default: 24,
      unit: 'KiB',
      meaning: 'size of an object file',
      min: 0.5,
      max: 1 << 20,
    },
  ],
  files: (p, name) => {
    const n = names(name)
    const kib = (k: string): number => Math.ceil((p[k] as number) * 1024)
    return [
      { name: n.src, size: (p.units as number) * kib('sourceKiB') },
      { name: n.hdr, size: (p.headers as number) * kib('headerKiB') },
      { name: n.obj, size: (p.units as number) * kib('objectKiB') },
    ]
  },
  openEnded: () => false,
  create: (p: ParamValues, env) => {
    const n = names(env.name)
    const kib = (k: string): number => Math.ceil((p[k] as number) * 1024)
    const tree: Tree = {
      src: env.file(n.src),
      hdr: env.file(n.hdr),
      obj: env.file(n.obj),
      sourceBytes: kib('sourceKiB'),
      headerBytes: kib('headerKiB'),
      headers: p.headers as number,
      objectBytes: kib('objectKiB'),
    }
    const compute = Math.round((p.computeMs as number) * MS)
    const memPages = Math.round(((p.cc1MiB as number) * 2 ** 20) / 4096)
    return [
      {
        suffix: '',
        program: new Make(
          tree,
          p.units as number,
          p.jobs as number,
          p.includes as number,
          compute,
          memPages,
          env.rng('make'),
        ),
      },
    ]
  },
}
