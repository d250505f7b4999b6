// The library folder's sessions as entries of summary facts. A version-2 file is listed from its
// header line alone; an older one — or one whose index lacks the run sets' tunables — is read in
// full and migrated in memory. Either way the entry is
// kept by the file's size and modification time, so a listing reads only files that changed. A
// file that is not a readable session becomes a problem with its error — it never breaks the list.
// A name is listed once: of NAME.json and NAME.json.gz, only the current file (one-per-name.ts).
import { readdir, stat } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { onePerName } from '../../../shared/library/one-per-name'
import type { LibraryEntry, LibraryProblem } from '../../../shared/library/types'
import { SESSION_VERSION } from '../../../shared/session/types'
import type { SessionHeader } from '../../../shared/session/types'
import { isTempName } from './atomic-write'
import { readSession, readSessionHeader } from './session-file'

/** Names of session files: `*.json` and `*.json.gz`, not hidden (temporary files are). */
export const isSessionFileName = (name: string): boolean =>
  !name.startsWith('.') && !isTempName(name) && /\.json(\.gz)?$/.test(name)

export interface LibraryScan {
  entries: LibraryEntry[]
  problems: LibraryProblem[]
}

type Cached = { size: number; mtimeMs: number; value: LibraryEntry | LibraryProblem }

/** Files read at once while scanning. */
const PARALLEL_READS = 4

export class LibraryIndex {
  private readonly cache = new Map<string, Cached>()
  /** Files read (not answered from the cache) since start: for tests. */
  reads = 0

  constructor(readonly folder: string) {}

  /** Every session file of the folder: the readable ones newest first, the others with their errors. */
  async scan(): Promise<LibraryScan> {
    let names: string[]
    try {
      names = (await readdir(this.folder)).filter(isSessionFileName)
    } catch {
      return { entries: [], problems: [] }
    }
    const seen = new Set<string>()
    const values: (LibraryEntry | LibraryProblem | null)[] = new Array(names.length).fill(null)
    let next = 0
    const worker = async (): Promise<void> => {
      while (next < names.length) {
        const i = next++
        const path = join(this.folder, names[i])
        seen.add(path)
        values[i] = await this.entryOf(path, names[i])
      }
    }
    await Promise.all(Array.from({ length: PARALLEL_READS }, worker))
    for (const p of this.cache.keys()) if (!seen.has(p)) this.cache.delete(p)
    const entries: LibraryEntry[] = []
    const problems: LibraryProblem[] = []
    for (const v of onePerName(values.filter((v) => v !== null)).listed) {
      if ('error' in v) problems.push(v)
      else entries.push(v)
    }
    entries.sort((a, b) => b.savedAt.localeCompare(a.savedAt) || a.file.localeCompare(b.file))
    problems.sort((a, b) => a.file.localeCompare(b.file))
    return { entries, problems }
  }

  /** What the file at `path` is now (read unless unchanged since last read); null when there is none. */
  file(path: string): Promise<LibraryEntry | LibraryProblem | null> {
    return this.entryOf(path, basename(path))
  }

  /** Forget a file (after writing it), so the next scan reads it again. */
  forget(path: string): void {
    this.cache.delete(path)
  }

  private async entryOf(path: string, file: string): Promise<LibraryEntry | LibraryProblem | null> {
    let st
    try {
      st = await stat(path)
    } catch {
      return null // gone since the folder was read
    }
    if (!st.isFile()) return null
    const hit = this.cache.get(path)
    if (hit && hit.size === st.size && hit.mtimeMs === st.mtimeMs) return hit.value
    this.reads++
    const base = { path, file, bytes: st.size, modifiedAt: st.mtime.toISOString() }
    let value: LibraryEntry | LibraryProblem
    try {
      const header = await readSessionHeader(path)
      value =
        header && hasTunables(header) ? fromHeader(base, header, SESSION_VERSION) : await fromFile(base, path)
    } catch (e) {
      value = { ...base, error: (e as Error).message.replace(`${path}: `, '') }
    }
    this.cache.set(path, { size: st.size, mtimeMs: st.mtimeMs, value })
    return value
  }
}

/** Whether the header's run sets say their tunables (indexes written before they did, do not). */
const hasTunables = (h: SessionHeader): boolean => h.index.runSets.every((s) => s.tunables !== undefined)

type Base = Pick<LibraryEntry, 'path' | 'file' | 'bytes' | 'modifiedAt'>

function fromHeader(base: Base, h: SessionHeader, version: number): LibraryEntry {
  return {
    ...base,
    compressed: base.file.endsWith('.gz'),
    version,
    name: h.name,
    savedAt: h.savedAt,
    app: h.app,
    revision: h.revision,
    notes: h.notes,
    tags: h.tags,
    environment: h.environment,
    index: h.index,
  }
}

/** An older (or header-less) file: read in full, migrated in memory (the file is left as it is). */
async function fromFile(base: Base, path: string): Promise<LibraryEntry> {
  const { doc, version } = await readSession(path)
  return fromHeader(base, doc, version)
}
