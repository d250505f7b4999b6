// A session as the input of the exports (text, CSV, JSON, HTML): every run — the result's and the
// extra ones, or a sweep's points when that is all it holds — the environment it was saved in,
// its tags, and its notes after the spec's description.
import { reportInput, ReportInputError } from '../report/input'
import type { ReportInput } from '../report/input'
import type { RunResult } from '../experiment/result'
import type { SessionDocument } from './types'

/** The environment as (what, value) pairs for a report. */
export function environmentPairs(
  doc: Pick<SessionDocument, 'environment' | 'tags'>,
): Array<[string, string]> {
  const e = doc.environment
  const out: Array<[string, string]> = []
  if (e.os) out.push(['system', `${e.os.type} ${e.os.release} (${e.os.arch})`])
  if (e.cpu) out.push(['CPU', `${e.cpu.model} × ${e.cpu.count}`])
  if (e.node) out.push(['Node', e.node])
  if (e.app) out.push(['iosched-lab', e.app])
  for (const d of e.devices ?? [])
    out.push([
      'device',
      Object.entries(d)
        .filter(([, v]) => v !== null && typeof v !== 'object')
        .map(([k, v]) => `${k} ${String(v)}`)
        .join(', '),
    ])
  if (doc.tags.length > 0) out.push(['tags', doc.tags.join(', ')])
  return out
}

/** What the exports work from; throws a ReportInputError when the session holds no runs. */
export function sessionReportInput(doc: SessionDocument): ReportInput {
  const env = environmentPairs(doc)
  let input: ReportInput
  if (doc.result) input = reportInput({ ...doc.result, runs: [...doc.result.runs, ...doc.runs] }, env)
  else if (doc.runs.length > 0) input = reportInput([...doc.runs], env)
  else if (doc.sweep) {
    const name =
      doc.sweep.sweep.path
        .split(/[.[\]]/)
        .filter(Boolean)
        .pop() ?? doc.sweep.sweep.path
    const runs: RunResult[] = doc.sweep.points.flatMap((p) =>
      p.result.runs.map((r) => ({ ...r, label: `${r.label} ${name}=${String(p.value)}` })),
    )
    input = reportInput(runs, [...env, ['sweep', doc.sweep.sweep.path]])
  } else throw new ReportInputError('the session holds no runs yet: run the experiment or import files first')
  const description = [input.description, doc.notes.trim()].filter(Boolean).join('\n\n')
  return { ...input, name: doc.name, description }
}
