import type { SimTime } from '../sim/time'

/**
 * Free page reporting (mm/page_reporting.c, Linux 5.7+; virtio-balloon's
 * VIRTIO_BALLOON_F_REPORTING): a guest tells its hypervisor which free memory it may take back,
 * and the hypervisor discards it. The next time the guest allocates such a page, touching it
 * traps into the hypervisor, which finds and zeroes a page of its own: the guest sees a few
 * microseconds of system time per 4 KiB page ("fresh"). Memory freed and allocated again before
 * it is reported costs nothing extra ("warm").
 *
 * When a free brings a block of at least `page_reporting_order` to the free lists,
 * `__page_reporting_request` schedules the reporting work PAGE_REPORTING_DELAY (2 × HZ: 2 s)
 * later, unless it is already scheduled; the work then reports every free block not reported yet
 * (`page_reporting_process`), and a free after it asks again. The buddy allocator hands out the
 * head of its free lists (recently freed, and per-CPU lists first) and reported blocks are put
 * back where they are taken last, so an allocation takes warm pages before fresh ones.
 *
 * Measured on this machine (6.18 Firecracker guest, reporting on, page_reporting_order 5): a
 * 1 MiB buffered write() into pages freed ≥ 2 s before took 2.28–2.34 ms (p50), into pages freed
 * 0.3–1.5 s before 0.12 ms — fio 64 MiB buffered writes to a loop device twice, `sleep T` apart.
 *
 * Not all free memory is reported: only free blocks of `page_reporting_order` or more
 * (page_reporting_process walks those free areas alone), never the per-CPU page lists the
 * allocator serves order-0 pages from first. Free memory in smaller blocks stays the guest's,
 * warm, however long it has been free — `warmPool` pages of it (host `warmPoolMiB`). How much
 * there is depends on how fragmented the free memory is at the moment (page_reporting_order 9 on
 * this machine: blocks under 2 MiB are never reported), so a fingerprint measures it: on
 * 2026-12-05 one fingerprint's 64 MiB of buffered writes found all of it warm but two or three
 * 1 MiB writes (fp34), where the one before found none warm (fp33). The pool is used first and
 * filled again first by frees; the zone watermark that holds back reporting of a nearly full
 * zone is not modelled. At the start of a run only the pool is warm: a machine that has been idle
 * for 2 s has reported all else it freed, and memory never touched since boot is just as fresh.
 */
export class PageReporting {
  /** Free pages the guest still holds (freed since the last report, or never reportable). */
  private warm: number
  /** When the scheduled reporting work runs, or -1 when none is scheduled. */
  private reportAt: SimTime = -1
  /** Fresh pages allocated, in all. */
  freshTotal = 0

  constructor(
    /** PAGE_REPORTING_DELAY (ns). */
    readonly delay: SimTime,
    /** The simulated time, for callers that do not pass it. */
    private readonly clock: () => SimTime = () => 0,
    /** Free pages in blocks too small to report (and the per-CPU lists): warm whenever free. */
    private readonly warmPool = 0,
  ) {
    this.warm = warmPool
  }

  /** The scheduled work has run by `now`: everything freed so far is reported. */
  private settle(now: SimTime): void {
    if (this.reportAt >= 0 && now >= this.reportAt) {
      this.warm = Math.min(this.warm, this.warmPool)
      this.reportAt = -1
    }
  }

  /** `n` pages were freed at `now`. */
  freed(n: number, now: SimTime = this.clock()): void {
    if (n <= 0) return
    this.settle(now)
    this.warm += n
    if (this.reportAt < 0) this.reportAt = now + this.delay
  }

  /** `n` pages are allocated at `now`: warm ones first; returns how many were fresh. */
  take(n: number, now: SimTime = this.clock()): number {
    if (n <= 0) return 0
    this.settle(now)
    const warm = Math.min(n, this.warm)
    this.warm -= warm
    this.freshTotal += n - warm
    return n - warm
  }
}
