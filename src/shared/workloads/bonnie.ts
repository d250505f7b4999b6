import type { PhaseResult, Program, Sys } from '../host/program'
import type { SimFile } from '../host/files'
import type { Rng } from '../sim/rng'
import { US } from '../sim/time'
import type { ParamValues } from '../util/params'
import { RandomBlockOrder } from './block-order'
import { PhaseClock } from './phase-clock'
import { BONNIE_TESTS } from '../formats/bonnie-csv'
import type { WorkloadType, WorkloadEnv } from './workload'

/** bonnie++'s phases, in the order it runs them and reports them: the tests of its CSV line. */
export const BONNIE_PHASES = BONNIE_TESTS
type Phase = (typeof BONNIE_PHASES)[number]

export interface BonnieOptions {
  size: number
  chunk: number
  /** CPU per character of stdio putc/getc, ns. */
  charNs: number
  seeks: number
  seekProcs: number
  /** Files for the create/stat/delete tests (bonnie++ -n, in units of 1024). */
  files: number
  /** CPU of one file-system metadata operation (create, stat, unlink), ns. */
  metaOpNs: number
}

/** Bytes of an on-disk inode and of a directory entry (ext2/ext3). */
const INODE_BYTES = 128
const DIRENT_BYTES = 32

/**
 * bonnie++: sequential output per character (stdio putc) and per block, rewrite (read a block,
 * dirty it, write it back) through its one chunk-sized buffer (its memory: allocated and written
 * before the first test), sequential input per character and per block, random seeks by
 * `seekProcs` child processes (read a random block; every tenth is dirtied and written back), then
 * the small-file tests — create, stat and delete `files × 1024` empty files in sequential and in
 * random order. With a file system mounted, those go through it (its inodes, bitmaps, directory
 * blocks and journal: `Sys.metaOp`); without one, file metadata is modelled as the pages it
 * dirties in a file of its own: an inode in the inode table and an entry in the directory,
 * written back by writeback like any dirty page.
 */
class Bonnie implements Program {
  private phase = 0
  private i = 0
  private sub = 0
  private readonly clock = new PhaseClock()
  private readonly chunks: number
  private readonly nFiles: number
  private order: RandomBlockOrder | null = null
  /** Its I/O buffer (new char[chunk_size]), allocated and written before the first test. */
  private buffer = false

  constructor(
    private readonly data: SimFile,
    private readonly meta: SimFile,
    private readonly o: BonnieOptions,
    private readonly seed: Rng,
  ) {
    this.chunks = Math.floor(o.size / o.chunk)
    this.nFiles = o.files * 1024
  }

  step(sys: Sys): void {
    if (!this.buffer) {
      this.buffer = true
      return sys.touch(0, Math.ceil(this.o.chunk / 4096), true, 0)
    }
    for (;;) {
      if (this.phase >= BONNIE_PHASES.length) return sys.exit()
      const name = BONNIE_PHASES[this.phase]
      if (this.i === 0 && this.sub === 0) this.clock.begin(sys, name)
      if (this.run(sys, name)) return
      this.clock.end(sys)
      this.phase++
      this.i = 0
      this.sub = 0
      if (name === 'ran_create' || name === 'ran_stat') this.order = null
    }
  }

  /** One system call of the current phase; false when the phase is done. */
  private run(sys: Sys, p: Phase): boolean {
    const o = this.o
    const c = this.clock
    switch (p) {
      case 'putc': {
        // stdio: a chunk of putc() calls, then one write(2) of the buffer
        if (this.i >= this.chunks) return false
        if (this.sub === 0) return this.next(() => sys.compute(o.chunk * o.charNs))
        const off = this.i * o.chunk
        this.advance(o.chunk)
        return this.then(() => sys.write(this.data, off, o.chunk, false))
      }
      case 'getc': {
        // stdio: one read(2) of a buffer, then a chunk of getc() calls
        if (this.i >= this.chunks) return false
        const off = this.i * o.chunk
        if (this.sub === 0) return this.next(() => sys.read(this.data, off, o.chunk, false))
        this.advance(o.chunk)
        return this.then(() => sys.compute(o.chunk * o.charNs))
      }
      case 'put_block':
      case 'get_block': {
        if (this.i >= this.chunks) return false
        const off = this.i * o.chunk
        this.advance(o.chunk)
        if (p === 'put_block') sys.write(this.data, off, o.chunk, false)
        else sys.read(this.data, off, o.chunk, false)
        return true
      }
      case 'rewrite': {
        if (this.i >= this.chunks) return false
        const off = this.i * o.chunk
        if (this.sub === 0) return this.next(() => sys.read(this.data, off, o.chunk, false))
        this.advance(o.chunk)
        sys.write(this.data, off, o.chunk, false)
        this.sub = 0
        return true
      }
      case 'seeks':
        return this.seekPhase(sys)
      default:
        return this.filePhase(sys, p, c)
    }
  }

  private advance(bytes: number): void {
    this.i++
    this.clock.bytes += bytes
    this.clock.ops++
  }

  private next(call: () => void): true {
    this.sub = 1
    call()
    return true
  }

  private then(call: () => void): true {
    this.sub = 0
    call()
    return true
  }

  /** Fork the seekers, each with its share of the seeks, then wait for every one of them. */
  private seekPhase(sys: Sys): boolean {
    const o = this.o
    if (this.i < o.seekProcs) {
      const share = Math.floor(o.seeks / o.seekProcs) + (this.i < o.seeks % o.seekProcs ? 1 : 0)
      this.clock.ops += share
      const seeker = new Seeker(this.data, this.chunks, o.chunk, share, this.seed.fork(`seeker:${this.i}`))
      sys.spawn(`seeker${this.i++}`, seeker)
      return true
    }
    if (this.sub < o.seekProcs) {
      this.sub++
      sys.waitChild()
      return true
    }
    return false
  }

  /** create, stat and unlink of empty files: the inode and the directory entry they touch. */
  private filePhase(sys: Sys, p: Phase, c: PhaseClock): boolean {
    const o = this.o
    if (this.i >= this.nFiles) return false
    const random = p.startsWith('ran_')
    if (random && this.order === null) this.order = new RandomBlockOrder(this.nFiles, this.seed.fork(p))
    const file = random ? (this.sub === 0 ? (this.current = this.order!.next()) : this.current) : this.i
    const inodeOff = file * INODE_BYTES
    const direntOff = this.nFiles * INODE_BYTES + file * DIRENT_BYTES
    const op = p.slice(4) // create, stat, del
    if (this.sub === 0) {
      this.sub = 1
      sys.compute(o.metaOpNs)
      return true
    }
    if (sys.fsMetadata) {
      // the file system's own metadata I/O: inode, bitmaps and directory blocks
      this.finishFile(c)
      sys.metaOp(op === 'del' ? 'unlink' : op === 'stat' ? 'stat' : 'create', file)
      return true
    }
    if (op === 'stat') {
      this.finishFile(c)
      sys.read(this.meta, inodeOff, INODE_BYTES, false)
      return true
    }
    if (this.sub === 1) {
      this.sub = 2
      sys.write(this.meta, inodeOff, INODE_BYTES, false)
      return true
    }
    this.finishFile(c)
    sys.write(this.meta, direntOff, DIRENT_BYTES, false)
    return true
  }

  private current = 0

  private finishFile(c: PhaseClock): void {
    this.sub = 0
    this.i++
    c.ops++
  }

  progress(): number {
    return (this.phase + (this.i / Math.max(1, this.chunks)) * 0.999) / BONNIE_PHASES.length
  }

  phases(): PhaseResult[] {
    return this.clock.results()
  }
}

/** One of bonnie++'s seek processes: lseek to a random block and read it; dirty every tenth. */
class Seeker implements Program {
  private done = 0
  private dirty = -1

  constructor(
    private readonly f: SimFile,
    private readonly blocks: number,
    private readonly chunk: number,
    private readonly seeks: number,
    private readonly rng: Rng,
  ) {}

  step(sys: Sys): void {
    if (this.dirty >= 0) {
      const b = this.dirty
      this.dirty = -1
      return sys.write(this.f, b * this.chunk, this.chunk, false)
    }
    if (this.done >= this.seeks) return sys.exit()
    const b = this.rng.int(this.blocks)
    this.done++
    if (this.done % 10 === 0) this.dirty = b
    sys.read(this.f, b * this.chunk, this.chunk, false)
  }

  progress(): number {
    return this.done / this.seeks
  }
}

const dataOf = (name: string): string => `${name}.bonnie`
const metaOf = (name: string): string => `${name}.bonnie-meta`
const metaBytes = (p: ParamValues): number => (p.files as number) * 1024 * (INODE_BYTES + DIRENT_BYTES) + 4096

export const bonnie: WorkloadType = {
  name: 'bonnie++',
  summary:
    'bonnie++: per-char and block output, rewrite, per-char and block input, random seeks, small files',
  params: [
    {
      name: 'size',
      kind: 'size',
      default: 1024 ** 3,
      unit: 'bytes',
      meaning: '-s: file size (bonnie++ wants twice the RAM)',
      min: 1 << 20,
      max: 2 ** 50,
    },
    {
      name: 'chunk',
      kind: 'size',
      default: 8192,
      unit: 'bytes',
      meaning: '-s size:chunk: the block size of the block tests',
      min: 512,
      max: 1 << 26,
    },
    {
      name: 'charNs',
      kind: 'number',
      default: 10,
      unit: 'ns',
      meaning: 'CPU per putc()/getc() character (a 2003 PC: ~10–20 ns)',
      min: 0,
      max: 1e6,
    },
    {
      name: 'seeks',
      kind: 'int',
      default: 8000,
      unit: 'seeks',
      meaning: 'random seeks in all',
      min: 1,
      max: 1e9,
    },
    {
      name: 'seekProcs',
      kind: 'int',
      default: 3,
      unit: 'processes',
      meaning: 'processes doing the seeks at once',
      min: 1,
      max: 1024,
    },
    {
      name: 'files',
      kind: 'int',
      default: 16,
      unit: '×1024 files',
      meaning: '-n: files for the create/stat/delete tests (0 skips them)',
      min: 0,
      max: 1e6,
    },
    {
      name: 'metaOpUs',
      kind: 'number',
      default: 15,
      unit: 'µs',
      meaning: 'CPU of one create, stat or unlink in the file system',
      min: 0,
      max: 1e9,
    },
  ],
  files: (p, name) => [
    { name: dataOf(name), size: p.size as number },
    { name: metaOf(name), size: metaBytes(p) },
  ],
  openEnded: () => false,
  create: (p: ParamValues, env: WorkloadEnv) => [
    {
      suffix: '',
      program: new Bonnie(
        env.file(dataOf(env.name)),
        env.file(metaOf(env.name)),
        {
          size: p.size as number,
          chunk: p.chunk as number,
          charNs: p.charNs as number,
          seeks: p.seeks as number,
          seekProcs: p.seekProcs as number,
          files: p.files as number,
          metaOpNs: Math.round((p.metaOpUs as number) * US),
        },
        env.rng('bonnie'),
      ),
    },
  ],
}
