// Naming sessions on the command line: a file (any path), or a session of the library by its name
// (case-insensitive), its file name, or its file name without `.json` / `.json.gz`.
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import type { LibraryEntry } from '../shared/library/types'
import { defaultLibraryFolder, SessionStore, slugOf } from '../main/services/sessions'
import { InputError } from './spec-file'

/** The library folder of `--library DIR`, else the default. */
export const libraryStore = (dir: string | undefined): SessionStore =>
  new SessionStore(resolve(dir ?? defaultLibraryFolder()), 'cli')

const looksLikePath = (ref: string): boolean => /\.json(\.gz)?$/.test(ref) || ref.includes('/')

/** The library entry a reference names, or null. */
export function findEntry(entries: readonly LibraryEntry[], ref: string): LibraryEntry | null {
  const low = ref.toLowerCase()
  const stem = (f: string): string => f.replace(/\.json(\.gz)?$/, '')
  return (
    entries.find((e) => e.name.toLowerCase() === low) ??
    entries.find((e) => e.file === ref || stem(e.file) === ref) ??
    entries.find((e) => stem(e.file) === slugOf(ref)) ??
    null
  )
}

/** The path of an existing session: a file, or a library session by name. */
export async function sessionPath(store: SessionStore, ref: string): Promise<string | null> {
  if (looksLikePath(ref) && existsSync(resolve(ref))) return resolve(ref)
  const { entries } = await store.scan()
  return findEntry(entries, ref)?.path ?? null
}

/** Like sessionPath, but a missing session is an InputError listing what the library holds. */
export async function requireSession(store: SessionStore, ref: string): Promise<string> {
  const path = await sessionPath(store, ref)
  if (path) return path
  const { entries } = await store.scan()
  const names = entries.map((e) => `"${e.name}"`).slice(0, 12)
  throw new InputError([
    `no session "${ref}" in ${store.folder}` +
      (names.length ? ` (it holds ${names.join(', ')})` : ' (it is empty)'),
  ])
}

/** Where `import --session REF` puts its runs: an existing session, or a new file for that name. */
export async function importTarget(
  store: SessionStore,
  ref: string,
): Promise<{ path: string; name: string }> {
  const existing = await sessionPath(store, ref)
  if (existing) return { path: existing, name: ref }
  if (looksLikePath(ref)) {
    const path = resolve(ref)
    const name = (path.split('/').pop() ?? ref).replace(/\.json(\.gz)?$/, '')
    return { path, name }
  }
  return { path: resolve(store.folder, `${slugOf(ref)}.json`), name: ref }
}
