/**
 * On-demand read-ahead as Linux does it (mm/readahead.c, 2.6.23+): a per-open-file window that
 * starts from the request size and grows ×4 / ×2 on sequential hits up to `read_ahead_kb`; the
 * page at `start + size − asyncSize` carries a marker whose access starts the next window
 * asynchronously. Pure arithmetic on a small state object; the page cache does the I/O.
 */
export class RaState {
  start = 0
  size = 0
  asyncSize = 0
  /** Page index of the last page the previous read touched, or -1. */
  prevPage = -1
  /**
   * The file's own largest window, pages (file->f_ra.ra_pages), or -1 for the device's
   * read_ahead_kb; and whether it is marked random (FMODE_RANDOM): set by posix_fadvise.
   */
  maxPages = -1
  random = false
}

/** posix_fadvise's access advice on an open file. */
export type AccessAdvice = 'normal' | 'sequential' | 'random'

/**
 * posix_fadvise(NORMAL | SEQUENTIAL | RANDOM) on the file's read-ahead state (mm/fadvise.c,
 * generic_fadvise, 2.6.x to 6.x): SEQUENTIAL doubles the file's window (ra_pages = the device's ×
 * 2), RANDOM marks the file FMODE_RANDOM — a miss then reads just what was asked
 * (page_cache_sync_ra → do_page_cache_ra with the request's size) — and NORMAL undoes both.
 */
export function adviseAccess(ra: RaState, advice: AccessAdvice, devicePages: number): void {
  ra.random = advice === 'random'
  if (advice !== 'random') ra.maxPages = advice === 'sequential' ? 2 * devicePages : -1
}

/** The largest window a read of this file may start: 0 for a file marked random. */
export function raMax(ra: RaState, devicePages: number): number {
  return ra.random ? 0 : ra.maxPages >= 0 ? ra.maxPages : devicePages
}

export interface RaWindow {
  start: number
  size: number
  /** Page to mark as the asynchronous trigger (start + size − asyncSize), or -1. */
  marker: number
}

const roundupPow2 = (n: number): number => (n <= 1 ? 1 : 2 ** Math.ceil(Math.log2(n)))

/** get_init_ra_size: the first window for a request of `req` pages. */
export function initRaSize(req: number, max: number): number {
  const n = roundupPow2(req)
  if (n <= max / 32) return n * 4
  if (n <= max / 4) return n * 2
  return max
}

/** get_next_ra_size: the window after `cur`. */
export function nextRaSize(cur: number, max: number): number {
  return Math.min(cur < max / 16 ? 4 * cur : 2 * cur, max)
}

/**
 * ondemand_readahead: decide what to read for a read of `req` pages at page `offset`.
 * `hitMarker` is true when called because the reader reached a marked page (asynchronous
 * read-ahead). `nextHole` returns the first uncached page after a page (for an interleaved hit).
 * Returns the window to read, or null for nothing beyond the request itself (random read).
 */
export function ondemand(
  ra: RaState,
  max: number,
  offset: number,
  req: number,
  hitMarker: boolean,
  nextHole: (after: number, limit: number) => number,
): RaWindow | null {
  if (max <= 0) return null
  let initial = offset === 0
  if (!initial) {
    if (offset === ra.start + ra.size - ra.asyncSize || offset === ra.start + ra.size) {
      // The expected position: assume sequential, ramp up and push the window forward.
      ra.start += ra.size
      ra.size = nextRaSize(ra.size, max)
      ra.asyncSize = ra.size
      return readit(ra, max, offset)
    }
    if (hitMarker) {
      // A marked page without matching state (interleaved readers): continue after the cached run.
      const start = nextHole(offset + 1, max)
      if (start < 0 || start - offset > max) return null
      ra.start = start
      ra.size = start - offset + req
      ra.size = nextRaSize(ra.size, max)
      ra.asyncSize = ra.size
      return readit(ra, max, offset)
    }
    if (req > max) initial = true
    else if (offset - ra.prevPage >= 0 && offset - ra.prevPage <= 1)
      initial = true // unsigned in the kernel
    else return { start: offset, size: req, marker: -1 } // small random read: read as is
  }
  ra.start = offset
  ra.size = initRaSize(req, max)
  ra.asyncSize = ra.size > req ? ra.size - req : ra.size
  return readit(ra, max, offset)
}

function readit(ra: RaState, max: number, offset: number): RaWindow {
  // Would this read hit the marker it is about to set? Then merge the next window in now.
  if (offset === ra.start && ra.size === ra.asyncSize) {
    ra.asyncSize = nextRaSize(ra.size, max)
    ra.size += ra.asyncSize
  }
  return { start: ra.start, size: ra.size, marker: ra.start + ra.size - ra.asyncSize }
}
