import type { Program, Sys } from '../host/program'
import type { SimFile } from '../host/files'

export interface BlockCopyOptions {
  write: boolean
  bs: number
  count: number
  /** Blocks to skip at the start of the file. */
  skip: number
  direct: boolean
  /** Start again when done, until the experiment stops. */
  loop: boolean
  /** fsync the file after writing it (each pass). */
  fsync: boolean
  /** O_DSYNC (dd oflag=dsync): every write is followed by an fdatasync. */
  dsync?: boolean
  /** open(O_TRUNC) before each pass (dd without conv=notrunc): every write extends the file. */
  truncate?: boolean
  /** The other end is a character device (/dev/zero, /dev/null), costing a system call per block;
   *  false for lmdd's `internal`, which costs nothing. */
  charDevice: boolean
}

/**
 * The loop at the heart of dd and lmdd: `count` blocks of `bs`, read from a file to a sink or
 * written to a file from a source, buffered or O_DIRECT, optionally fsynced and looping.
 */
export class BlockCopy implements Program {
  private i = 0
  private phase = 0
  private synced = false
  private opened = false
  private dsyncDue = false

  constructor(
    private readonly f: SimFile,
    private readonly o: BlockCopyOptions,
  ) {}

  step(sys: Sys): void {
    const o = this.o
    if (this.dsyncDue) {
      this.dsyncDue = false
      return sys.fsync(this.f, true)
    }
    if (o.truncate && o.write && !this.opened) {
      this.opened = true
      return sys.truncate(this.f)
    }
    if (this.i >= o.count) {
      if (o.fsync && o.write && !this.synced) {
        this.synced = true
        return sys.fsync(this.f)
      }
      if (!o.loop) return sys.exit()
      this.i = 0
      this.synced = false
      if (o.truncate && o.write) {
        return sys.truncate(this.f)
      }
    }
    if (o.charDevice && this.phase === 0) {
      // the other end: read /dev/zero (a zero fill) or write /dev/null (nothing to copy)
      this.phase = 1
      return sys.charDevice(o.bs, o.write)
    }
    this.phase = 0
    const off = (o.skip + this.i) * o.bs
    this.i++
    if (o.write) {
      this.dsyncDue = o.dsync === true
      sys.write(this.f, off, o.bs, o.direct)
    } else sys.read(this.f, off, o.bs, o.direct)
  }

  progress(): number {
    return this.o.loop ? NaN : this.i / this.o.count
  }
}
