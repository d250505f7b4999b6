// What the library lists: each session file's summary facts (read from its header when it has
// one), the files it cannot read with the reason, and the query that filters them.
import type { RunKind, RunSetFacts, SessionEnvironment, SessionIndex } from '../session/types'

/** A session file of the library. */
export interface LibraryEntry {
  path: string
  /** The file's name in its folder. */
  file: string
  bytes: number
  /** ISO time of the file's last change. */
  modifiedAt: string
  /** gzip-compressed (`.json.gz`). */
  compressed: boolean
  /** The file's format version; older ones are migrated when read. */
  version: number
  name: string
  savedAt: string
  app: string
  /** Bumped by every write (docs/session-json.md); 0 for files written before it was counted. */
  revision: number
  notes: string
  tags: string[]
  environment: SessionEnvironment
  index: SessionIndex
}

/** A file of the library that is not a readable session (corrupt, or from a newer lab). */
export interface LibraryProblem {
  path: string
  file: string
  bytes: number
  modifiedAt: string
  error: string
}

/** Filters of the library; every one given must match. Dates are `YYYY-MM-DD` (inclusive) or ISO times. */
export interface LibraryQuery {
  /** Words found in the name, notes, tags, labels, devices or file name (case-insensitive, all of them). */
  text?: string
  device?: string
  /** A canonical scheduler name or a label. */
  scheduler?: string
  workload?: string
  kind?: RunKind
  /** Sessions holding every one of these tags. */
  tags?: string[]
  from?: string
  to?: string
}

/** A session that matches, with the run sets that match the device, scheduler, workload and kind filters. */
export interface LibraryHit extends LibraryEntry {
  sets: RunSetFacts[]
}

/** The values present in the whole library, for the filters' choices. */
export interface LibraryFacets {
  devices: string[]
  schedulers: string[]
  workloads: string[]
  kinds: RunKind[]
  tags: string[]
}

export interface LibrarySearchResult {
  folder: string
  /** Readable sessions in the folder, before filtering. */
  total: number
  hits: LibraryHit[]
  /** Files that could not be read, each with its error: always listed, whatever the filters. */
  problems: LibraryProblem[]
  facets: LibraryFacets
}
