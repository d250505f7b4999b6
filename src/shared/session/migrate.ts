// Older session documents to the current version, one step at a time. Each migration takes a
// document of its version (checked with that version's schema) and returns one of the next; a
// reader runs them in order up to SESSION_VERSION. A new version adds one entry here and a test
// with a fixture written as that version's files were.
import { sessionDocumentSchema as v1Schema } from '../api/schemas'
import { SESSION_SCHEMA, SESSION_SCHEMA_PREFIX, SESSION_VERSION } from './types'

/** Why a document cannot be read as a session; `kind` says whether it is ours at all. */
export class SessionFormatError extends Error {
  constructor(
    readonly kind: 'not-json' | 'not-session' | 'newer' | 'invalid',
    message: string,
  ) {
    super(message)
    this.name = 'SessionFormatError'
  }
}

type Migration = (doc: unknown) => Record<string, unknown>

/** From version N (the key) to N + 1. */
export const MIGRATIONS: Readonly<Record<number, Migration>> = {
  /** v1 → v2: notes, tags, the environment (only the app version is known), no extra runs. */
  1: (doc) => {
    const parsed = v1Schema.safeParse(doc)
    if (!parsed.success) throw invalid(1, parsed.error.issues[0])
    const v1 = parsed.data
    return {
      schema: 'iosched-lab/session@2',
      name: v1.name,
      savedAt: v1.savedAt,
      app: v1.app,
      notes: '',
      tags: [],
      environment: { app: v1.app },
      spec: v1.spec,
      result: v1.result,
      sweep: v1.sweep,
      runs: [],
    }
  },
}

/** The version number of a session document (`iosched-lab/session@N`), or null when it is not one. */
export function sessionVersion(doc: unknown): number | null {
  const schema = (doc as { schema?: unknown } | null)?.schema
  if (typeof schema !== 'string' || !schema.startsWith(SESSION_SCHEMA_PREFIX)) return null
  const n = Number(schema.slice(SESSION_SCHEMA_PREFIX.length))
  return Number.isInteger(n) && n > 0 ? n : null
}

/** Bring a document of any known version to the current one (not yet checked as such). */
export function migrate(doc: unknown): unknown {
  const version = sessionVersion(doc)
  if (version === null) {
    const schema = (doc as { schema?: unknown } | null)?.schema
    throw new SessionFormatError(
      'not-session',
      `not an IOSched Lab session (${typeof schema === 'string' ? `"schema": "${schema}"` : 'no "schema"'})`,
    )
  }
  if (version > SESSION_VERSION)
    throw new SessionFormatError(
      'newer',
      `session format iosched-lab/session@${version} is newer than this lab reads (${SESSION_SCHEMA}): update the lab`,
    )
  let out = doc
  for (let v = version; v < SESSION_VERSION; v++) out = MIGRATIONS[v](out)
  return out
}

export function invalid(
  version: number,
  issue: { path: PropertyKey[]; message: string },
): SessionFormatError {
  const where = issue.path.map(String).join('.') || 'document'
  return new SessionFormatError(
    'invalid',
    `not a valid IOSched Lab session (version ${version}; ${where}: ${issue.message})`,
  )
}
