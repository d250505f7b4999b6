import type { DevicePreset } from './preset'

export const EMMC_45: DevicePreset = {
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
    readSensing: '1-2',
    senseUs: 20,
    programSpreadPct: 44,
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
    readSensing:
      'MLC with Gray coding: LSB pages need one read-reference voltage, MSB pages two (Cai et al., Proc. IEEE 2017, §II)',
    senseUs:
      '[inferred] 20 µs per sensing: LSB 50 µs, MSB 70 µs around the 60 µs mean (reference §10: MLC page read 40–75 µs: LSB (1 sensing) and MSB (2) pages)',
    programSpreadPct:
      "reference §10: MLC program 500–1300 µs (LSB/MSB), MSB/LSB ≈ 2.6: the same ±44 % around this part's mean",
  },
}
