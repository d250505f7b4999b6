// The session document as text: written header first — the name, date, index, notes, tags and
// environment on the first line, the spec and runs after it — so the library reads one line of a
// session to list it; read back (any version, migrated) into a checked SessionDocument.
import { isSweepDocument, sessionOfSweep } from './from-sweep'
import { migrate, invalid, SessionFormatError } from './migrate'
import { sessionIndex } from './run-sets'
import { documentSchema, headerSchema } from './schema'
import { SESSION_SCHEMA, SESSION_VERSION } from './types'
import type { SessionDocument, SessionHeader } from './types'

/**
 * One JSON document, the header's fields first and alone on the first line: JSON.stringify never
 * writes a raw line break, so the first one in the text ends the header.
 */
export function serializeSession(doc: SessionDocument): string {
  const { schema, name, savedAt, app, revision, index, notes, tags, environment } = doc
  const { spec, result, sweep, runs } = doc
  const head = JSON.stringify({ schema, name, savedAt, app, revision, index, notes, tags, environment })
  const body = JSON.stringify({ spec: spec ?? null, result, sweep, runs })
  return `${head.slice(0, -1)},\n${body.slice(1)}`
}

/** The header of a session from its first line (without the line break), or null when it has none. */
export function parseHeaderLine(line: string): SessionHeader | null {
  if (!line.startsWith('{') || !line.endsWith(',')) return null
  let value: unknown
  try {
    value = JSON.parse(`${line.slice(0, -1)}}`)
  } catch {
    return null
  }
  const parsed = headerSchema.safeParse(value)
  return parsed.success ? parsed.data : null
}

/** A session document of any version from its text; throws a SessionFormatError saying why not. */
export function parseSessionText(text: string): SessionDocument {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new SessionFormatError('not-json', 'not a JSON document')
  }
  return readSessionDocument(value)
}

/**
 * Check (and migrate) a parsed session document — or a sweep result of the command line, opened
 * as a session holding that sweep; its index is recomputed from its runs.
 */
export function readSessionDocument(value: unknown): SessionDocument {
  const current = isSweepDocument(value) ? sessionOfSweep(value) : migrate(value)
  const parsed = documentSchema.safeParse(current)
  if (!parsed.success) throw invalid(SESSION_VERSION, parsed.error.issues[0])
  const d = parsed.data
  const content = { result: d.result, sweep: d.sweep, runs: d.runs }
  return {
    schema: SESSION_SCHEMA,
    name: d.name,
    savedAt: d.savedAt,
    app: d.app,
    revision: d.revision,
    index: sessionIndex({ ...content, spec: d.spec }),
    notes: d.notes,
    tags: d.tags,
    environment: d.environment,
    spec: d.spec,
    ...content,
  }
}
