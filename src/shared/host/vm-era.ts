/**
 * Page reclaim as one era's kernel did it, as data: when kswapd wakes and sleeps (the zone
 * watermarks), how far each scan priority looks, how anonymous memory is balanced against the
 * page cache, which reclaimers may write dirty file pages, and how many pages a swap fault reads
 * around. The host parameter `vm` picks one; `swappiness` and `minFreeKiB` override its values.
 */

export type VmEraName = 'direct' | '2.4' | '2.6.0' | 'modern'

/**
 * How a reclaim batch splits its scan between the page cache and anonymous memory:
 *  - `cache-first`: the lab's model before kswapd — clean cache pages first, then swap.
 *  - `mapped-count` (2.4): one LRU; mapped pages met on it are counted and, past a limit, the
 *    page tables are walked and process pages swapped out (swap_out).
 *  - `swap-tendency` (2.6.0): mapped (anonymous) pages are reclaimed only when
 *    mapped_ratio/2 + distress + swappiness ≥ 100.
 *  - `swappiness-split` (modern): both LRUs are scanned, anon in proportion to swappiness and
 *    file in proportion to 200 − swappiness.
 */
export type ReclaimBalance = 'cache-first' | 'mapped-count' | 'swap-tendency' | 'swappiness-split'

export interface Watermarks {
  min: number
  low: number
  high: number
}

export interface VmEra {
  readonly name: VmEraName
  /** Background reclaim by kswapd between the watermarks (false: reclaim is only direct). */
  readonly kswapd: boolean
  /** Scan priority a reclaim run starts at (it counts down to 0 or 1). */
  readonly defPriority: number
  /** Pages one pass at `priority` may scan, given the inactive list's length. */
  scanWindow(nrInactive: number, priority: number): number
  /** min_free_kbytes from the memory the allocator manages (KiB). */
  minFreeKiB(lowmemKiB: number): number
  /** The three watermarks (pages) from the min watermark and the managed pages. */
  watermarks(minPages: number, managedPages: number): Watermarks
  readonly balance: ReclaimBalance
  /** vm_swappiness default (swap-tendency, swappiness-split). */
  readonly swappiness: number
  /** Direct reclaim (the allocating process) may write dirty file pages from the LRU. */
  readonly directWritesFile: boolean
  /** Swap read-around: 2^pageCluster pages around a faulting one. */
  readonly pageCluster: number
  readonly sources: Readonly<Record<string, string>>
}

const isqrt = (x: number): number => Math.floor(Math.sqrt(x))

const V24: VmEra = {
  name: '2.4',
  kswapd: true,
  defPriority: 6,
  scanWindow: (n, p) => Math.floor(n / Math.max(1, p)),
  // 2.4 sets each zone's watermarks from its own size, not from min_free_kbytes
  minFreeKiB: (kib) => Math.min(255, Math.max(20, Math.floor(kib / 4 / 128))) * 4,
  watermarks: (min) => ({ min, low: 2 * min, high: 3 * min }),
  balance: 'mapped-count',
  swappiness: 0,
  directWritesFile: true,
  pageCluster: 4,
  sources: {
    defPriority: 'mm/vmscan.c 2.4.20: #define DEF_PRIORITY (6)',
    scanWindow: 'mm/vmscan.c 2.4.20 shrink_cache: max_scan = nr_inactive_pages / priority',
    watermarks:
      'mm/page_alloc.c 2.4.20 free_area_init_core: pages_min = realsize / zone_balance_ratio (128), clamped to zone_balance_min 20 … zone_balance_max 255; pages_low = 2 × min, pages_high = 3 × min',
    balance:
      'mm/vmscan.c 2.4.20 shrink_cache: max_mapped = min(nr_pages << (10 − priority), max_scan / 10); meeting more mapped pages than that calls swap_out()',
    directWritesFile:
      'mm/vmscan.c 2.4.20 shrink_cache: a dirty page-cache page met on the inactive list is written with writepage() (PG_launder) by whoever reclaims',
    pageCluster: 'mm/swap.c 2.4 swap_setup: page_cluster = 4 above 32 MB of memory',
  },
}

const V260: VmEra = {
  name: '2.6.0',
  kswapd: true,
  defPriority: 12,
  scanWindow: (n, p) => Math.floor(n / 2 ** p),
  minFreeKiB: (kib) => Math.min(16384, Math.max(128, isqrt(kib))),
  watermarks: (min) => ({ min, low: 2 * min, high: 3 * min }),
  balance: 'swap-tendency',
  swappiness: 60,
  directWritesFile: true,
  pageCluster: 3,
  sources: {
    defPriority: 'mm/vmscan.c 2.6.0: #define DEF_PRIORITY 12',
    scanWindow:
      'mm/vmscan.c 2.6.0 balance_pgdat/shrink_caches: max_scan = nr_inactive >> priority (at least 2 × to_reclaim)',
    minFreeKiB:
      'mm/page_alloc.c 2.6.0 init_per_zone_pages_min: min_free_kbytes = int_sqrt(lowmem_kbytes), clamped 128 … 16384',
    watermarks:
      'mm/page_alloc.c 2.6.0 setup_per_zone_pages_min: pages_low = pages_min × 2, pages_high = pages_min × 3',
    balance:
      'mm/vmscan.c 2.6.0 refill_inactive_zone: swap_tendency = mapped_ratio / 2 + distress + vm_swappiness, distress = 100 >> prev_priority; mapped pages are deactivated only when swap_tendency ≥ 100',
    swappiness: 'mm/vmscan.c 2.6.0: int vm_swappiness = 60',
    directWritesFile:
      'mm/vmscan.c 2.6.0 shrink_list: a dirty, unreferenced page is written with ->writepage (WB_SYNC_NONE, PG_reclaim) by kswapd or by a direct reclaimer whose queue is not congested (may_write_to_queue)',
    pageCluster: 'mm/swap.c 2.6 swap_setup: page_cluster = 3 (2 below 16 MB)',
  },
}

const MODERN: VmEra = {
  name: 'modern',
  kswapd: true,
  defPriority: 12,
  scanWindow: (n, p) => Math.floor(n / 2 ** p),
  minFreeKiB: (kib) => Math.min(262144, Math.max(128, isqrt(kib * 16))),
  watermarks: (min, managed) => {
    const gap = Math.max(Math.floor(min / 4), Math.floor((managed * 10) / 10000))
    return { min, low: min + gap, high: min + 2 * gap }
  },
  balance: 'swappiness-split',
  swappiness: 60,
  directWritesFile: false,
  pageCluster: 3,
  sources: {
    defPriority: 'mm/vmscan.c 6.x: #define DEF_PRIORITY 12',
    minFreeKiB:
      'mm/page_alloc.c 6.x calculate_min_free_kbytes: int_sqrt(lowmem_kbytes × 16), clamped 128 … 262144',
    watermarks:
      'mm/page_alloc.c 6.x __setup_per_zone_wmarks: gap = max(min / 4, managed × watermark_scale_factor / 10000), watermark_scale_factor = 10; low = min + gap, high = low + gap',
    balance:
      'mm/vmscan.c 6.x get_scan_count: anon scanned in proportion to swappiness, file to 200 − swappiness (the rotation feedback and cache-trim mode are not modelled)',
    swappiness: 'mm/vmscan.c 6.x: int vm_swappiness = 60',
    directWritesFile:
      'mm/vmscan.c since 3.2 (commit "mm: vmscan: do not writeback filesystem pages in direct reclaim"): only kswapd writes dirty file pages from the LRU',
    pageCluster: 'mm/swap.c swap_setup: page_cluster = 3',
  },
}

const DIRECT: VmEra = {
  name: 'direct',
  kswapd: false,
  defPriority: 0,
  scanWindow: (n) => n,
  minFreeKiB: () => 0,
  watermarks: () => ({ min: 0, low: 0, high: 0 }),
  balance: 'cache-first',
  swappiness: 0,
  directWritesFile: false,
  pageCluster: 3,
  sources: {
    kswapd:
      'no background reclaim: the allocating process frees clean cache pages, then swaps (the lab before kswapd; stands in for reclaim daemons not modelled, such as the BSD pagedaemon)',
  },
}

export const VM_ERAS: Readonly<Record<VmEraName, VmEra>> = {
  direct: DIRECT,
  '2.4': V24,
  '2.6.0': V260,
  modern: MODERN,
}

export const VM_ERA_NAMES = Object.keys(VM_ERAS) as VmEraName[]

/** The watermarks of a host with `managedPages` pages (4 KiB) and `minFreeKiB` (0: the era's formula). */
export function eraWatermarks(era: VmEra, managedPages: number, minFreeKiB: number): Watermarks {
  if (!era.kswapd) return era.watermarks(0, managedPages)
  const kib = minFreeKiB > 0 ? minFreeKiB : era.minFreeKiB(managedPages * 4)
  return era.watermarks(Math.max(1, Math.floor(kib / 4)), managedPages)
}
