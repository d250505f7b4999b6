import { describe, expect, it } from 'vitest'
import { hostRig } from '../helpers/host-rig'
import { VM_ERAS, eraWatermarks } from '../../src/shared/host/vm-era'
import type { Reclaim } from '../../src/shared/host/reclaim'
import { WRITE } from '../../src/shared/block/types'

const KSWAPD = 3

/** A machine of `memoryMiB` (32 MiB of it reserved) on the 2003 IDE disk. */
const machine = (
  memoryMiB: number,
  processes: unknown[],
  host: Record<string, unknown> = {},
  sched = 'deadline',
) =>
  hostRig({
    device: { preset: 'hdd-2003-ide' },
    host: { preset: 'linux-2003', overrides: { memoryMiB, reservedMiB: 32, ...host } },
    workload: { processes, stop: { maxSeconds: 600 } },
    schedulers: [sched],
  })

/** Record every reclaim batch: who scanned, at what free memory. */
function spyBatches(rc: Reclaim): { pid: number; free: number }[] {
  const calls: { pid: number; free: number }[] = []
  const batch = rc.batch.bind(rc)
  rc.batch = (priority, n, toReclaim, writeFile, ctx, out, r) => {
    calls.push({ pid: ctx.pid, free: rc.free })
    batch(priority, n, toReclaim, writeFile, ctx, out, r)
  }
  return calls
}

const swapWrites = (r: ReturnType<typeof hostRig>, pid: number) =>
  r.dispatched.filter((d) => d.op === WRITE && d.pid === pid && d.sector >= r.kernel.anon.swap!.map(0)).length

describe('zone watermarks of each era', () => {
  const pages = (256 * 2 ** 20) / 4096
  it('2.6.0: min_free_kbytes = sqrt(lowmem KiB), low = 2 min, high = 3 min', () => {
    // sqrt(262144 KiB) = 512 KiB = 128 pages
    expect(eraWatermarks(VM_ERAS['2.6.0'], pages, 0)).toEqual({ min: 128, low: 256, high: 384 })
  })
  it('2.4: pages_min = zone pages / 128, at most 255; low and high 2× and 3×', () => {
    expect(eraWatermarks(VM_ERAS['2.4'], pages, 0)).toEqual({ min: 255, low: 510, high: 765 })
    expect(eraWatermarks(VM_ERAS['2.4'], 1024, 0)).toEqual({ min: 20, low: 40, high: 60 })
  })
  it('modern: sqrt(16 × KiB), gaps of max(min/4, 0.1 % of memory)', () => {
    // sqrt(262144 × 16) = 2048 KiB = 512 pages; gap max(128, 65) = 128
    expect(eraWatermarks(VM_ERAS.modern, pages, 0)).toEqual({ min: 512, low: 640, high: 768 })
    // 64 GiB: min = sqrt(67108864 × 16) KiB = 32768 KiB = 8192 pages; gap = 16777216 × 10 / 10000
    expect(eraWatermarks(VM_ERAS.modern, 16777216, 0)).toEqual({
      min: 8192,
      low: 8192 + 16777,
      high: 8192 + 2 * 16777,
    })
  })
  it('min_free_kbytes overrides the formula; direct reclaim has none', () => {
    expect(eraWatermarks(VM_ERAS['2.6.0'], pages, 4096).min).toBe(1024)
    expect(eraWatermarks(VM_ERAS.direct, pages, 4096)).toEqual({ min: 0, low: 0, high: 0 })
  })
})

describe('kswapd (2.6.0)', () => {
  // an allocator far slower than reclaim: 10 ms of work per page (400 KB/s) in 16 MiB of memory
  const slow = { name: 'e', type: 'efax', params: { sizeMiB: 24, passes: 2, cpuUsPerPage: 10_000 } }
  const fast = { name: 'e', type: 'efax', params: { sizeMiB: 64, passes: 2, cpuUsPerPage: 0 } }

  it('wakes when free memory falls below the low watermark, and sleeps above the high one', () => {
    const r = machine(48, [slow])
    const ks = r.kernel.kswapd!
    ks.log = []
    r.runUntil(600)
    const wm = r.kernel.wm
    const wakes = ks.log.filter((e) => e[1] === 'wake')
    expect(wakes.length).toBeGreaterThan(0)
    // woken by an allocation that found free memory at or under low (wakeup_kswapd)
    for (const w of wakes) expect(w[2]).toBeLessThanOrEqual(wm.low)
    const sleeps = ks.log.filter((e) => e[1] === 'sleep')
    expect(sleeps.length).toBeGreaterThan(0)
    for (const s of sleeps) expect(s[2]).toBeGreaterThanOrEqual(wm.high)
  })

  it('writes asynchronously from its own context while the faulting process continues', () => {
    const r = machine(48, [slow])
    const calls = spyBatches(r.kernel.reclaim)
    r.runUntil(600)
    const t = r.tasks[0]
    const ks = r.kernel.kswapd!
    expect(t.finishedAt).toBeGreaterThan(0)
    // the pages went to swap from kswapd's context, not the process's
    expect(swapWrites(r, KSWAPD)).toBeGreaterThan(10 * swapWrites(r, t.pid))
    expect(ks.writesStarted).toBeGreaterThan(0.9 * r.kernel.reclaim.totals.writes)
    // and the process hardly waited for them: its run is its own computation
    expect((t.finishedAt - t.startedAt) / t.cpuTime).toBeLessThan(1.05)
    // the process reclaimed itself only now and then (while kswapd was still clearing the first
    // referenced bits of a fresh working set): most scanning was kswapd's
    const direct = calls.filter((c) => c.pid !== KSWAPD)
    expect(direct.length).toBeLessThan(calls.length / 4)
    // kswapd is a CPU task: it paid for every page it scanned
    expect(ks.cpuTime).toBe(ks.pagesScanned * r.kernel.reclaim.scanCost)
  })

  it('leaves reclaim to the allocating process only below the min watermark', () => {
    const r = machine(48, [fast])
    const calls = spyBatches(r.kernel.reclaim)
    r.runUntil(600)
    const t = r.tasks[0]
    expect(t.finishedAt).toBeGreaterThan(0)
    const direct = calls.filter((c) => c.pid !== KSWAPD)
    // a process faulting faster than the disk outruns kswapd: it reclaims and writes itself…
    expect(direct.length).toBeGreaterThan(0)
    expect(swapWrites(r, t.pid)).toBeGreaterThan(0)
    // …but only ever from below the min watermark
    for (const c of direct) expect(c.free).toBeLessThan(r.kernel.wm.min + 1)
    // and kswapd still did background work
    expect(swapWrites(r, KSWAPD)).toBeGreaterThan(0)
  })

  it('without kswapd (vm: direct) every swap write is the faulting process’s own', () => {
    const r = machine(48, [slow], { vm: 'direct' })
    r.runUntil(600)
    expect(r.kernel.kswapd).toBeNull()
    expect(swapWrites(r, KSWAPD)).toBe(0)
    expect(swapWrites(r, r.tasks[0].pid)).toBeGreaterThan(100)
  })

  it('pages dirty file pages out from the LRU tail (pageout), one page per write', () => {
    // a writer whose dirty pages the flusher leaves alone (no background threshold, 10 min expiry)
    const w = { name: 'w', type: 'dd', params: { op: 'write', file: 'big', bs: '64k', count: 1024 } }
    const host = { dirtyRatio: 100, dirtyBackgroundRatio: 100, dirtyExpireMs: 600_000 }
    const r = machine(48, [w], host)
    r.runUntil(20)
    const big = r.kernel.file('big')!
    const first = big.map(0)
    const pageouts = r.dispatched.filter(
      (d) => d.op === WRITE && d.pid === KSWAPD && d.sector >= first && d.sector < first + 131072,
    )
    expect(pageouts.length).toBeGreaterThan(0)
    // writepage: one page at a time (the elevator may merge neighbours queued together)
    expect(r.kernel.kswapd!.writesStarted).toBeGreaterThan(pageouts.length / 2)
  })
})

describe('the balance between page cache and anonymous memory', () => {
  // a reader streams a file six times the memory while a process holds 8 MiB (half of the 16 MiB)
  const procs = [
    { name: 'cat', type: 'cat', params: { file: 'big', size: '96M' } },
    { name: 'hold', type: 'cpu-hog', params: {}, memory: { MiB: 8, pattern: 'hold' } },
  ]
  const swappedOut = (vm: string, swappiness: number) => {
    const r = machine(48, procs, { vm, swappiness })
    r.runUntil(30)
    return r.kernel.anon.swappedOut + r.kernel.anon.outInFlight
  }

  it('2.6.0: swap_tendency keeps a small anonymous set in memory while the cache can give', () => {
    // mapped_ratio/2 (25) + distress (0 while clean cache pages come easily) + 60 < 100
    expect(swappedOut('2.6.0', 60)).toBe(0)
    // swappiness 100 overrides the rule: anonymous pages are reclaimed with the cache
    expect(swappedOut('2.6.0', 100)).toBeGreaterThan(0)
  })

  it('2.4: mapped pages met on the LRU past max_mapped start swap_out, even with cache to give', () => {
    // half the LRU is the held memory: a pass meets more mapped pages than max_scan / 10
    expect(swappedOut('2.4', 60)).toBeGreaterThan(0)
  })

  it('modern: anon is always scanned in proportion to swappiness, none at 0', () => {
    expect(swappedOut('modern', 60)).toBeGreaterThan(0)
    expect(swappedOut('modern', 0)).toBe(0)
  })
})

describe('swap read-around', () => {
  const job = { name: 'e', type: 'efax', params: { sizeMiB: 64, passes: 3, cpuUsPerPage: 1 } }
  const largestSwapRead = (vm: string) => {
    const r = machine(48, [job], { vm })
    r.runUntil(600)
    const swap = r.kernel.anon.swap!.map(0)
    return Math.max(...r.dispatched.filter((d) => d.op !== WRITE && d.sector >= swap).map((d) => d.nsect))
  }
  it('reads 2^page_cluster slots around a fault: 8 pages on 2.6, 16 on 2.4', () => {
    expect(largestSwapRead('2.6.0')).toBe(8 * 8)
    expect(largestSwapRead('2.4')).toBe(16 * 8)
  })
})
