import type { DevicePreset } from './preset'
import { FITTED, fittedSeek, seekSources } from './hdd-seek'

export const HDD_7200_SATA: DevicePreset = {
  name: 'hdd-7200-sata',
  model: 'hdd',
  description:
    'Hitachi Deskstar 7K500 class: 500 GB, 7200 rpm SATA with NCQ; 64.8 MB/s outer, 31.0 MB/s inner, ~13 ms random 4 KiB reads.',
  values: {
    rpm: 7200,
    heads: 10,
    cylinders: 113_909,
    zones: 24,
    outerSectorsPerTrack: 1160,
    innerSectorsPerTrack: 555,
    ...fittedSeek,
    headSwitchMs: 0.8,
    writeSettleMs: 1.0,
    commandOverheadMs: 0.5,
    interfaceMBps: 300,
    segmentCount: 8,
    segmentKiB: 1024,
    writeCacheKiB: 8192,
    destageChunkKiB: 512,
    queueDepth: 32,
    maxTransferKiB: 512,
    ncqAgingMs: 500,
    seekSpreadPct: 8,
    seekErrorRate: 1e-6,
    readRetryRate: 1e-11,
  },
  sources: {
    rpm: 'Hitachi 7K500 datasheet: 7200 rpm',
    heads: 'Hitachi 7K500: 5 platters, 10 heads',
    cylinders: '[inferred] chosen with the zones to give 500 GB (976 782 170 sectors; datasheet 976 773 168)',
    zones: '[inferred]',
    outerSectorsPerTrack: 'sized so the outer zone sustains 64.8 MB/s with head/cylinder skew (reference §9)',
    innerSectorsPerTrack: 'sized so the inner zone sustains 31.0 MB/s (reference §9)',
    ...seekSources(FITTED),
    headSwitchMs: '[inferred] 0.8 ms (reference §9 gives 0.2–1.6 ms for switches)',
    writeSettleMs: 'reference §9: write seeks ~1 ms longer',
    commandOverheadMs:
      '[inferred] 0.5 ms; with the fitted seeks gives ~13 ms random 4 KiB reads (reference: ≈ 13.5 ms)',
    interfaceMBps: 'SATA 3 Gb/s: 300 MB/s',
    segmentCount: '[inferred] 16 MiB buffer: 8 × 1 MiB read segments + 8 MiB write cache',
    segmentKiB: '[inferred]',
    writeCacheKiB: '[inferred] write caching on (ATA default)',
    destageChunkKiB: '[inferred]',
    queueDepth: 'SATA NCQ: 32 tags',
    maxTransferKiB: '[inferred] Linux max_sectors_kb default 512',
    ncqAgingMs: '[inferred] firmware aging bound',
    seekSpreadPct:
      "Hitachi Deskstar 7K1000.C specification §4.5.2.1: average read seek 8.5 ms typical, 9.2 ms max: each seek within ±8 % of the typical curve [inferred: uniform] (the 7K500's successor in the same family)",
    seekErrorRate:
      'Fujitsu MHL/MHM (ATA) product manual §1.8: positioning errors recovered by one retry ≤ 10 in 10^7 seeks (the specified bound, taken as the rate)',
    readRetryRate:
      'Seagate Cheetah 15K.5 product manual §5.0 (2006): recovered data errors < 10 in 10^12 bits (the specified bound, taken as the rate)',
  },
}
