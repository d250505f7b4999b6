// Searching the library: which sessions and which of their run sets match a query, and the values
// present for each filter. Pure: the service reads the entries, this decides.
import type { RunSetFacts } from '../session/types'
import type { LibraryEntry, LibraryFacets, LibraryHit, LibraryQuery } from './types'

const lower = (s: string): string => s.toLowerCase()

/** A date bound as a time: `YYYY-MM-DD` is the day's start (`from`) or end (`to`); NaN when unreadable. */
export function dateBound(s: string, end: boolean): number {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(s.trim())
  if (day) return Date.parse(`${s.trim()}T00:00:00.000Z`) + (end ? 86_400_000 - 1 : 0)
  return Date.parse(s)
}

/** Whether a run set passes the set-level filters (device, scheduler, workload, kind). */
export function setMatches(s: RunSetFacts, q: LibraryQuery): boolean {
  if (q.device && s.device !== q.device) return false
  if (q.scheduler && s.scheduler !== q.scheduler && s.label !== q.scheduler) return false
  if (q.workload && !s.workloads.includes(q.workload)) return false
  if (q.kind && s.kind !== q.kind) return false
  return true
}

/** Whether the session passes the session-level filters (text, tags, dates). */
export function entryMatches(e: LibraryEntry, q: LibraryQuery): boolean {
  if (q.tags?.length && !q.tags.every((t) => e.tags.some((x) => lower(x) === lower(t)))) return false
  const at = Date.parse(e.savedAt)
  if (q.from && !(at >= dateBound(q.from, false))) return false
  if (q.to && !(at <= dateBound(q.to, true))) return false
  const words = (q.text ?? '').trim().toLowerCase().split(/\s+/).filter(Boolean)
  if (words.length > 0) {
    const hay = lower(
      [
        e.name,
        e.file,
        e.notes,
        ...e.tags,
        ...e.index.labels,
        ...e.index.devices,
        ...e.index.schedulers,
        ...e.index.workloads,
      ].join('\n'),
    )
    if (!words.every((w) => hay.includes(w))) return false
  }
  return true
}

const setFilters = (q: LibraryQuery): boolean => Boolean(q.device || q.scheduler || q.workload || q.kind)

/**
 * The sessions that match, newest first, each with its matching run sets. With a device,
 * scheduler, workload or kind filter, a session matches when one of its run sets does; without
 * one, every session that passes the other filters matches with all its sets (even none).
 */
export function searchEntries(entries: readonly LibraryEntry[], q: LibraryQuery): LibraryHit[] {
  const hits: LibraryHit[] = []
  for (const e of entries) {
    if (!entryMatches(e, q)) continue
    const sets = e.index.runSets.filter((s) => setMatches(s, q))
    if (setFilters(q) && sets.length === 0) continue
    hits.push({ ...e, sets })
  }
  return hits.sort((a, b) => b.savedAt.localeCompare(a.savedAt) || a.name.localeCompare(b.name))
}

/** Every device, scheduler, workload, kind and tag in the library, sorted. */
export function facetsOf(entries: readonly LibraryEntry[]): LibraryFacets {
  const sets = entries.flatMap((e) => e.index.runSets)
  const sorted = <T extends string>(xs: T[]): T[] => [...new Set(xs)].sort((a, b) => a.localeCompare(b))
  return {
    devices: sorted(sets.map((s) => s.device)),
    schedulers: sorted(sets.map((s) => s.scheduler)),
    workloads: sorted(sets.flatMap((s) => s.workloads)),
    kinds: sorted(sets.map((s) => s.kind)),
    tags: sorted(entries.flatMap((e) => e.tags)),
  }
}
