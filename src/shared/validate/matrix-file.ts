import { validateSpec } from '../experiment/validate'
import type { ParamValues } from '../util/params'
import type { ValidateProcess, ValidateWorkload } from './matrix'
import { PROCESS_EXTRAS, validateSpec as buildSpec } from './matrix'

/**
 * A matrix of the user's own workloads for `validate --matrix FILE`, checked before anything runs:
 * a JSON array of `{ id, title?, rankBy?, processes: [{ name, params, ioClass?, ioLevel?, nice?,
 * startMs? }] }`, each process a fio job as in a spec (`filename: "/dev"` unless a file is named;
 * the region and run time are validate's) with, as in a spec, its I/O priority (fio's
 * prioclass/prio for real), nice and start. Returns the workloads, or the problems, each with where it is.
 */
export function parseValidateMatrix(
  doc: unknown,
): { ok: true; workloads: ValidateWorkload[] } | { ok: false; problems: string[] } {
  const problems: string[] = []
  if (!Array.isArray(doc) || doc.length === 0)
    return { ok: false, problems: ['the matrix: expected a non-empty array of workloads'] }
  const out: ValidateWorkload[] = []
  const place: number[] = [] // each workload's index in the file
  const ids = new Set<string>()
  doc.forEach((w: unknown, i) => {
    const at = `[${i}]`
    if (typeof w !== 'object' || w === null) return problems.push(`${at}: expected an object`)
    const o = w as Record<string, unknown>
    const id = o.id
    if (typeof id !== 'string' || !/^[a-z0-9][a-z0-9-]*$/.test(id))
      return problems.push(`${at}.id: expected a name of lower-case letters, digits and dashes`)
    if (ids.has(id)) return problems.push(`${at}.id: "${id}" is given twice`)
    ids.add(id)
    const ps = o.processes
    if (!Array.isArray(ps) || ps.length === 0)
      return problems.push(`${at}.processes: expected a non-empty array of { name, params }`)
    const processes: ValidateProcess[] = []
    ps.forEach((p: unknown, k) => {
      const pat = `${at}.processes[${k}]`
      const q = p as Record<string, unknown> | null
      if (typeof q?.name !== 'string' || q.name === '') return problems.push(`${pat}.name: expected a name`)
      if (typeof q.params !== 'object' || q.params === null || Array.isArray(q.params))
        return problems.push(`${pat}.params: expected the fio job's parameters (an object)`)
      const known = ['name', 'params', ...PROCESS_EXTRAS] as string[]
      const unknown = Object.keys(q).filter((key) => !known.includes(key))
      if (unknown.length > 0)
        return problems.push(`${pat}.${unknown[0]}: not a field of a process (they are ${known.join(', ')})`)
      const extras = Object.fromEntries(PROCESS_EXTRAS.filter((key) => key in q).map((key) => [key, q[key]]))
      processes.push({ name: q.name, params: { filename: '/dev', ...(q.params as ParamValues) }, ...extras })
    })
    const rankBy = typeof o.rankBy === 'string' ? o.rankBy : processes[0]?.name
    if (rankBy !== undefined && processes.length > 0 && !processes.some((p) => p.name === rankBy))
      problems.push(
        `${at}.rankBy: no process "${rankBy}" (the processes are ${processes.map((p) => p.name).join(', ')})`,
      )
    const title = typeof o.title === 'string' ? o.title : id
    out.push({ id, title, quick: true, rankBy: rankBy ?? '', processes })
    place.push(i)
  })
  // each as the spec validate will run (on a generic device here: the parameters are what is
  // checked), also when others had problems of their own: every problem at once
  out.forEach((w, k) => {
    const v = validateSpec(
      buildSpec(w, {
        device: { preset: 'nullblk' },
        schedulers: ['none'],
        seconds: 1,
        regionBytes: 2 ** 28,
        repetitions: 2,
        cvPercent: 5,
        maxRepetitions: 2,
      }),
    )
    if (!v.ok)
      for (const issue of v.issues)
        problems.push(
          `[${place[k]}]${issue.path.replace(/^workload\.processes(\[\d+\])/, '.processes$1').replace(/^workload\./, '.')}: ${issue.message}`,
        )
  })
  return problems.length > 0 ? { ok: false, problems } : { ok: true, workloads: out }
}
