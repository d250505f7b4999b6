// The work in the app, as far as a session saves it — the spec as edited, the comparison, the
// sweep, the imported runs, notes and tags — in a form cheap to compare: the spec as its JSON
// text (it is edited in place), the results by identity (they are replaced, never edited).

export interface WorkState {
  spec: string
  result: unknown
  sweep: unknown
  runs: unknown
  notes: string
  tags: string
}

export function workState(w: {
  spec: unknown
  result: unknown
  sweep: unknown
  runs: unknown
  notes: string
  tags: string[]
}): WorkState {
  return { ...w, spec: JSON.stringify(w.spec ?? null), tags: JSON.stringify(w.tags) }
}

export function sameWork(a: WorkState, b: WorkState): boolean {
  return (
    a.spec === b.spec &&
    a.result === b.result &&
    a.sweep === b.sweep &&
    a.runs === b.runs &&
    a.notes === b.notes &&
    a.tags === b.tags
  )
}
