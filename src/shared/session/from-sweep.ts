// A sweep's result as the command line writes it (`iosched-lab sweep`, `merge`: schema
// `iosched-lab/sweep@1`, docs/sweeps.md) opened as a session: its spec, and its points as the
// session's sweep, as the app's own sweeps are saved. Checked afterwards like any session.
import { SWEEP_RESULT_SCHEMA } from '../api/sweep-shards'
import { SessionFormatError } from './migrate'
import { SESSION_SCHEMA } from './types'

export const isSweepDocument = (doc: unknown): boolean =>
  (doc as { schema?: unknown } | null)?.schema === SWEEP_RESULT_SCHEMA

/** The session document holding the sweep result `doc` (not yet checked as one). */
export function sessionOfSweep(doc: unknown): Record<string, unknown> {
  const d = doc as Record<string, unknown>
  const sweep = d.sweep as { path?: unknown } | undefined
  if (typeof sweep?.path !== 'string' || !Array.isArray(d.points))
    throw new SessionFormatError('invalid', 'not a valid sweep result (expected "sweep" and "points")')
  const name = `${typeof d.name === 'string' && d.name ? d.name : 'sweep'} — sweep of ${sweep.path}`
  const app = typeof d.app === 'string' ? d.app : ''
  return {
    schema: SESSION_SCHEMA,
    name: name.slice(0, 200),
    savedAt: '',
    app,
    notes: '',
    tags: [],
    environment: { app },
    spec: d.spec ?? null,
    result: null,
    sweep: { sweep: d.sweep, points: d.points },
    runs: [],
  }
}
