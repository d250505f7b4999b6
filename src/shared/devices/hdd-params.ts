import type { ParamIssue, ParamSpec, ParamValues } from '../util/params'
import type { HddConfig } from './hdd'
import { linearZones, parseZoneTable, type Zone } from './hdd-mechanics'
import { parseSeekTable, type SeekCurve } from './seek'

/**
 * The rotating-disk model's parameters as data. Defaults describe the Hitachi 7K500 class drive
 * of reference §9 (the `hdd-7200-sata` preset); presets override them.
 */
export const HDD_PARAMS: readonly ParamSpec[] = [
  { name: 'rpm', kind: 'int', default: 7200, unit: 'rpm', meaning: 'Spindle speed', min: 1, max: 20000 },
  {
    name: 'heads',
    kind: 'int',
    default: 10,
    unit: 'heads',
    meaning: 'Recording surfaces (tracks per cylinder)',
    min: 1,
    max: 64,
  },
  {
    name: 'cylinders',
    kind: 'int',
    default: 113_500,
    unit: 'cylinders',
    meaning: 'Cylinders (ignored when zoneTable is set)',
    min: 1,
    max: 10_000_000,
  },
  {
    name: 'zones',
    kind: 'int',
    default: 24,
    unit: 'zones',
    meaning: 'Recording zones of equal width (ignored when zoneTable is set)',
    min: 1,
    max: 1000,
  },
  {
    name: 'outerSectorsPerTrack',
    kind: 'int',
    default: 1160,
    unit: 'sectors',
    meaning: 'Sectors per track in the outermost zone',
    min: 2,
    max: 100_000,
  },
  {
    name: 'innerSectorsPerTrack',
    kind: 'int',
    default: 555,
    unit: 'sectors',
    meaning: 'Sectors per track in the innermost zone',
    min: 2,
    max: 100_000,
  },
  {
    name: 'zoneTable',
    kind: 'string',
    default: '',
    unit: '',
    meaning:
      'Explicit zones "cylinders:sectorsPerTrack, …" outer first; overrides cylinders/zones/…SectorsPerTrack',
  },
  {
    name: 'seekModel',
    kind: 'enum',
    default: 'formula',
    unit: '',
    meaning: 'Seek curve: two-piece formula or a table of measured points',
    values: ['formula', 'table'],
  },
  {
    name: 'seekUnit',
    kind: 'enum',
    default: 'fraction',
    unit: '',
    meaning: 'Formula distance: cylinders, or fraction of the full stroke',
    values: ['fraction', 'cylinders'],
  },
  {
    name: 'seekBoundary',
    kind: 'number',
    default: 0.108,
    unit: 'cylinders or fraction',
    meaning: 'Longest "short" seek: a + b·√d up to here, c + e·d beyond',
    min: 0,
  },
  {
    name: 'seekShortA',
    kind: 'number',
    default: 1.0,
    unit: 'ms',
    meaning: 'Short seeks: constant a of a + b·√d',
    min: 0,
  },
  {
    name: 'seekShortB',
    kind: 'number',
    default: 11.26,
    unit: 'ms/√distance',
    meaning: 'Short seeks: coefficient b of a + b·√d',
    min: 0,
  },
  {
    name: 'seekLongC',
    kind: 'number',
    default: 2.85,
    unit: 'ms',
    meaning: 'Long seeks: constant c of c + e·d',
    min: 0,
  },
  {
    name: 'seekLongE',
    kind: 'number',
    default: 17.15,
    unit: 'ms/distance',
    meaning: 'Long seeks: slope e of c + e·d',
    min: 0,
  },
  {
    name: 'seekTable',
    kind: 'string',
    default: '',
    unit: 'cylinders:ms',
    meaning: 'Measured seek points "distance:ms, …" interpolated linearly (seekModel=table)',
  },
  {
    name: 'headSwitchMs',
    kind: 'number',
    default: 0.8,
    unit: 'ms',
    meaning: 'Head switch time (track skew is sized to hide it)',
    min: 0,
    max: 100,
  },
  {
    name: 'writeSettleMs',
    kind: 'number',
    default: 1.0,
    unit: 'ms',
    meaning: 'Extra settle after a seek before writing',
    min: 0,
    max: 100,
  },
  {
    name: 'commandOverheadMs',
    kind: 'number',
    default: 0.3,
    unit: 'ms',
    meaning: 'Controller overhead per command',
    min: 0,
    max: 100,
  },
  {
    name: 'interfaceMBps',
    kind: 'number',
    default: 300,
    unit: 'MB/s',
    meaning: 'Host interface rate for buffer transfers (cache hits, cached writes)',
    min: 0.001,
  },
  {
    name: 'segmentCount',
    kind: 'int',
    default: 8,
    unit: 'segments',
    meaning: 'Read-ahead cache segments (0 = no read cache)',
    min: 0,
    max: 1024,
  },
  {
    name: 'segmentKiB',
    kind: 'int',
    default: 1024,
    unit: 'KiB',
    meaning: 'Size of one read-ahead segment; the drive prefetches up to this far ahead',
    min: 1,
  },
  {
    name: 'writeCacheKiB',
    kind: 'int',
    default: 8192,
    unit: 'KiB',
    meaning: 'Write-back cache (0 = write-through: a write completes on the media)',
    min: 0,
  },
  {
    name: 'destageChunkKiB',
    kind: 'int',
    default: 1024,
    unit: 'KiB',
    meaning: 'Largest contiguous run written back in one media access',
    min: 1,
  },
  {
    name: 'queueDepth',
    kind: 'int',
    default: 32,
    unit: 'commands',
    meaning: 'Commands the drive holds (1 = no queueing; >1 = NCQ/TCQ, shortest positioning first)',
    min: 1,
    max: 256,
  },
  {
    name: 'maxTransferKiB',
    kind: 'int',
    default: 512,
    unit: 'KiB',
    meaning: "Driver's largest transfer (max_sectors_kb)",
    min: 1,
  },
  {
    name: 'seekSpreadPct',
    kind: 'number',
    default: 0,
    unit: '%',
    meaning:
      'Each seek takes its curve time × a uniform factor in [1 − s, 1 + s] (settling varies from seek to seek); 0 = every seek exactly the curve',
    min: 0,
    max: 50,
    source:
      'Hitachi Deskstar 7K1000.C specification §4.5.2.1: average read seek 8.5 ms typical, 9.2 ms max (max = the largest on any drive over the full environmental range): 8 %',
  },
  {
    name: 'seekErrorRate',
    kind: 'number',
    default: 0,
    unit: 'errors/seek',
    meaning: 'Positioning errors per seek, each recovered by one more (short) seek',
    min: 0,
    max: 0.5,
    source:
      'Seagate Barracuda 9 product manual §5.0: less than 1 in 10^7 seeks; Fujitsu MHL/MHM product manual §1.8: ≤ 10 in 10^7, recovered by one retry',
  },
  {
    name: 'readRetryRate',
    kind: 'number',
    default: 0,
    unit: 'errors/bit',
    meaning: 'Recovered read errors per bit read, each costing one revolution (the sector is read again)',
    min: 0,
    max: 0.001,
    source:
      'Seagate Barracuda 9 product manual §5.0: recovered data errors less than 10 in 10^11 bits; Seagate Cheetah 15K.5: less than 10 in 10^12 bits',
  },
  {
    name: 'ncqAgingMs',
    kind: 'number',
    default: 500,
    unit: 'ms',
    meaning: 'A queued command older than this is served next, whatever its position',
    min: 0,
  },
]

/** Turn validated values into a configuration; problems with the table strings go to `issues`. */
export function hddConfig(v: ParamValues, name: string, issues: ParamIssue[] = [], path = ''): HddConfig {
  const at = (k: string): string => (path ? `${path}.${k}` : k)
  let zones: Zone[] = linearZones(
    v.cylinders as number,
    v.zones as number,
    v.outerSectorsPerTrack as number,
    v.innerSectorsPerTrack as number,
  )
  if (v.zoneTable !== '') {
    const z = parseZoneTable(v.zoneTable as string)
    if (typeof z === 'string') issues.push({ path: at('zoneTable'), message: z })
    else zones = z
  }
  let seek: SeekCurve = {
    kind: 'formula',
    unit: v.seekUnit as 'fraction' | 'cylinders',
    boundary: v.seekBoundary as number,
    a: v.seekShortA as number,
    b: v.seekShortB as number,
    c: v.seekLongC as number,
    e: v.seekLongE as number,
  }
  if (v.seekModel === 'table') {
    const t = parseSeekTable(v.seekTable as string)
    if (typeof t === 'string') issues.push({ path: at('seekTable'), message: t })
    else seek = t
  }
  return {
    name,
    zones,
    heads: v.heads as number,
    rpm: v.rpm as number,
    seek,
    headSwitchMs: v.headSwitchMs as number,
    writeSettleMs: v.writeSettleMs as number,
    commandOverheadMs: v.commandOverheadMs as number,
    interfaceMBps: v.interfaceMBps as number,
    segmentCount: v.segmentCount as number,
    segmentKiB: v.segmentKiB as number,
    writeCacheKiB: v.writeCacheKiB as number,
    destageChunkKiB: v.destageChunkKiB as number,
    queueDepth: v.queueDepth as number,
    maxTransferKiB: v.maxTransferKiB as number,
    ncqAgingMs: v.ncqAgingMs as number,
    seekSpreadPct: v.seekSpreadPct as number,
    seekErrorRate: v.seekErrorRate as number,
    readRetryRate: v.readRetryRate as number,
  }
}
