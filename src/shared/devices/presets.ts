import type { ParamValues } from '../util/params'

/**
 * Device presets: named value sets for a model, each value with where it comes from. A value
 * not taken from a datasheet or the reference (schedulers-and-devices.md §9–§10,
 * published-results.md) says "[inferred]" and why. Values not listed take the model's default
 * (hdd-params.ts / flash-params.ts), which are themselves documented there.
 */
export interface DevicePreset {
  readonly name: string
  /** Model name in the registry: `hdd` or `flash`. */
  readonly model: string
  readonly description: string
  readonly values: ParamValues
  /** Where each value comes from, by parameter name. */
  readonly sources: Record<string, string>
}

const FITTED =
  'reference §9 fitted curve (x = d/cylinders): x ≤ 0.108: 1.0 + 11.26·√x ms, else 2.85 + 17.15·x ms'
const seekSources = (why: string): Record<string, string> => ({
  seekModel: why,
  seekUnit: why,
  seekBoundary: why,
  seekShortA: why,
  seekShortB: why,
  seekLongC: why,
  seekLongE: why,
})
const fittedSeek: ParamValues = {
  seekModel: 'formula',
  seekUnit: 'fraction',
  seekBoundary: 0.108,
  seekShortA: 1.0,
  seekShortB: 11.26,
  seekLongC: 2.85,
  seekLongE: 17.15,
}

const HDD_2003_IDE: DevicePreset = {
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
  },
}

const HDD_1997_SCSI: DevicePreset = {
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
  },
}

const HDD_7200_SATA: DevicePreset = {
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
  },
}

const CF_2006: DevicePreset = {
  name: 'cf-2006-100x',
  model: 'flash',
  description:
    'A 100× CompactFlash card (2006) on an IDE adapter: ~21 MB/s reads, ~9 MB/s sequential writes, very slow small random writes (block-mapped FTL).',
  values: {
    capacityGiB: 2,
    channels: 1,
    diesPerChannel: 2,
    pageKiB: 2,
    readUs: 25,
    programUs: 250,
    eraseUs: 2000,
    channelMBps: 24,
    hostMBps: 33,
    commandOverheadUs: 400,
    linkCommandUs: 10,
    mapUnitKiB: 128,
    pagesPerBlock: 64,
    gc: false,
    writeBufferKiB: 0,
    slcCacheMiB: 0,
    queueDepth: 1,
    maxTransferKiB: 128,
  },
  sources: {
    capacityGiB: '[inferred] typical 100× card size in 2006',
    channels: '[inferred] single-channel CF controller',
    diesPerChannel: '[inferred] two NAND dies',
    pageKiB: 'large-block SLC NAND of 2006 (e.g. 2 Gbit parts): 2 KiB pages, 64 pages per 128 KiB block',
    readUs: 'SLC NAND datasheets of the era: tR 25 µs',
    programUs:
      'SLC NAND datasheets of the era: tPROG 200 µs typical, 700 µs max; 250 µs [inferred] gives ~10.7 MB/s sequential writes (reference §10: 9–11)',
    eraseUs: 'SLC NAND datasheets of the era: tBERS ~2 ms',
    channelMBps:
      '[inferred] effective controller↔NAND rate incl. ECC of a 2006 CF controller, chosen with commandOverheadUs for ~21 MB/s reads (reference §10: 15–21 MB/s)',
    hostMBps: '[inferred] UltraDMA/33 through a passive IDE adapter',
    commandOverheadUs: '[inferred] CF firmware command latency',
    linkCommandUs: '[inferred] ATA command/status handshakes',
    mapUnitKiB:
      'reference §10: unaligned or sub-page writes force read-modify-write of an erase block — a block-mapped FTL, unit = 128 KiB block [inferred size]',
    pagesPerBlock: 'see pageKiB',
    gc: 'block-mapped FTL: the cost of rewriting is in the read-modify-write, no separate GC',
    writeBufferKiB: 'none: CF cards acknowledge a write once it is on the flash',
    slcCacheMiB: 'none',
    queueDepth: 'IDE/CF: one command at a time',
    maxTransferKiB: 'IDE LBA28: 256 sectors = 128 KiB',
  },
}

const EMMC_45: DevicePreset = {
  name: 'emmc-4.5',
  model: 'flash',
  description:
    'eMMC 4.5 (2012) on dw_mmc, 50 MHz DDR 8-bit = 100 MB/s bus (published measurement B): ~40 MB/s reads, ~25 MB/s writes, random read:write ≈ 3:1.',
  values: {
    capacityGiB: 16,
    channels: 2,
    diesPerChannel: 4,
    pageKiB: 8,
    readUs: 60,
    programUs: 1200,
    eraseUs: 3000,
    channelMBps: 22,
    hostMBps: 100,
    commandOverheadUs: 250,
    linkCommandUs: 5,
    mapUnitKiB: 8,
    pagesPerBlock: 256,
    gc: true,
    overProvisioningPct: 7,
    gcThresholdPct: 5,
    initialFreePct: 6.5,
    writeBufferKiB: 0,
    slcCacheMiB: 0,
    queueDepth: 1,
    maxTransferKiB: 512,
  },
  sources: {
    capacityGiB: '[inferred] a 16 GB phone part of 2012',
    channels: '[inferred] 2-channel eMMC controller',
    diesPerChannel: '[inferred] 2 dies × 2 planes per channel',
    pageKiB: '[inferred] 2x-nm MLC: 8 KiB pages',
    readUs: 'reference §10: MLC page read 40–75 µs',
    programUs:
      'reference §10: MLC program 500–1300 µs (LSB/MSB average); 1200 µs [inferred] gives 24–27 MB/s writes (published B: 23–27)',
    eraseUs: 'reference §10: block erase 2.3–3.8 ms',
    channelMBps:
      '[inferred] effective per-channel rate incl. ECC of a low-cost eMMC controller; chosen for ~40 MB/s reads (published B: 35–41 MB/s)',
    hostMBps: 'published B: 50 MHz DDR × 8 bit = 100 MB/s',
    commandOverheadUs:
      '[inferred] MMC command/response and firmware per command; gives ~1.8k random 4 KiB read IOPS (reference §10: 1500–3500)',
    linkCommandUs: '[inferred] CMD/response frames on the MMC bus',
    mapUnitKiB: '[inferred] page-mapped FTL: a 4 KiB write is a read-modify-write of an 8 KiB page',
    pagesPerBlock: '[inferred] 2x-nm MLC: 256 pages per block',
    gc: 'reference §10: writes are out of place; GC moves valid pages and erases',
    overProvisioningPct: '[inferred] ~7 % (GB vs GiB)',
    gcThresholdPct: 'reference §10: MQSim default GC at 5 % free',
    initialFreePct: '[inferred] a used, full device: free space ≈ over-provisioning',
    writeBufferKiB:
      'eMMC 4.5 has an optional cache, off unless the host enables it (3.4-era kernels did not)',
    slcCacheMiB: 'none',
    queueDepth: 'eMMC 4.5: one command at a time (no command queue before eMMC 5.1)',
    maxTransferKiB: '[inferred] dw_mmc max_segs × seg size on the 3.4 kernel: 512 KiB',
  },
}

const SSD_SATA_MLC: DevicePreset = {
  name: 'ssd-sata-mlc',
  model: 'flash',
  description:
    'An MLC SATA SSD: 8 channels × 4 dies, 8 KiB pages, SATA 6 Gb/s, NCQ 32; ~100k random read IOPS class.',
  values: {
    capacityGiB: 256,
    channels: 8,
    diesPerChannel: 4,
    pageKiB: 8,
    readUs: 50,
    programUs: 900,
    eraseUs: 3000,
    channelMBps: 333,
    hostMBps: 550,
    commandOverheadUs: 25,
    linkCommandUs: 2.5,
    mapUnitKiB: 4,
    pagesPerBlock: 256,
    gc: true,
    overProvisioningPct: 7,
    gcThresholdPct: 5,
    initialFreePct: 6.5,
    writeBufferKiB: 32768,
    slcCacheMiB: 0,
    queueDepth: 32,
    maxTransferKiB: 512,
  },
  sources: {
    capacityGiB: '[inferred]',
    channels: 'brief / reference §10: 8 channels',
    diesPerChannel: 'brief: 4 dies per channel',
    pageKiB: 'reference §10: 8 KiB pages',
    readUs: 'brief: MLC page read 50 µs (reference §10: 40–75 µs)',
    programUs: 'brief: MLC program 900 µs (reference §10: 500–1300 µs)',
    eraseUs: 'reference §10: block erase 2.3–3.8 ms',
    channelMBps: 'reference §10: 333 MT/s × 8 bit',
    hostMBps: 'SATA 6 Gb/s: ~550 MB/s effective',
    commandOverheadUs: '[inferred] controller + AHCI latency; QD1 4 KiB read ≈ 90 µs',
    linkCommandUs: '[inferred] SATA command and status FISes; caps 4 KiB reads near 100k IOPS',
    mapUnitKiB:
      '[inferred] 4 KiB mapping, small writes packed into 8 KiB pages (reference §10: writes out of place)',
    pagesPerBlock: 'reference §10: 256 pages per block (MQSim default)',
    gc: 'reference §10',
    overProvisioningPct: '[inferred] 7 % (GB vs GiB)',
    gcThresholdPct: 'reference §10: GC at 5 % free (MQSim default)',
    initialFreePct: '[inferred] a used, full drive: free space ≈ over-provisioning',
    writeBufferKiB: '[inferred] part of the DRAM used as a volatile write cache (ATA write cache on)',
    slcCacheMiB: 'none',
    queueDepth: 'SATA NCQ: 32',
    maxTransferKiB: '[inferred] Linux max_sectors_kb default 512',
  },
}

const NVME_TLC: DevicePreset = {
  name: 'nvme-tlc',
  model: 'flash',
  description:
    'A TLC NVMe SSD: 8 channels × 8 dies, 16 KiB pages, PCIe ~3.5 GB/s, SLC write cache, queue depth 1023.',
  values: {
    capacityGiB: 1024,
    channels: 8,
    diesPerChannel: 8,
    pageKiB: 16,
    readUs: 80,
    programUs: 1500,
    eraseUs: 5000,
    channelMBps: 800,
    hostMBps: 3500,
    commandOverheadUs: 10,
    linkCommandUs: 0.3,
    mapUnitKiB: 4,
    pagesPerBlock: 384,
    gc: true,
    overProvisioningPct: 7,
    gcThresholdPct: 5,
    initialFreePct: 6.5,
    writeBufferKiB: 65536,
    slcCacheMiB: 12288,
    slcProgramUs: 250,
    queueDepth: 1023,
    maxTransferKiB: 512,
  },
  sources: {
    capacityGiB: '[inferred]',
    channels: 'brief: 8 channels',
    diesPerChannel: 'brief: 8 dies per channel',
    pageKiB: '[inferred] 3D TLC: 16 KiB pages',
    readUs: 'brief: TLC read ~80 µs',
    programUs: 'brief: TLC program ~1.5 ms',
    eraseUs: '[inferred] 3D TLC block erase ~5 ms',
    channelMBps: '[inferred] ONFI 4 / Toggle 3 class, 800 MT/s × 8 bit',
    hostMBps: 'brief: PCIe ~3.5 GB/s',
    commandOverheadUs: '[inferred] NVMe submission/completion + firmware; QD1 4 KiB read ≈ 95 µs',
    linkCommandUs: '[inferred] NVMe command/completion entries over PCIe',
    mapUnitKiB: '[inferred] 4 KiB mapping, small writes packed into 16 KiB pages',
    pagesPerBlock: '[inferred] 3D TLC',
    gc: 'reference §10',
    overProvisioningPct: '[inferred] 7 %',
    gcThresholdPct: 'reference §10: GC at 5 % free (MQSim default)',
    initialFreePct: '[inferred] a used, full drive',
    writeBufferKiB: '[inferred] part of the DRAM used as a volatile write cache',
    slcCacheMiB: '[inferred] dynamic SLC cache of a 1 TB TLC drive, ~12 GiB',
    slcProgramUs: '[inferred] SLC-mode program ~250 µs',
    queueDepth: 'brief: NVMe queue depth 1023',
    maxTransferKiB: '[inferred] Linux max_sectors_kb 512',
  },
}

const NULLBLK: DevicePreset = {
  name: 'nullblk',
  model: 'nullblk',
  description:
    'Linux null_blk: every command completes after a fixed 10 µs, 64 at a time — no mechanics, for seeing what a scheduler alone does.',
  values: { completionUs: 10, queueDepth: 64, maxTransferKiB: 512 },
  sources: {
    completionUs: 'null_blk completion_nsec (default 10 000 ns)',
    queueDepth: 'null_blk hw_queue_depth (default 64)',
    maxTransferKiB: 'Linux default max_sectors_kb',
  },
}

export const DEVICE_PRESETS: readonly DevicePreset[] = [
  HDD_2003_IDE,
  HDD_1997_SCSI,
  HDD_7200_SATA,
  CF_2006,
  EMMC_45,
  SSD_SATA_MLC,
  NVME_TLC,
  NULLBLK,
]
