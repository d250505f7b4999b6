import { parseArgs } from 'node:util'
import { LibraryService } from '../../main/services/library/library-service'
import type { SessionStore } from '../../main/services/sessions'
import type { CompareCell, LibraryComparison, RunSetRef } from '../../shared/library/compare'
import type { LibraryEntry, LibraryQuery } from '../../shared/library/types'
import { ReportInputError } from '../../shared/report/input'
import { meanCi } from '../../shared/report/mean-ci'
import { mailingListText } from '../../shared/report/text'
import { sessionReportInput } from '../../shared/session/report-input'
import type { RunKind } from '../../shared/session/types'
import { findScheduler } from '../../shared/schedulers/registry'
import { dateTime } from '../../shared/util/date-time'
import { change } from '../../shared/util/people-numbers'
import { tunablesText } from '../../shared/util/tunable-diff'
import type { CliCommand, CliIo } from '../command'
import { findEntry, libraryStore, requireSession, sessionPath } from '../session-ref'
import { InputError } from '../spec-file'
import { num, renderTable } from '../table'

/** `iosched-lab sessions [list|show NAME|compare A B…] [--json]`: the library from the command line. */
export const sessionsCommand: CliCommand = {
  name: 'sessions',
  usage: [
    'sessions [list] [--json] [--library DIR]  the saved sessions: name, date, runs, devices, schedulers, tags;',
    '      [--text W] [--device D] [--scheduler S] [--workload W] [--kind K] [--tag T]… [--from DATE] [--to DATE]',
    '                                    unreadable files with their error',
    'sessions show NAME [--json]         one session: notes, tags, environment, run sets, the results as text',
    'sessions compare A B… [--baseline N] [--json]',
    '                                    compare run sets (SESSION, or SESSION:LABEL) against the first (or Nth):',
    "                                    difference in %, Welch's t-test / Mann-Whitney, ordered run times",
  ],
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        json: { type: 'boolean' },
        library: { type: 'string' },
        text: { type: 'string' },
        device: { type: 'string' },
        scheduler: { type: 'string' },
        workload: { type: 'string' },
        kind: { type: 'string' },
        tag: { type: 'string', multiple: true },
        from: { type: 'string' },
        to: { type: 'string' },
        baseline: { type: 'string' },
      },
      allowPositionals: true,
    })
    const store = libraryStore(values.library)
    const [sub = 'list', ...rest] = positionals
    switch (sub) {
      case 'list': {
        if (rest.length > 0) throw new InputError([`sessions list: unexpected "${rest[0]}"`])
        const kind = values.kind as RunKind | undefined
        if (kind !== undefined && !['simulated', 'real', 'imported'].includes(kind))
          throw new InputError([`sessions: --kind expects simulated, real or imported, got "${kind}"`])
        const query: LibraryQuery = {
          text: values.text,
          device: values.device,
          scheduler: values.scheduler,
          workload: values.workload,
          kind,
          tags: values.tag,
          from: values.from,
          to: values.to,
        }
        for (const k of ['from', 'to'] as const)
          if (query[k] !== undefined && Number.isNaN(Date.parse(query[k]!)))
            throw new InputError([`sessions: --${k} expects a date (YYYY-MM-DD), got "${query[k]}"`])
        const result = await new LibraryService(store).search(query)
        if (values.json) io.out(JSON.stringify(result, null, 2))
        else list(io, store, result.hits, result.problems, result.total)
        return 0
      }
      case 'show': {
        if (rest.length !== 1)
          throw new InputError([`sessions show: expected one session, got ${rest.length}`])
        return show(io, store, rest[0], values.json === true)
      }
      case 'compare': {
        if (rest.length === 0) throw new InputError(['sessions compare: expected one or more sessions'])
        const refs = (await Promise.all(rest.map((r) => runSetRefs(store, r)))).flat()
        const baseline = values.baseline === undefined ? 1 : Number(values.baseline)
        if (!Number.isInteger(baseline) || baseline < 1 || baseline > refs.length)
          throw new InputError([
            `sessions compare: --baseline expects a run set number 1…${refs.length}, got "${values.baseline}"`,
          ])
        const c = await new LibraryService(store).compare({ sets: refs, baseline: baseline - 1 })
        io.out(values.json ? JSON.stringify(c, null, 2) : comparisonText(c))
        return 0
      }
      default:
        throw new InputError([`sessions: unknown subcommand "${sub}" (list, show or compare)`])
    }
  },
}

function list(
  io: CliIo,
  store: SessionStore,
  hits: LibraryEntry[],
  problems: { file: string; error: string }[],
  total: number,
): void {
  if (total === 0 && problems.length === 0) {
    io.out(`no sessions in ${store.folder}`)
    return
  }
  io.out(
    renderTable(
      ['session', 'saved', 'runs', 'kinds', 'devices', 'schedulers', 'tags', 'file'],
      hits.map((e) => [
        e.name,
        dateTime(e.savedAt),
        String(e.index.runs),
        e.index.kinds.join(', '),
        e.index.devices.join(', '),
        e.index.labels.join(', '),
        e.tags.join(', '),
        e.file + (e.version < 2 ? ` (v${e.version})` : ''),
      ]),
      ['l', 'l', 'r', 'l', 'l', 'l', 'l', 'l'],
    ),
  )
  io.out(`${hits.length} of ${total} session${total === 1 ? '' : 's'} in ${store.folder}`)
  for (const p of problems) io.out(`cannot read ${p.file}: ${p.error}`)
}

async function show(io: CliIo, store: SessionStore, ref: string, json: boolean): Promise<number> {
  const path = await requireSession(store, ref)
  const doc = await store.open(path)
  if (json) {
    const { spec, result, sweep, runs, ...header } = doc
    io.out(
      JSON.stringify(
        {
          path,
          ...header,
          hasSpec: spec !== null,
          hasResult: result !== null,
          hasSweep: sweep !== null,
          extraRuns: runs.length,
        },
        null,
        2,
      ),
    )
    return 0
  }
  const e = doc.environment
  const lines = [
    `${doc.name}`,
    `  file: ${path}`,
    `  saved: ${dateTime(doc.savedAt)} by iosched-lab ${doc.app}`,
    ...(doc.tags.length ? [`  tags: ${doc.tags.join(', ')}`] : []),
    ...(e.os ? [`  system: ${e.os.type} ${e.os.release} (${e.os.arch}), Node ${e.node ?? '?'}`] : []),
    ...(e.cpu ? [`  CPU: ${e.cpu.model} × ${e.cpu.count}`] : []),
    ...(e.devices ?? []).map((d) => `  device: ${JSON.stringify(d)}`),
  ]
  if (doc.notes.trim())
    lines.push(
      '',
      ...doc.notes
        .trim()
        .split('\n')
        .map((l) => `  ${l}`),
    )
  io.out(lines.join('\n'))
  if (doc.index.runSets.length === 0) {
    io.out('\nno runs yet')
    return 0
  }
  io.out(
    '\n' +
      renderTable(
        ['run set', 'scheduler', 'kind', 'device', 'runs', 'workloads', 'tunables'],
        doc.index.runSets.map((s) => [
          s.key,
          s.scheduler,
          s.kind + (s.tool ? ` (${s.tool})` : ''),
          s.device,
          String(s.repetitions),
          s.workloads.join(', '),
          tunablesText(s.scheduler, s.kind, s.tunables ?? {}, findScheduler(s.scheduler)?.tunables ?? [])
            .text,
        ]),
        ['l', 'l', 'l', 'l', 'r', 'l', 'l'],
      ),
  )
  try {
    io.out('\n' + mailingListText(sessionReportInput(doc)).replace(/\n$/, ''))
  } catch (err) {
    if (!(err instanceof ReportInputError)) throw err
  }
  return 0
}

/** `SESSION` (all its run sets) or `SESSION:LABEL` (the sets with that label or key). */
async function runSetRefs(store: SessionStore, arg: string): Promise<RunSetRef[]> {
  const { entries } = await store.scan()
  const candidates: [string, string | null][] = [[arg, null]]
  for (let i = arg.lastIndexOf(':'); i > 0; i = arg.lastIndexOf(':', i - 1))
    candidates.push([arg.slice(0, i), arg.slice(i + 1)])
  for (const [ref, label] of candidates) {
    const path = findEntry(entries, ref)?.path ?? (await sessionPath(store, ref))
    if (!path) continue
    const doc = await store.open(path)
    const sets = doc.index.runSets.filter((s) => label === null || s.label === label || s.key === label)
    if (sets.length === 0)
      throw new InputError([
        `sessions compare: "${doc.name}" has no run set "${label}" (it has ${doc.index.runSets.map((s) => `"${s.label}"`).join(', ') || 'none'})`,
      ])
    return sets.map((s) => ({ path, set: s.key }))
  }
  await requireSession(store, arg)
  return []
}

/** Per metric, each set's mean ± CI, difference from the baseline and p; then the ordered run times. */
export function comparisonText(c: LibraryComparison): string {
  const name = (i: number): string => {
    const s = c.sets[i]
    return `${s.session}: ${s.facts.label}${s.facts.kind === 'simulated' ? '' : ` (${s.facts.kind})`}${i === c.baseline ? ' [baseline]' : ''}`
  }
  const test = { welch: "Welch's t-test", 'mann-whitney': 'Mann-Whitney U', none: 'no test' }
  const parts: string[] = []
  c.metrics.forEach((m, j) => {
    const rows = c.sets.map((_, i) => cellRow(name(i), c.cells[i][j]))
    parts.push(
      `${m.group === 'run' || m.group === 'device' ? m.group : `process ${m.group}`}: ${m.label} (${m.unit}), ${test[m.test]}\n` +
        renderTable(['run set', 'n', 'value', 'diff', 'p', ''], rows, ['l', 'r', 'r', 'r', 'r', 'l']),
    )
  })
  parts.push(
    'run times in order, then their average (s):\n' +
      c.sets
        .map(
          (s, i) =>
            `  ${name(i)}: ${s.times.ordered.map((t) => num(t)).join(' ')} → ${s.times.mean === null ? '-' : num(s.times.mean)}`,
        )
        .join('\n'),
  )
  parts.push(`* significant at p < ${c.alpha}; ~ noisy: the runs vary by more than 5 % of their mean`)
  return parts.join('\n\n')
}

function cellRow(name: string, cell: CompareCell | null): string[] {
  if (!cell) return [name, '', '-', '', '', '']
  const value =
    cell.value === null
      ? '-'
      : meanCi({ n: cell.n, mean: cell.value, ci95: cell.ci95 ?? NaN }, { plain: (x) => num(x) })
  const diff = change(cell.diffPercent)
  const p = cell.p === null ? '' : cell.p < 0.0001 ? '<0.0001' : cell.p.toFixed(4)
  return [name, String(cell.n), value, diff, p, `${cell.significant ? '*' : ''}${cell.noisy ? '~' : ''}`]
}
