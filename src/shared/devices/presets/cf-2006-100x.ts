import type { DevicePreset } from './preset'

export const CF_2006: DevicePreset = {
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
