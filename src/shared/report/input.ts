import { summarizeRuns } from '../experiment/compare'
import type { LabelSummary } from '../experiment/compare'
import { groupProcesses } from '../experiment/process-groups'
import type { RunResult } from '../experiment/result'
import { dateTime } from '../util/date-time'

/**
 * What every export works from: the results of one experiment (or of imported files) — runs,
 * their summary per scheduler label, the spec when known, and the environment as far as the
 * document tells it.
 */
export interface ReportInput {
  name: string
  description: string
  /** The spec as run (ExperimentResult, session) — null when the document does not hold it. */
  spec: unknown
  /** (what, value) pairs: device and host presets, seed, repetitions, tools, versions … */
  environment: Array<[string, string]>
  runs: RunResult[]
  /** Per label, over repetitions, with a workload's instances folded into one row per process. */
  summary: LabelSummary[]
}

export class ReportInputError extends Error {}

type Obj = Record<string, unknown>
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * A report input from any results document the lab writes: `iosched-lab run --json`
 * (`iosched-lab/run-output@1`), an ExperimentResult (`iosched-lab/experiment@1`), a session
 * (`iosched-lab/session@1`, its last result; `@2`, its result and extra runs), `iosched-lab import --json` (`iosched-lab/import@1`),
 * or a bare array of runs. Throws a ReportInputError saying what it is not.
 */
export function reportInput(doc: unknown, environment: Array<[string, string]> = []): ReportInput {
  if (Array.isArray(doc)) return make('runs', '', null, checkRuns(doc, ''), environment)
  if (!isObj(doc))
    throw new ReportInputError('expected a JSON object (a results document) or an array of runs')
  const schema = doc.schema
  const env: Array<[string, string]> = []
  const put = (k: string, v: unknown): void => {
    if (typeof v === 'string' || typeof v === 'number') env.push([k, String(v)])
  }
  /** A session's save time as the app shows it, not as stored. */
  const putSaved = (v: unknown): void => put('saved', typeof v === 'string' ? dateTime(v) : v)
  switch (schema) {
    case 'iosched-lab/run-output@1': {
      put('device preset', doc.device)
      put('host preset', doc.host)
      put('repetitions', doc.repetitions)
      put('seed', doc.seed)
      const runs = checkRuns(doc.runs, 'runs')
      // (the spec as run: in documents written since it was added)
      const spec = isObj(doc.spec) ? doc.spec : null
      const description = spec && typeof spec.description === 'string' ? spec.description : ''
      return make(str(doc.experiment, 'experiment'), description, spec, runs, [...env, ...environment])
    }
    case 'iosched-lab/experiment@1':
      return fromExperiment(doc, '', environment)
    case 'iosched-lab/session@1': {
      if (!isObj(doc.result))
        throw new ReportInputError('the session holds no result (it was saved before a run)')
      putSaved(doc.savedAt)
      put('iosched-lab', doc.app)
      return fromExperiment(doc.result, 'result.', [...env, ...environment])
    }
    case 'iosched-lab/session@2': {
      const result = isObj(doc.result) ? doc.result : null
      const runs = [
        ...(Array.isArray(result?.runs) ? result.runs : []),
        ...(Array.isArray(doc.runs) ? doc.runs : []),
      ]
      if (runs.length === 0)
        throw new ReportInputError('the session holds no runs (it was saved before a run)')
      putSaved(doc.savedAt)
      put('iosched-lab', doc.app)
      if (result) return fromExperiment({ ...result, runs }, 'result.', [...env, ...environment])
      return make(str(doc.name, 'name'), '', null, checkRuns(runs, 'runs'), [...env, ...environment])
    }
    case 'iosched-lab/import@1': {
      if (!Array.isArray(doc.files)) throw new ReportInputError('files: expected an array')
      const runs: RunResult[] = []
      doc.files.forEach((f, i) => {
        if (!isObj(f)) throw new ReportInputError(`files[${i}]: expected an object`)
        runs.push(...checkRuns(f.runs, `files[${i}].runs`))
      })
      return make('imported results', '', null, runs, environment)
    }
    default:
      throw new ReportInputError(
        `unknown document${typeof schema === 'string' ? ` "${schema}"` : ' (no "schema")'}: expected the output of ` +
          '`iosched-lab run --json`, an experiment result, a session or `iosched-lab import --json`',
      )
  }
}

function fromExperiment(doc: Obj, at: string, environment: Array<[string, string]>): ReportInput {
  const spec = isObj(doc.spec) ? doc.spec : null
  const env: Array<[string, string]> = []
  if (spec) {
    const device = spec.device as Obj | undefined
    const host = spec.host as Obj | undefined
    if (isObj(device) && typeof device.preset === 'string') env.push(['device preset', device.preset])
    if (isObj(device) && typeof device.model === 'string') env.push(['device model', device.model])
    if (isObj(host) && typeof host.preset === 'string') env.push(['host preset', host.preset])
    if (typeof spec.repetitions === 'number') env.push(['repetitions', String(spec.repetitions)])
    if (typeof spec.seed === 'number') env.push(['seed', String(spec.seed)])
  }
  const description = spec && typeof spec.description === 'string' ? spec.description : ''
  return make(str(doc.name, `${at}name`), description, spec, checkRuns(doc.runs, `${at}runs`), [
    ...environment,
    ...env,
  ])
}

function make(
  name: string,
  description: string,
  spec: unknown,
  runs: RunResult[],
  environment: Array<[string, string]>,
): ReportInput {
  const env = [...environment]
  const sources = [...new Set(runs.map((r) => r.source))]
  env.push(['runs', `${runs.length} (${sources.join(', ')})`])
  const devices = [...new Set(runs.map((r) => r.device))]
  if (devices.length > 0) env.push(['devices of the runs', devices.join(', ')])
  const tools = [
    ...new Set(
      runs
        .filter((r) => r.imported)
        .map((r) => `${r.imported!.tool}${r.imported!.version ? ` ${r.imported!.version}` : ''}`),
    ),
  ]
  if (tools.length > 0) env.push(['imported from', tools.join(', ')])
  return { name, description, spec, environment: env, runs, summary: summarizeRuns(runs.map(groupProcesses)) }
}

const str = (v: unknown, where: string): string => {
  if (typeof v !== 'string') throw new ReportInputError(`${where}: expected a string`)
  return v
}

/** Enough of each run's shape for the exports; the first problem names the run. */
function checkRuns(v: unknown, where: string): RunResult[] {
  if (!Array.isArray(v)) throw new ReportInputError(`${where || 'the document'}: expected an array of runs`)
  v.forEach((r, i) => {
    const at = `${where}[${i}]`
    if (!isObj(r) || r.schema !== 'iosched-lab/run@1')
      throw new ReportInputError(`${at}: not a run (expected "schema": "iosched-lab/run@1")`)
    for (const k of ['label', 'scheduler', 'source', 'device'])
      if (typeof r[k] !== 'string') throw new ReportInputError(`${at}.${k}: expected a string`)
    for (const k of ['repetition', 'seconds'])
      if (typeof r[k] !== 'number') throw new ReportInputError(`${at}.${k}: expected a number`)
    if (!Array.isArray(r.processes)) throw new ReportInputError(`${at}.processes: expected an array`)
    if (!isObj(r.totals)) throw new ReportInputError(`${at}.totals: expected an object`)
    if (!isObj(r.timeSeries) || !Array.isArray((r.timeSeries as Obj).tMs))
      throw new ReportInputError(`${at}.timeSeries: expected a time series`)
    for (const p of r.processes) if (isObj(p)) revive(p, isObj(p.latencyMs) ? [p.latencyMs] : [])
    revive(r.totals, [])
  })
  return v as RunResult[]
}

/** JSON writes NaN (a figure not measured) as null: read it back as NaN, so statistics skip nothing silently. */
function revive(o: Obj, nested: Obj[]): void {
  for (const x of [o, ...nested]) for (const k of Object.keys(x)) if (x[k] === null) x[k] = NaN
}
