import type { ParamSpec } from '../util/params'
import { VM_ERA_NAMES } from './vm-era'
import { cpuIdleParams } from './cpu-idle-params'

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
    name: 'wbtLatUs',
    kind: 'int',
    default: -1,
    unit: 'µs',
    meaning:
      "wbt_lat_usec of the device's queue: buffered-writeback throttling's read-latency target on blk-mq (−1 = the kernel's default, 2000 non-rotational and 75000 rotational; 0 = off)",
    min: -1,
    max: 1e8,
    source:
      'block/blk-wbt.c (4.10+): wbt_enable_default on every blk-mq queue unless the elevator disables it (BFQ), wbt_default_latency_nsec; see src/shared/block/wbt.ts',
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
    values: ['preemptive', 'tick', 'eevdf'],
    unit: '',
    meaning:
      'CPU scheduling: CFS-like wake-up preemption favouring sleepers, switching only at round-robin ticks, or EEVDF (Linux 6.6+: no sleeper credit but a sleeper’s lag, the running task keeping its slice while it is eligible)',
    source:
      'kernel/sched/fair.c: CFS (2.6.23–6.5) place_entity sleeper credit and check_preempt_wakeup; EEVDF (6.6+) place_entity PLACE_LAG and RUN_TO_PARITY; see src/shared/host/cpu.ts',
  },
  {
    name: 'wakePacking',
    kind: 'bool',
    default: false,
    unit: '',
    meaning:
      "a woken task runs on the CPU of what woke it (a submitter's, for the thread it hands I/O to; the interrupt's, for a completion) when its utilization and the CPU's fit one CPU with a fifth spare, waiting behind the task there rather than taking an idle CPU; otherwise on its own last CPU if that is idle, else behind its waker (a task's) or on its own — unless another task already waits for that CPU",
    source:
      '[assumed] off: upstream Linux takes an idle CPU sharing the cache (select_idle_sibling). Measured on this lab machine, whose VM kernel packs tasks onto few vCPUs (boot parameter sched_vcpu_pack=15, not upstream): a QD32 fio reader, the loop device worker and the completions all ran on one vCPU while the other stayed 98 % idle (sched_switch trace, 2026-12-05); four readers used both',
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
    meaning: '`preemptive` policy: shortest slice; `eevdf`: the slice (sysctl base_slice_ns)',
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
    name: 'writeCallUs',
    kind: 'number',
    default: 0,
    unit: 'µs',
    meaning:
      'CPU a buffered write() spends per call beyond its system call and its copy: the write path’s work per call (generic_perform_write: the folio’s write_begin and write_end, file_update_time, balance_dirty_pages_ratelimited) — what makes small buffered writes cost more per byte than large ones',
    min: 0,
    max: 100_000,
    source:
      '[assumed] 0 (the presets count a write’s work in copyUsPerKiB); the fingerprint fits it from the median 4 KiB buffered write() (fio’s clat: the call alone)',
  },
  {
    name: 'writeCallQuantilesUs',
    kind: 'string',
    default: '',
    unit: 'µs',
    meaning:
      'the spread of a buffered write()’s own work (writeCallUs) as percent:µs quantiles, drawn per call in its place (empty: writeCallUs every call) — the call’s work is not the same each time (the page allocator refilling its per-CPU lists, a new xarray node, balance_dirty_pages every few dozen pages, an interrupt), so small buffered writes have a tail their median does not show',
    source:
      '[assumed] empty; the fingerprint fits it from the 4 KiB buffered write()s’ latency histogram (fio json+ bins) up to their p99 — above it the measured writes include first touches of reported memory, which freshPageUs models (on this machine, 2026-12-06: p10 1.28, p50 1.65, p90 2.40, p99 5.5 µs)',
  },
  {
    name: 'freshPageUs',
    kind: 'number',
    default: 0,
    unit: 'µs',
    meaning:
      'on a virtual machine whose free memory is reported to the hypervisor (free page reporting, virtio-balloon): system time of the first touch of a page the guest freed and reported, per 4 KiB page allocated to the page cache (0: memory is never taken back)',
    min: 0,
    max: 100_000,
    source:
      '[assumed] 0 (bare metal, or no reporting); the fingerprint fits it on a VM that reports (see src/shared/host/page-reporting.ts) from 1 MiB buffered writes into reported and into recently freed pages',
  },
  {
    name: 'warmPoolMiB',
    kind: 'number',
    default: 0,
    unit: 'MiB',
    meaning:
      'with free page reporting (freshPageUs > 0): free memory the guest never reports — blocks under page_reporting_order and the per-CPU page lists — allocated first and warm (no first-touch cost)',
    min: 0,
    max: 1_048_576,
    source:
      '[assumed] 0 (all free memory reportable); mm/page_reporting.c (5.7–6.18) reports only free blocks of page_reporting_order or more; the fingerprint fits it from the buffered writes that found warm memory',
  },
  {
    name: 'pageReportingDelayMs',
    kind: 'number',
    default: 2000,
    unit: 'ms',
    meaning:
      'how long after a free the guest reports its free memory to the hypervisor (memory freed and allocated again sooner is not taken back)',
    min: 0,
    max: 3_600_000,
    source: 'mm/page_reporting.c (5.7–6.18): PAGE_REPORTING_DELAY = 2 * HZ',
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
    name: 'dioReadUsPerKiB',
    kind: 'number',
    default: 0,
    unit: 'µs/KiB',
    meaning:
      'CPU per KiB of a direct (O_DIRECT, raw) read in the reading process beyond its per-request cost, spent before its bios go: pinning the buffer’s pages and building the bios over them, and at completion releasing (and dirtying) them — so a large transfer reaches the device later than a small one issued beside it',
    min: 0,
    max: 1000,
    source:
      '[assumed] 0 in the era presets; block/bio.c bio_iov_iter_get_pages → mm/gup.c pin_user_pages_fast, and __bio_release_pages / bio_check_pages_dirty at completion (Linux 6.18): work per page. The fingerprint fits it from fio’s CPU per I/O (rusage) of 1 MiB against 4 KiB direct reads; traced on this machine (2026-12-07, loop device, psync 1 MiB reads: syscall entry → first request 14 µs, last completion → return 73 µs; 4 KiB: 1 and 3 µs)',
  },
  {
    name: 'dioWriteUsPerKiB',
    kind: 'number',
    default: 0,
    unit: 'µs/KiB',
    meaning:
      'CPU per KiB of a direct write in the writing process beyond its per-request cost, spent before its bios go: preparing the buffer (fio changes a few bytes of each 512 by default, scramble_buffers=1), pinning its pages and building the bios, and releasing them at completion',
    min: 0,
    max: 1000,
    source:
      '[assumed] 0 in the era presets; as dioReadUsPerKiB, and fio io_u.c small_content_scramble (fio 3.x, scramble_buffers=1 by default). The fingerprint fits it from fio’s CPU per I/O of 1 MiB against 4 KiB direct writes; traced on this machine (2026-12-07, psync 1 MiB writes: 30–41 µs in fio between calls, entry → first request 14–19 µs, last completion → return 27 µs; 4 KiB: 1, 1 and 2 µs)',
  },
  {
    name: 'writebackPageUs',
    kind: 'number',
    default: 0,
    unit: 'µs',
    meaning:
      'CPU time to put one 4 KiB page under writeback and submit it, spent by the task that writes back itself (fsync, BLKFLSBUF, a direct transfer over cached data): it paces that writeback (0: none)',
    min: 0,
    max: 100_000,
    source:
      "[assumed] 0 in the era presets; mm/page-writeback.c write_cache_pages → fs/buffer.c block_write_full_folio → submit_bh: a bio per block of a block device's cache",
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
    name: 'largeFolioKiB',
    kind: 'int',
    default: 2048,
    unit: 'KiB',
    meaning:
      'the largest page-cache folio a buffered write makes (its size, aligned, up to this): the unit a direct transfer that overlaps dirty cached data writes back first (4 = base pages only)',
    min: 4,
    max: 2048,
  },
  {
    name: 'physio',
    kind: 'bool',
    default: false,
    unit: '',
    meaning:
      'the BSD raw device (physio): transfers larger than the driver maximum are issued one chunk at a time from the process, instead of all at once, and bypass the buffer cache without writing back the cached data they overlap (Linux O_DIRECT writes it back first)',
  },
  ...cpuIdleParams,
]
