import type { DevicePreset } from './preset'
import { FITTED, fittedSeek, seekSources } from './hdd-seek'

export const HDD_2003_IDE: DevicePreset = {
  name: 'hdd-2003-ide',
  model: 'hdd',
  description:
    'A 7200 rpm ~40 GB IDE disk of 2003 with a 2 MiB buffer (published measurement A): ~27 MB/s streaming, one command at a time, 128 KiB transfers.',
  values: {
    rpm: 7200,
    heads: 4,
    cylinders: 50_106,
    zones: 16,
    outerSectorsPerTrack: 503,
    innerSectorsPerTrack: 277,
    ...fittedSeek,
    headSwitchMs: 1.0,
    writeSettleMs: 1.0,
    commandOverheadMs: 0.5,
    interfaceMBps: 100,
    segmentCount: 2,
    segmentKiB: 512,
    writeCacheKiB: 1024,
    destageChunkKiB: 512,
    queueDepth: 1,
    maxTransferKiB: 128,
    seekSpreadPct: 8,
    seekErrorRate: 1e-6,
    readRetryRate: 1e-10,
  },
  sources: {
    rpm: 'published A: a 2003 7200 rpm IDE disk (reference §9)',
    heads: '[inferred] two platters of ~20 GB, typical for a 40 GB drive of 2002–2003',
    cylinders: '[inferred] chosen with the zones to give ~40 GB (78 167 172 sectors; 40 GB = 78 165 360)',
    zones: '[inferred] typical zone count of the era',
    outerSectorsPerTrack:
      '[inferred] sized for ~27.5 MB/s sustained in the outer zone: between the measured ~29 MB/s reads and ~25 MB/s writes of published A (vmstat bi/bo)',
    innerSectorsPerTrack: '[inferred] inner/outer ≈ 0.55, typical zoning ratio',
    ...seekSources(
      `[inferred] ${FITTED}, fitted to a 2005 drive; 2003 IDE datasheets quote 8.5–8.9 ms average`,
    ),
    headSwitchMs: '[inferred] 1 ms, within the 0.2–1.6 ms range of reference §9',
    writeSettleMs: 'reference §9: writes ~1 ms more than reads',
    commandOverheadMs: '[inferred] IDE command overhead of the era, ~0.5 ms',
    interfaceMBps: '[inferred] UltraDMA/100',
    segmentCount:
      '[inferred] 2 MiB buffer (reference §9) split as 2 × 512 KiB read segments + 1 MiB write cache',
    segmentKiB: '[inferred] see segmentCount',
    writeCacheKiB: '[inferred] write caching on (IDE default); share of the 2 MiB buffer',
    destageChunkKiB: '[inferred]',
    queueDepth: 'published A: IDE, no command queueing',
    maxTransferKiB: 'IDE LBA28: 256 sectors per command = 128 KiB',
    seekSpreadPct:
      'Hitachi Deskstar 7K1000.C specification §4.5.2.1: average read seek 8.5 ms typical, 9.2 ms max: each seek within ±8 % of the typical curve [inferred: uniform]; [inferred] the same for a 2003 drive',
    seekErrorRate:
      'Fujitsu MHL/MHM (ATA, 2001) product manual §1.8: positioning errors recovered by one retry ≤ 10 in 10^7 seeks (the bound, taken as the rate)',
    readRetryRate:
      'Seagate Barracuda 9 product manual §5.0: recovered data errors < 10 in 10^11 bits (the bound, taken as the rate); [inferred] the same for a 2003 IDE drive',
  },
}
