// Sessions: an experiment, every run, the environment, notes and tags saved as one versioned
// document (`iosched-lab/session@2`, docs/session-json.md), in a library folder or at any path;
// gzip-compressed when large. Writes are atomic (library/atomic-write.ts): a crash leaves either
// the old file or the new one. Older versions are migrated when read; a file from a newer lab or
// a corrupt one is listed by the library with its error. Every writer (save, notes and tags,
// adding runs) holds the session's lock file while it reads and writes, across processes.
import { rm } from 'node:fs/promises'
import { homedir } from 'node:os'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import type { SessionDocument, SessionInfo, SessionSaveInput } from '../../shared/api/contract'
import type { SessionMetaInput } from '../../shared/api/library-contract'
import type { RunResult } from '../../shared/experiment/result'
import { ApiError } from '../../shared/api/errors'
import { appendRuns } from '../../shared/session/append-runs'
import { serializeSession } from '../../shared/session/document'
import { sessionIndex } from '../../shared/session/run-sets'
import { SESSION_SCHEMA } from '../../shared/session/types'
import { removeStaleTemps, writeFileAtomic } from './library/atomic-write'
import type { AtomicWriteOptions } from './library/atomic-write'
import { currentEnvironment } from './library/environment'
import { currentOf } from '../../shared/library/one-per-name'
import type { LibraryEntry, LibraryProblem } from '../../shared/library/types'
import { LibraryIndex } from './library/library-index'
import { withSessionLock } from './library/session-lock'
import { writeError } from './library/storage-error'
import type { LockOptions } from './library/session-lock'
import type { LibraryScan } from './library/library-index'
import { GZIP_THRESHOLD_BYTES, gzipText, readSessionFile } from './library/session-file'

export { writeFileAtomic }
export { SESSION_SCHEMA }

/** The default library: $IOSCHED_LAB_HOME/sessions, else $XDG_DATA_HOME/iosched-lab/sessions. */
export function defaultLibraryFolder(env: NodeJS.ProcessEnv = process.env): string {
  if (env.IOSCHED_LAB_HOME) return join(env.IOSCHED_LAB_HOME, 'sessions')
  const data = env.XDG_DATA_HOME || join(homedir(), '.local', 'share')
  return join(data, 'iosched-lab', 'sessions')
}

/** A file name from a session name: lower case, letters, digits and dashes. */
export function slugOf(name: string): string {
  const s = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
  return s || 'session'
}

/** Hooks into a save (tests slow it down, or kill the writer at a given point). */
export interface SaveHooks extends AtomicWriteOptions {
  /** The new file is in place; the other file of its name is not removed yet. */
  onPublished?: (path: string) => void | Promise<void>
}

export interface SessionStoreOptions {
  /** Library files larger than this are gzip-compressed (default 1 MiB). */
  gzipThresholdBytes?: number
  /** Waiting for another writer of a session, and when its lock counts as stale. */
  lock?: LockOptions
}

/** The library folder of session files, plus save-as and open at any path. */
export class SessionStore {
  readonly index: LibraryIndex

  constructor(
    readonly folder: string,
    private readonly appVersion = '0',
    private readonly options: SessionStoreOptions = {},
  ) {
    this.folder = resolve(folder)
    this.index = new LibraryIndex(this.folder)
  }

  /** Absolute path of `p`; relative paths are taken inside the library folder. */
  resolvePath(p: string): string {
    return isAbsolute(p) ? p : resolve(this.folder, p)
  }

  async save(input: SessionSaveInput, write: SaveHooks = {}): Promise<SessionInfo> {
    const path = input.path ? this.resolvePath(input.path) : join(this.folder, `${slugOf(input.name)}.json`)
    return this.locked(path, () => this.write(this.compose(input), path, write, input.replace ?? false))
  }

  /** A new document of the input, with this machine's environment. */
  private compose(input: SessionSaveInput): SessionDocument {
    const content = { result: input.result ?? null, sweep: input.sweep ?? null, runs: input.runs ?? [] }
    const spec = input.spec ?? null
    return {
      schema: SESSION_SCHEMA,
      name: input.name.trim(),
      savedAt: new Date().toISOString(),
      app: this.appVersion,
      revision: 0,
      index: sessionIndex({ ...content, spec }),
      notes: input.notes ?? '',
      tags: cleanTags(input.tags ?? []),
      environment: currentEnvironment(this.appVersion, input.devices),
      spec,
      ...content,
    }
  }

  /** The whole session at `path` (in the library, under whichever of its names holds it). */
  async open(path: string): Promise<SessionDocument> {
    return readSessionFile(await this.locate(path))
  }

  /** Change a saved session's name, notes or tags; everything else in the file stays. */
  async setMeta(input: SessionMetaInput): Promise<SessionInfo> {
    const path = this.resolvePath(input.path)
    return this.locked(path, async () => {
      const doc = await readSessionFile(await this.locate(path))
      if (input.name !== undefined) doc.name = input.name.trim()
      if (input.notes !== undefined) doc.notes = input.notes
      if (input.tags !== undefined) doc.tags = cleanTags(input.tags)
      return this.write(doc, path)
    })
  }

  /**
   * Add runs (imported files) to the session at `path`, continuing their repetitions; a missing
   * file becomes a new session of these runs named `name`. Read and written under the session's
   * lock, so writers at once (two `import --session`) each add theirs.
   */
  async addRuns(path: string, name: string, runs: RunResult[]): Promise<SessionInfo> {
    const abs = this.resolvePath(path)
    return this.locked(abs, async () => {
      let doc: SessionDocument
      try {
        doc = await readSessionFile(await this.locate(abs))
      } catch (e) {
        if ((e as { kind?: string }).kind !== 'not-found') throw e
        return this.write(this.compose({ name, spec: null, runs: appendRuns([], runs) }), abs)
      }
      doc.runs = appendRuns(doc.runs, runs)
      doc.index = sessionIndex(doc)
      doc.savedAt = new Date().toISOString()
      return this.write(doc, abs)
    })
  }

  /** Every readable session in the library folder, newest first. */
  async list(): Promise<SessionInfo[]> {
    const { entries } = await this.index.scan()
    return entries.map((e) => ({
      path: e.path,
      name: e.name,
      savedAt: e.savedAt,
      schedulers: e.index.labels,
      hasResult: e.index.hasResult || e.index.hasSweep || e.index.runs > 0,
      bytes: e.bytes,
      revision: e.revision,
      tags: e.tags,
      runs: e.index.runs,
      kinds: e.index.kinds,
      compressed: e.compressed,
    }))
  }

  /** Every session file of the library, readable or not. */
  scan(): Promise<LibraryScan> {
    return this.index.scan()
  }

  /**
   * Run a read-modify-write of the session at `path` holding its lock (library/session-lock.ts).
   * A write the disk refuses — full, read-only, no permission — is an ApiError saying so and
   * where (library/storage-error.ts); the file that was there stays as it was.
   */
  private async locked<T>(path: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await withSessionLock(path, fn, this.options.lock)
    } catch (e) {
      const kept = await this.present(path).then(
        (files) => files.length > 0,
        () => false,
      )
      throw writeError(e, path, kept)
    }
  }

  /** The files a session of `path` may be: both names in the library folder, else the path itself. */
  private filesOf(path: string): string[] {
    if (dirname(path) !== this.folder) return [path]
    const base = path.replace(/\.json(\.gz)?$/, '')
    return [`${base}.json`, `${base}.json.gz`]
  }

  /** Every file of the session's name there is now, each read (or failed to read) as the library does. */
  private async present(path: string): Promise<(LibraryEntry | LibraryProblem)[]> {
    const files = await Promise.all(this.filesOf(path).map((p) => this.index.file(p)))
    return files.filter((f) => f !== null)
  }

  /**
   * Where the session at `path` is: in the library, whichever of its two names holds it (a later
   * save may have switched `NAME.json` to `NAME.json.gz`); elsewhere the path itself.
   */
  async locate(path: string): Promise<string> {
    const abs = this.resolvePath(path)
    return currentOf(await this.present(abs))?.path ?? abs
  }

  /**
   * Write a document (holding its lock). In the library folder the name's extension follows the
   * size — `.json.gz` above the threshold, `.json` below — and the other one, an older save, is
   * removed; elsewhere `.json.gz` is compressed and anything else is plain JSON, as the user named
   * it. The revision goes above that of every file of the name, so if a kill leaves both names
   * (after the new file, before the old one is removed) the new one is the one listed. A file
   * already there is replaced only as `replace` allows (SessionSaveInput.replace).
   */
  private async write(
    doc: SessionDocument,
    path: string,
    hooks: SaveHooks = {},
    replace: Replace = true,
  ): Promise<SessionInfo> {
    const files = this.filesOf(path)
    const inLibrary = files.length === 2
    const present = await this.present(path)
    refuseToReplace(currentOf(present), replace)
    doc.revision = Math.max(doc.revision, ...present.map((f) => ('error' in f ? 0 : f.revision))) + 1
    const text = serializeSession(doc)
    const threshold = this.options.gzipThresholdBytes ?? GZIP_THRESHOLD_BYTES
    const compress = inLibrary ? Buffer.byteLength(text) > threshold : path.endsWith('.json.gz')
    const target = inLibrary ? files[compress ? 1 : 0] : path
    const data = compress ? await gzipText(text) : text
    await writeFileAtomic(target, data, hooks)
    this.index.forget(target)
    await hooks.onPublished?.(target)
    // only now the other name's file: an older save, or the one a killed switch left
    for (const p of files) if (p !== target) await rm(p, { force: true })
    // what a killed writer left for this session, under either name
    for (const p of files) await removeStaleTemps(p)
    return infoOf(target, doc, typeof data === 'string' ? Buffer.byteLength(data) : data.length, compress)
  }
}

type Replace = NonNullable<SessionSaveInput['replace']>

/** Throw a `conflict` when `replace` does not allow replacing the file that is there. */
function refuseToReplace(there: LibraryEntry | LibraryProblem | undefined, replace: Replace): void {
  if (!there || replace === true) return
  const what = 'error' in there ? 'a file the lab cannot read' : `“${there.name}”, saved ${there.savedAt}`
  if (replace === false)
    throw new ApiError(
      'conflict',
      `${there.path}: a session file is there already (${what}): save under another name, or replace it`,
    )
  if ('error' in there || there.revision !== replace.revision)
    throw new ApiError(
      'conflict',
      `${there.path}: the session was changed since it was opened here (now ${what}, revision ` +
        `${'error' in there ? '?' : there.revision}, not ${replace.revision}): save under another name, or replace it, dropping those changes`,
    )
}

/** Tags trimmed, without duplicates (case-insensitive), in the order given. */
export function cleanTags(tags: string[]): string[] {
  const seen = new Set<string>()
  const out: string[] = []
  for (const t of tags.map((x) => x.trim()).filter(Boolean))
    if (!seen.has(t.toLowerCase())) {
      seen.add(t.toLowerCase())
      out.push(t)
    }
  return out
}

function infoOf(path: string, doc: SessionDocument, bytes: number, compressed: boolean): SessionInfo {
  return {
    path,
    name: doc.name,
    savedAt: doc.savedAt,
    schedulers: doc.index.labels,
    hasResult: doc.result !== null || doc.sweep !== null || doc.runs.length > 0,
    bytes,
    revision: doc.revision,
    tags: doc.tags,
    runs: doc.index.runs,
    kinds: doc.index.kinds,
    compressed,
  }
}
