// `iosched-lab import FILE… --session NAME`: the imported runs added to a session — one of the
// library by name, or a file — continuing the repetitions of labels it already holds.
import type { ImportedFile } from '../shared/import/types'
import type { CliIo } from './command'
import { importTarget, libraryStore } from './session-ref'

export async function addToSession(
  ref: string,
  library: string | undefined,
  files: ImportedFile[],
  io: CliIo,
): Promise<void> {
  const store = libraryStore(library)
  const target = await importTarget(store, ref)
  const runs = files.flatMap((f) => f.runs.map((r) => r.run))
  const info = await store.addRuns(target.path, target.name, runs)
  io.err(
    `added ${runs.length} run${runs.length === 1 ? '' : 's'} to session “${info.name}” (${info.path}): ${info.runs} in all`,
  )
}
