// One session per name in the library: NAME.json and NAME.json.gz are the same session (a save
// switches between them as the session grows or shrinks), so when both are there — a writer was
// killed after writing the new file and before removing the old one — only the current one is
// listed, and the next save of the session removes the other.
import type { LibraryEntry, LibraryProblem } from './types'

type LibraryFile = LibraryEntry | LibraryProblem

/** A session file's name without `.json` / `.json.gz`: files of one stem are one session. */
export const sessionStem = (file: string): string => file.replace(/\.json(\.gz)?$/, '')

/**
 * Whether `a` holds the session rather than `b`: a readable file over an unreadable one, then the
 * later revision (every write bumps it), the later save, the later change of the file.
 */
export function isNewer(a: LibraryFile, b: LibraryFile): boolean {
  const ra = 'error' in a ? null : a
  const rb = 'error' in b ? null : b
  if (ra && !rb) return true
  if (!ra && rb) return false
  if (ra && rb && ra.revision !== rb.revision) return ra.revision > rb.revision
  if (ra && rb && ra.savedAt !== rb.savedAt) return ra.savedAt > rb.savedAt
  if (a.modifiedAt !== b.modifiedAt) return a.modifiedAt > b.modifiedAt
  return a.file > b.file
}

/** The file that holds the session, of the files one name has; undefined for none. */
export function currentOf<T extends LibraryFile>(files: readonly T[]): T | undefined {
  return files.reduce<T | undefined>((best, f) => (!best || isNewer(f, best) ? f : best), undefined)
}

/** The files to list — one per stem, the current one — and the stale others. */
export function onePerName<T extends LibraryFile>(files: readonly T[]): { listed: T[]; stale: T[] } {
  const byStem = new Map<string, T[]>()
  for (const f of files) {
    const g = byStem.get(sessionStem(f.file))
    if (g) g.push(f)
    else byStem.set(sessionStem(f.file), [f])
  }
  const listed: T[] = []
  const stale: T[] = []
  for (const group of byStem.values()) {
    const current = currentOf(group)!
    for (const f of group) (f === current ? listed : stale).push(f)
  }
  return { listed, stale }
}
