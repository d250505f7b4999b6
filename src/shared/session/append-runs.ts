import type { RunResult } from '../experiment/result'
import { runKind } from './run-sets'

/**
 * A session's extra runs with `added` appended: an added run whose label (and kind) the session
 * already holds continues its repetitions — five bonnie++ files imported one at a time under one
 * label become repetitions 0 … 4, as they would imported together. `added` is not modified.
 */
export function appendRuns(existing: readonly RunResult[], added: readonly RunResult[]): RunResult[] {
  const keyOf = (r: RunResult): string => `${runKind(r)}\u0000${r.label}`
  const offset = new Map<string, number>()
  for (const r of existing) offset.set(keyOf(r), Math.max(offset.get(keyOf(r)) ?? 0, r.repetition + 1))
  const out = [...existing]
  for (const r of added) {
    const repetition = (offset.get(keyOf(r)) ?? 0) + r.repetition
    out.push(repetition === r.repetition ? r : { ...r, repetition })
  }
  return out
}
