import { SECOND } from '../../sim/time'
import type { SimTime } from '../../sim/time'
import { msToJiffies } from '../../sim/time'
import type { ParamSpec, ParamValues } from '../../util/params'

/** Batch directions, numbered as the kernel's REQ_ASYNC / REQ_SYNC: reads and sync writes are SYNC. */
export const ASYNC = 0
export const SYNC = 1
export type AsDir = typeof ASYNC | typeof SYNC

/** The sysfs store functions clamp every value to 0…INT_MAX (milliseconds). */
const INT_MAX = 2_147_483_647

/**
 * Tunables of block/as-iosched.c, as its sysfs files show them: milliseconds. The kernel keeps them
 * in jiffies (defaults written in HZ) — see `asJiffies` for how a value becomes jiffies on a host.
 */
export const anticipatoryTunables: readonly ParamSpec[] = [
  {
    name: 'read_expire',
    kind: 'int',
    default: 125,
    unit: 'ms',
    meaning: 'max time before a read (or sync write) is served: its FIFO deadline',
    min: 0,
    max: INT_MAX,
    source: 'default_read_expire = HZ / 8',
  },
  {
    name: 'write_expire',
    kind: 'int',
    default: 250,
    unit: 'ms',
    meaning: 'ditto for async writes; soft, looked at only inside a write batch',
    min: 0,
    max: INT_MAX,
    source: 'default_write_expire = HZ / 4',
  },
  {
    name: 'read_batch_expire',
    kind: 'int',
    default: 500,
    unit: 'ms',
    meaning: 'how long a read batch runs, from its first completion, before pending writes get a turn',
    min: 0,
    max: INT_MAX,
    source: 'default_read_batch_expire = HZ / 2',
  },
  {
    name: 'write_batch_expire',
    kind: 'int',
    default: 125,
    unit: 'ms',
    meaning: 'target length of a write batch; the number of writes per batch is auto-tuned toward it',
    min: 0,
    max: INT_MAX,
    source: 'default_write_batch_expire = HZ / 8',
  },
  {
    name: 'antic_expire',
    kind: 'int',
    default: 6,
    unit: 'ms',
    meaning: "max time the disk idles waiting for the last reader's next request; 0 turns anticipation off",
    min: 0,
    max: INT_MAX,
    source:
      'default_antic_expire = HZ / 150, at least 1 jiffy ("around 6ms"): 6 ms at HZ=1000, 4 at 250, 10 at 100',
  },
]

/** The kernel's defaults, in jiffies, as functions of HZ. */
const kernelDefault: Record<string, (hz: number) => number> = {
  read_expire: (hz) => Math.floor(hz / 8),
  write_expire: (hz) => Math.floor(hz / 4),
  read_batch_expire: (hz) => Math.floor(hz / 2),
  write_batch_expire: (hz) => Math.floor(hz / 8),
  antic_expire: (hz) => Math.max(1, Math.floor(hz / 150)),
}

/** The tunables in jiffies, indexed by direction as `struct as_data` holds them. */
export interface AsJiffies {
  fifoExpire: [number, number]
  batchExpire: [number, number]
  anticExpire: number
}

/**
 * A value left at its default is the kernel's HZ expression (HZ / 8 …), so a host at HZ=250 gets the
 * 31-jiffy read_expire and 1-jiffy antic_expire the kernel had there; a value set by the user is
 * converted as the sysfs store does it, msecs_to_jiffies (rounding up).
 */
export function asJiffies(t: ParamValues, hz: number): AsJiffies {
  const j = (name: string): number => {
    const v = t[name] as number
    const spec = anticipatoryTunables.find((s) => s.name === name)!
    return v === spec.default ? kernelDefault[name](hz) : msToJiffies(v, hz)
  }
  return {
    fifoExpire: [j('write_expire'), j('read_expire')],
    batchExpire: [j('write_batch_expire'), j('read_batch_expire')],
    anticExpire: j('antic_expire'),
  }
}

/** The kernel's clock: jiffies, the tick count at a host's HZ. */
export class Jiffies {
  private readonly tick: number

  constructor(readonly hz: number) {
    this.tick = SECOND / hz
  }

  /** `jiffies` at simulated time `now`. */
  at(now: SimTime): number {
    return Math.floor(now / this.tick)
  }

  /** The instant the tick counter reaches `j` (when a kernel timer for `j` runs). */
  start(j: number): SimTime {
    return Math.ceil(j * this.tick)
  }

  /** Whole milliseconds in `j` jiffies, rounded down as `(j * 1000) / HZ` in C. */
  toMs(j: number): number {
    return Math.floor((j * 1000) / this.hz)
  }
}
