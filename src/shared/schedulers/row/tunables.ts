import type { ParamSpec, ParamValues } from '../../util/params'

/**
 * ROW's sysfs attributes (block/row-iosched.c, CodeAurora msm-3.4/3.10, 2012–2014), with the
 * defaults of the 2014 design. `version` is ours: '2012' selects the first version posted to
 * linux-mmc in 2012 (one round robin over all seven queues in another order), whose own numbers
 * replace any of these left at its 2014 default.
 */
export const rowTunables: readonly ParamSpec[] = [
  quantum('hp_read_quantum', 100, 'high-priority (RT) reads'),
  quantum('hp_swrite_quantum', 5, 'high-priority (RT) sync writes'),
  quantum('rp_read_quantum', 75, 'regular (BE) reads'),
  quantum('rp_swrite_quantum', 4, 'regular (BE) sync writes'),
  quantum('rp_write_quantum', 4, 'regular async writes (writeback)'),
  quantum('lp_read_quantum', 3, 'low-priority (IDLE) reads'),
  quantum('lp_swrite_quantum', 2, 'low-priority (IDLE) sync writes'),
  {
    name: 'rd_idle_data',
    kind: 'int',
    default: 10,
    unit: 'ms',
    meaning: 'how long the device is left idle waiting for the next read when a busy read queue empties',
    min: 1,
    max: 10_000,
    source: 'ROW_IDLE_TIME_MSEC (2012: 5)',
  },
  {
    name: 'rd_idle_data_freq',
    kind: 'int',
    default: 25,
    unit: 'ms',
    meaning: 'idle only for a read queue whose last two requests arrived less than this apart',
    min: 1,
    max: 10_000,
    source: 'ROW_READ_FREQ_MSEC (2012: 20)',
  },
  {
    name: 'reg_starv_limit',
    kind: 'int',
    default: 5000,
    unit: 'dispatches',
    meaning: 'RT dispatches a waiting regular (BE) request tolerates before BE is served (2014 only)',
    min: 1,
    max: 1_000_000_000,
    source: 'ROW_REG_STARVATION_TOLLERANCE',
  },
  {
    name: 'low_starv_limit',
    kind: 'int',
    default: 10_000,
    unit: 'dispatches',
    meaning: 'higher-class dispatches a waiting IDLE request tolerates before IDLE is served (2014 only)',
    min: 1,
    max: 1_000_000_000,
    source: 'ROW_LOW_STARVATION_TOLLERANCE',
  },
  {
    name: 'version',
    kind: 'enum',
    default: '2014',
    unit: '',
    meaning:
      "'2014': priority classes, starvation limits, urgent requests; '2012': the first version's single round robin and numbers",
    values: ['2014', '2012'],
  },
]

function quantum(name: string, def: number, what: string): ParamSpec {
  return {
    name,
    kind: 'int',
    default: def,
    unit: 'requests',
    meaning: `dispatch quantum of the ${what} queue: requests per round-robin cycle`,
    min: 1,
    max: 1_000_000,
    source: 'row_queues_def[] (2014)',
  }
}

/** Quantum attribute of each queue, indexed by queue id (HIGH_READ … LOW_SWRITE, see queues.ts). */
const QUANTUM_ATTR: readonly string[] = [
  'hp_read_quantum',
  'hp_swrite_quantum',
  'rp_read_quantum',
  'rp_swrite_quantum',
  'rp_write_quantum',
  'lp_read_quantum',
  'lp_swrite_quantum',
]

/** The 2012 first version's numbers (queue_quantum[], ROW_IDLE_TIME_MSEC, ROW_READ_FREQ_MSEC). */
export const ROW_2012_PRESET: Readonly<Record<string, number>> = {
  hp_read_quantum: 100,
  rp_read_quantum: 100,
  hp_swrite_quantum: 2,
  rp_swrite_quantum: 1,
  rp_write_quantum: 1,
  lp_read_quantum: 1,
  lp_swrite_quantum: 1,
  rd_idle_data: 5,
  rd_idle_data_freq: 20,
}

export interface RowConfig {
  version: '2014' | '2012'
  /** Dispatch quantum by queue id. */
  quantum: number[]
  idleMs: number
  freqMs: number
  regStarvLimit: number
  lowStarvLimit: number
}

/**
 * The effective numbers. Under '2012' a value left at its 2014 default takes the 2012 preset;
 * any other value is the user's and wins. (Resolved tunables carry no "was it given" mark, so
 * asking for the 2014 default explicitly under '2012' also gets the preset.)
 */
export function rowConfig(t: ParamValues): RowConfig {
  const version = t.version === '2012' ? '2012' : '2014'
  const value = (name: string): number => {
    const v = t[name] as number
    if (version !== '2012') return v
    const spec = rowTunables.find((s) => s.name === name)!
    return v === spec.default ? ROW_2012_PRESET[name] : v
  }
  return {
    version,
    quantum: QUANTUM_ATTR.map(value),
    idleMs: value('rd_idle_data'),
    freqMs: value('rd_idle_data_freq'),
    regStarvLimit: t.reg_starv_limit as number,
    lowStarvLimit: t.low_starv_limit as number,
  }
}
