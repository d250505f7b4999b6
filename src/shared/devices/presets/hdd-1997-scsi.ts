import type { DevicePreset } from './preset'
import { FITTED, fittedSeek, seekSources } from './hdd-seek'

export const HDD_1997_SCSI: DevicePreset = {
  name: 'hdd-1997-scsi',
  model: 'hdd',
  description:
    'Quantum Viking 4.5 GB Ultra-Wide SCSI, 7200 rpm, on an aic7880 under FreeBSD 2.2 (published measurement C): ~10.7 MB/s sequential, 64 KiB transfers.',
  values: {
    rpm: 7200,
    heads: 8,
    cylinders: 6967,
    zones: 12,
    outerSectorsPerTrack: 197,
    innerSectorsPerTrack: 122,
    ...fittedSeek,
    headSwitchMs: 1.0,
    writeSettleMs: 1.0,
    commandOverheadMs: 0.15,
    interfaceMBps: 40,
    segmentCount: 2,
    segmentKiB: 256,
    writeCacheKiB: 0,
    destageChunkKiB: 256,
    queueDepth: 1,
    maxTransferKiB: 64,
    seekSpreadPct: 8,
    seekErrorRate: 1e-7,
    readRetryRate: 1e-10,
  },
  sources: {
    rpm: 'published C: Quantum Viking, 7200 rpm',
    heads: '[inferred] 4 platters / 8 heads for 4.5 GB in 1997',
    cylinders: '[inferred] chosen with the zones to give ~4.55 GB (8 890 848 sectors)',
    zones: '[inferred]',
    outerSectorsPerTrack:
      '[inferred] sized for ~10.75 MB/s sustained in the outer zone, published C (dd 64k–128k: 10.75 MB/s)',
    innerSectorsPerTrack: '[inferred] inner/outer ≈ 0.62',
    ...seekSources(`[inferred] ${FITTED}, fitted to a 2005 drive; the Viking's own curve was not checked`),
    headSwitchMs: '[inferred] 1 ms',
    writeSettleMs: 'reference §9: writes ~1 ms more than reads',
    commandOverheadMs:
      '[inferred] small enough that 4 KiB reads from the read-ahead buffer keep up with the media (published C: 10.6 MB/s at bs=4k)',
    interfaceMBps: 'Ultra-Wide SCSI: 40 MB/s',
    segmentCount: '[inferred] 512 KiB buffer as 2 segments',
    segmentKiB: '[inferred]',
    writeCacheKiB: '[inferred] SCSI drives of the era shipped with write caching off (WCE=0)',
    destageChunkKiB: '[inferred] unused with the write cache off',
    queueDepth: 'brief: one command at a time (FreeBSD 2.2 ahc without tagged queueing)',
    maxTransferKiB: 'FreeBSD MAXPHYS = 64 KiB (published C: 128k reads split into two 64k transfers)',
    seekSpreadPct:
      'Hitachi Deskstar 7K1000.C specification §4.5.2.1: average read seek 8.5 ms typical, 9.2 ms max: each seek within ±8 % of the typical curve [inferred: uniform]; [inferred] the same for a 1997 drive',
    seekErrorRate:
      'Seagate Barracuda 9 (7200 rpm Ultra SCSI of 1997) product manual §5.0: seek errors less than 1 in 10^7 seeks (the bound, taken as the rate)',
    readRetryRate:
      'Seagate Barracuda 9 product manual §5.0: recovered data errors < 10 in 10^11 bits transferred (the bound, taken as the rate)',
  },
}
