// The era host presets: a machine and kernel of each era, every value with its source.
import type { ParamValues } from '../util/params'

export interface HostPreset {
  name: string
  description: string
  values: ParamValues
  /** The file system of the era (type and mount options); absent: none modelled. */
  filesystem?: { type: string; options?: ParamValues }
  /** Where each value comes from; `filesystem` for the file system. */
  sources: Record<string, string>
}

export const hostPresets: readonly HostPreset[] = [
  {
    name: 'linux-modern',
    description: 'A current Linux machine (6.x): CFS, IO-less dirty throttling, 4 GiB.',
    values: { writebackPageUs: 0.7 },
    filesystem: { type: 'ext4' },
    sources: {
      dirtyRatio: 'mm/page-writeback.c: vm_dirty_ratio = 20 (since 2.6.22)',
      writebackPageUs:
        'measured on this machine (Linux 6.18, 2 vCPUs, ftrace block_bio_queue): fio’s BLKFLSBUF on a loop device queued a 4 KiB bio every 0.70 µs while not throttled (593 404 bios in 1 s; tracing adds to it)',
      largeFolioKiB:
        "include/linux/pagemap.h MAX_PAGECACHE_ORDER (PMD order 9 on x86-64: 2 MiB); mm/filemap.c __filemap_get_folio sizes a write's folio from its length (fgf_set_order), aligned to its index; measured on 6.18 (ftrace blk tracer, loop device): a 4 KiB O_DIRECT read inside data a 1 MiB buffered write had dirtied first wrote back exactly that 1 MiB, 584 times out of 584",
      vm: 'mm/vmscan.c and mm/page_alloc.c of 6.x (see src/shared/host/vm-era.ts)',
      filesystem:
        'ext4 with its defaults (fs/ext4/super.c: data=ordered, delalloc, barrier=1, commit=5; relatime from fs/namespace.c): the default file system of the current distributions',
    },
  },
  {
    name: 'linux-2003',
    description: 'Linux 2.5.61 on a 256 MB PC of early 2003 (published measurement A).',
    values: {
      memoryMiB: 256,
      reservedMiB: 48,
      dirtyRatio: 40,
      dirtyBackgroundRatio: 10,
      dirtyThrottle: 'writer-writeback',
      hz: 1000,
      cpus: 1,
      cpuPolicy: 'preemptive',
      syscallUs: 1,
      copyUsPerKiB: 1,
      submitUs: 2,
      vm: '2.6.0',
      reclaimUsPerPage: 1,
      largeFolioKiB: 4,
    },
    filesystem: {
      type: 'ext3',
      options: { data: 'ordered', commitSeconds: 5, barrier: false, atime: 'strictatime', commitIo: 'async' },
    },
    sources: {
      vm: '2.5.61 reclaims as 2.6.0 did: kswapd/balance_pgdat, shrink_list page-out, swap_tendency (mm/vmscan.c of 2.5.4x–2.6.0)',
      reclaimUsPerPage:
        '[inferred] ~1000 cycles of locking, rmap walk and list work per scanned page on a ~1 GHz CPU of 2003',
      memoryMiB: 'published-results.md A: "256 MB RAM class machine"',
      reservedMiB: '[inferred] kernel, X and shells of a 2003 desktop',
      dirtyRatio: 'mm/page-writeback.c 2.5/2.6.0–2.6.21: vm_dirty_ratio = 40',
      dirtyBackgroundRatio: 'mm/page-writeback.c 2.5/2.6: dirty_background_ratio = 10',
      dirtyThrottle: 'balance_dirty_pages() of 2.5/2.6 writes back pages from the writer itself',
      hz: 'HZ = 1000 from 2.5.2 on x86',
      largeFolioKiB: 'the 2.5/2.6 page cache holds single pages (folios came in 5.16)',
      copyUsPerKiB: '[inferred] ~1 GB/s memcpy of a 2003 Pentium 4',
      filesystem:
        'ext3 as of 2.5.61: data=ordered, commit=5 s, barrier=0 (fs/ext3/super.c), atime on every read (relatime came in 2.6.20/2.6.30), journal writes as plain WRITE (fs/jbd/commit.c)',
    },
  },
  {
    name: 'android-2012',
    description:
      'An Android phone of 2012 (Linux 3.4, dual-core ARM, 1 GB) — the ROW measurements (published B).',
    values: {
      memoryMiB: 1024,
      reservedMiB: 640,
      dirtyRatio: 20,
      dirtyBackgroundRatio: 5,
      dirtyThrottle: 'sleep',
      hz: 100,
      cpus: 2,
      cpuPolicy: 'preemptive',
      syscallUs: 1,
      copyUsPerKiB: 0.5,
      submitUs: 3,
      vm: 'modern',
      reclaimUsPerPage: 0.5,
      largeFolioKiB: 4,
    },
    filesystem: { type: 'ext4', options: { atime: 'noatime' } },
    sources: {
      memoryMiB: '[inferred] 1 GB phones of 2012 (Galaxy Nexus, Nexus 4: 1–2 GB)',
      reservedMiB: '[inferred] Android keeps most RAM for apps; about 384 MiB for the page cache',
      dirtyRatio: 'Linux 3.4 default vm.dirty_ratio = 20',
      dirtyBackgroundRatio: 'Android init.rc sets vm.dirty_background_ratio = 5',
      dirtyThrottle: 'IO-less dirty throttling since Linux 3.2',
      hz: 'ARM defconfigs of the era: HZ = 100',
      largeFolioKiB: 'Linux 3.4 caches single pages (folios came in 5.16)',
      cpus: '[inferred] dual-core Cortex-A9 of 2012',
      vm: 'Linux 3.4 reclaim: kswapd with min/low/high from min_free_kbytes, anon/file split by swappiness, no file write-back from direct reclaim (3.2+) — the modern rules, less watermark_scale_factor (4.6)',
      reclaimUsPerPage:
        '[inferred] a Cortex-A9 at ~1.2 GHz scans a page in about twice the time of a current x86 core',
      copyUsPerKiB: '[inferred] ~2 GB/s memcpy of a Cortex-A9',
      filesystem:
        'Android 4.x /data: ext4 (device fstabs of the Nexus phones mount it noatime,nosuid,nodev with the ext4 defaults data=ordered, barrier=1); Linux 3.4 jbd2 writes its commits WRITE_SYNC',
    },
  },
  {
    name: 'freebsd-1997',
    description:
      'FreeBSD 2.2.2 on a Pentium Pro 200 with 64 MB (published measurement C): no wake-up preemption.',
    values: {
      memoryMiB: 64,
      reservedMiB: 16,
      hz: 100,
      cpus: 1,
      cpuPolicy: 'tick',
      quantumMs: 50,
      vm: 'direct',
      syscallUs: 5,
      copyUsPerKiB: 10,
      submitUs: 20,
      physio: true,
      readAheadKiB: 64,
      largeFolioKiB: 4,
    },
    filesystem: { type: 'ffs' },
    sources: {
      memoryMiB: 'published-results.md C: "Pentium Pro 200, 64 MB"',
      hz: 'FreeBSD 2.2 default HZ = 100',
      largeFolioKiB: 'the 4.4BSD buffer cache: no folios (and the raw device stays outside it)',
      cpuPolicy: '4.4BSD: a process woken by I/O waits for roundrobin(); published C shows it',
      quantumMs:
        '[inferred] published C: ~21 records/s under load for every block size ≤ 64k ⇒ one switch every ~48 ms',
      physio:
        'FreeBSD physio(): raw transfers above MAXPHYS (64 KiB) are issued chunk by chunk from the process',
      vm: "FreeBSD's pagedaemon is not modelled: reclaim is done by the allocating process",
      syscallUs: '[inferred] Pentium Pro 200 system call cost',
      copyUsPerKiB: '[inferred] ~100 MB/s memcpy of a Pentium Pro 200',
      filesystem:
        'FreeBSD 2.2 FFS without soft updates (synchronous create/unlink metadata); published C reads the raw device, which no file system touches',
    },
  },
]
