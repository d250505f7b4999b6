import type { ParamSpec, ParamValues } from '../util/params'
import { VM_ERA_NAMES } from './vm-era'

/** Host (kernel and machine) parameters, as data. Times in ms or µs as their unit says. */
export const hostParams: readonly ParamSpec[] = [
  {
    name: 'memoryMiB',
    kind: 'int',
    default: 4096,
    unit: 'MiB',
    meaning: 'RAM of the machine',
    min: 8,
    max: 1 << 20,
  },
  {
    name: 'reservedMiB',
    kind: 'int',
    default: 512,
    unit: 'MiB',
    meaning: 'memory the kernel and processes hold, not available to the page cache',
    min: 0,
    max: 1 << 20,
  },
  {
    name: 'dirtyRatio',
    kind: 'number',
    default: 20,
    unit: '%',
    meaning:
      'vm.dirty_ratio: a writer is throttled when dirty + writeback pages exceed this share of cache memory',
    min: 1,
    max: 100,
  },
  {
    name: 'dirtyBackgroundRatio',
    kind: 'number',
    default: 10,
    unit: '%',
    meaning: 'vm.dirty_background_ratio: the flusher starts writing back above this share',
    min: 0,
    max: 100,
  },
  {
    name: 'dirtyExpireMs',
    kind: 'int',
    default: 30_000,
    unit: 'ms',
    meaning: 'vm.dirty_expire_centisecs×10: dirty data older than this is written by the periodic flusher',
    min: 1,
    max: 3_600_000,
  },
  {
    name: 'dirtyWritebackMs',
    kind: 'int',
    default: 5000,
    unit: 'ms',
    meaning: 'vm.dirty_writeback_centisecs×10: period of the flusher wake-ups',
    min: 1,
    max: 3_600_000,
  },
  {
    name: 'dirtyThrottle',
    kind: 'enum',
    default: 'sleep',
    values: ['sleep', 'writer-writeback'],
    unit: '',
    meaning:
      'how a writer over the dirty limit is throttled: sleeps while the flusher writes (3.2+ "IO-less"), or writes back pages itself then waits (2.5–3.1 balance_dirty_pages)',
  },
  {
    name: 'readAheadKiB',
    kind: 'int',
    default: 128,
    unit: 'KiB',
    meaning: 'read_ahead_kb: the largest read-ahead window (0 disables read-ahead)',
    min: 0,
    max: 65536,
  },
  {
    name: 'nrRequests',
    kind: 'int',
    default: 128,
    unit: 'requests',
    meaning: 'nr_requests: request slots of the queue (per direction on the legacy layer)',
    min: 1,
    max: 1 << 16,
  },
  {
    name: 'hz',
    kind: 'int',
    default: 1000,
    unit: 'Hz',
    meaning: 'kernel tick rate (jiffies per second)',
    min: 10,
    max: 10_000,
  },
  {
    name: 'cpus',
    kind: 'int',
    default: 1,
    unit: 'CPUs',
    meaning: 'processors that run the workload processes',
    min: 1,
    max: 256,
  },
  {
    name: 'cpuPolicy',
    kind: 'enum',
    default: 'preemptive',
    values: ['preemptive', 'tick'],
    unit: '',
    meaning:
      'CPU scheduling: CFS-like wake-up preemption favouring sleepers, or switching only at round-robin ticks',
  },
  {
    name: 'quantumMs',
    kind: 'number',
    default: 100,
    unit: 'ms',
    meaning: '`tick` policy: round-robin interval between forced switches',
    min: 0.1,
    max: 10_000,
  },
  {
    name: 'schedLatencyMs',
    kind: 'number',
    default: 6,
    unit: 'ms',
    meaning: '`preemptive` policy: period in which every runnable task runs once',
    min: 0.1,
    max: 1000,
  },
  {
    name: 'minGranularityMs',
    kind: 'number',
    default: 0.75,
    unit: 'ms',
    meaning: '`preemptive` policy: shortest slice',
    min: 0.01,
    max: 1000,
  },
  {
    name: 'wakeupGranularityMs',
    kind: 'number',
    default: 1,
    unit: 'ms',
    meaning: '`preemptive` policy: how far a woken task must lag to preempt the running one',
    min: 0,
    max: 1000,
  },
  {
    name: 'syscallUs',
    kind: 'number',
    default: 0.3,
    unit: 'µs',
    meaning: 'CPU time of a system call (entry, exit, bookkeeping)',
    min: 0.001,
    max: 100_000,
  },
  {
    name: 'wakeUs',
    kind: 'number',
    default: 0,
    unit: 'µs',
    meaning:
      'CPU time of a blocked process waking: the wake-up, the switch back in (schedule()), on a VM the exits of the idle vCPU and the wake-up interrupt — charged when it resumes',
    min: 0,
    max: 100_000,
    source:
      '[assumed] 0 in the era presets (folded into their system-call cost); the fingerprint fits it on this machine from fio’s CPU per I/O at QD1 (one sleep per I/O) beyond what its system calls take',
  },
  {
    name: 'copyUsPerKiB',
    kind: 'number',
    default: 0.1,
    unit: 'µs/KiB',
    meaning: 'CPU time to copy a KiB between the page cache and the process',
    min: 0,
    max: 100_000,
  },
  {
    name: 'submitUs',
    kind: 'number',
    default: 0.5,
    unit: 'µs',
    meaning: 'CPU time to build and submit one request (direct and asynchronous I/O)',
    min: 0,
    max: 100_000,
  },
  {
    name: 'schedCpuScale',
    kind: 'number',
    default: 1,
    unit: '×',
    meaning:
      'CPU time of the I/O schedulers’ per-request work relative to where it was measured (one core of the ICPE 2024 study’s 10-core server; 0 = free)',
    min: 0,
    max: 100,
    source: 'the schedulers’ cpu_per_request values (src/shared/schedulers/cpu-cost.ts) are that machine’s',
  },
  {
    name: 'swapMiB',
    kind: 'int',
    default: 2048,
    unit: 'MiB',
    meaning: 'swap area on the device, after the files (0 = none: a process that outgrows memory is killed)',
    min: 0,
    max: 1 << 24,
  },
  {
    name: 'vm',
    kind: 'enum',
    default: 'modern',
    values: VM_ERA_NAMES,
    unit: '',
    meaning:
      "page reclaim as an era's kernel did it: kswapd between the zone watermarks and direct reclaim below min, with that era's watermarks, scan priorities, cache/anon balance and swap read-around (2.4, 2.6.0, modern), or direct reclaim only (no kswapd)",
    source: 'src/shared/host/vm-era.ts: each era value with its mm/vmscan.c and mm/page_alloc.c source',
  },
  {
    name: 'swappiness',
    kind: 'int',
    default: 60,
    unit: '',
    meaning:
      'vm.swappiness: how readily reclaim takes anonymous memory rather than page cache (2.6.0: swap_tendency; modern: the anon/file scan split; ignored by 2.4 and direct)',
    min: 0,
    max: 200,
    source: 'mm/vmscan.c 2.6.0 and 6.x: int vm_swappiness = 60',
  },
  {
    name: 'minFreeKiB',
    kind: 'int',
    default: 0,
    unit: 'KiB',
    meaning:
      "vm.min_free_kbytes: the min watermark, from which low and high follow by the era's rule (0 = the era's formula from the memory size)",
    min: 0,
    max: 1 << 24,
  },
  {
    name: 'reclaimUsPerPage',
    kind: 'number',
    default: 0.2,
    unit: 'µs',
    meaning:
      "CPU time reclaim spends per page it scans (kswapd's own, or the allocating process's in direct reclaim)",
    min: 0,
    max: 1000,
    source:
      '[inferred] shrink_list per page: a lock, the reverse-map walk for the referenced bit, unmapping and list moves — some hundreds of cycles on a current CPU',
  },
  {
    name: 'forkUs',
    kind: 'number',
    default: 300,
    unit: 'µs',
    meaning: 'CPU time to create a process (fork + exec of a small program)',
    min: 0,
    max: 1e7,
  },
  {
    name: 'physio',
    kind: 'bool',
    default: false,
    unit: '',
    meaning:
      'raw/direct transfers larger than the driver maximum are issued one chunk at a time from the process (BSD physio), instead of all at once',
  },
]

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
    values: {},
    filesystem: { type: 'ext4' },
    sources: {
      dirtyRatio: 'mm/page-writeback.c: vm_dirty_ratio = 20 (since 2.6.22)',
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
    },
    filesystem: { type: 'ext4', options: { atime: 'noatime' } },
    sources: {
      memoryMiB: '[inferred] 1 GB phones of 2012 (Galaxy Nexus, Nexus 4: 1–2 GB)',
      reservedMiB: '[inferred] Android keeps most RAM for apps; about 384 MiB for the page cache',
      dirtyRatio: 'Linux 3.4 default vm.dirty_ratio = 20',
      dirtyBackgroundRatio: 'Android init.rc sets vm.dirty_background_ratio = 5',
      dirtyThrottle: 'IO-less dirty throttling since Linux 3.2',
      hz: 'ARM defconfigs of the era: HZ = 100',
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
    },
    filesystem: { type: 'ffs' },
    sources: {
      memoryMiB: 'published-results.md C: "Pentium Pro 200, 64 MB"',
      hz: 'FreeBSD 2.2 default HZ = 100',
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
