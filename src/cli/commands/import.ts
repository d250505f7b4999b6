import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { ImportError } from '../../shared/formats/import-error'
import { importText, numberRepetitions } from '../../shared/import/import-text'
import type { ImportFormat, ImportOptions, ImportedFile, ImportedRun } from '../../shared/import/types'
import type { CliCommand } from '../command'
import { InputError } from '../spec-file'
import { num, renderTable } from '../table'
import { addToSession } from '../import-session'

const FORMATS: readonly ImportFormat[] = [
  'fio-json',
  'bonnie-csv',
  'dd',
  'lmdd',
  'iozone',
  'vmstat',
  'kdiskmark',
  'blkparse',
]

/** `iosched-lab import FILE… [--json]`: read tools' outputs and print the runs they become. */
export const importCommand: CliCommand = {
  name: 'import',
  usage: [
    'import FILE… [--json]               read fio JSON, bonnie++ CSV, dd, lmdd, iozone, vmstat, KDiskMark or',
    '      [--format F] [--label L]      blkparse output and print each run it holds, the figures with their units',
    '      [--scheduler S] [--device D] [--interval S]   (what the files do not say; vmstat interval, s)',
    '      [--session NAME] [--library DIR]  and add the runs to a session (a library name or a file; made if missing)',
  ],
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        json: { type: 'boolean' },
        format: { type: 'string' },
        label: { type: 'string' },
        scheduler: { type: 'string' },
        device: { type: 'string' },
        interval: { type: 'string' },
        session: { type: 'string' },
        library: { type: 'string' },
      },
      allowPositionals: true,
    })
    if (positionals.length === 0) throw new InputError(['import: expected one or more files'])
    const format = values.format as ImportFormat | undefined
    if (format !== undefined && !FORMATS.includes(format))
      throw new InputError([`import: --format expects one of ${FORMATS.join(', ')}, got "${values.format}"`])
    const interval = values.interval === undefined ? undefined : Number(values.interval)
    if (interval !== undefined && !(interval > 0))
      throw new InputError([`import: --interval expects seconds > 0, got "${values.interval}"`])
    const options: ImportOptions & { format?: ImportFormat } = {
      format,
      label: values.label,
      scheduler: values.scheduler,
      device: values.device,
      vmstatIntervalSeconds: interval,
    }
    const files: ImportedFile[] = []
    let failed = false
    for (const path of positionals) {
      let text: string
      try {
        text = readFileSync(path, 'utf8')
      } catch (e) {
        const err = e as NodeJS.ErrnoException
        io.err(`${path}: cannot read: ${err.code === 'ENOENT' ? 'no such file' : err.message}`)
        failed = true
        continue
      }
      try {
        files.push(importText(text, path, options))
      } catch (e) {
        if (!(e instanceof ImportError)) throw e
        io.err(e.describe())
        failed = true
      }
    }
    numberRepetitions(files)
    if (values.session !== undefined && files.length > 0)
      await addToSession(values.session, values.library, files, io)
    if (values.json) io.out(JSON.stringify(jsonDocument(files), null, 2))
    else if (files.length > 0) io.out(files.map(describeFile).join('\n\n'))
    return failed ? 2 : 0
  },
}

/** The `import --json` document: per file, its format and runs (RunResult, docs/run-json.md). */
export function jsonDocument(files: ImportedFile[]) {
  return {
    schema: 'iosched-lab/import@1',
    files: files.map((f) => ({
      file: f.file,
      format: f.format,
      tool: f.tool,
      version: f.version,
      runs: f.runs.map((r) => r.run),
      metrics: f.runs.map((r) => r.metrics),
      ...(f.workload ? { workload: f.workload } : {}),
    })),
  }
}

function describeFile(f: ImportedFile): string {
  const head = `${f.file}: ${f.tool}${f.version ? ` ${f.version}` : ''} (${f.format}), ${f.runs.length} run${f.runs.length === 1 ? '' : 's'}`
  const parts = [head, ...f.runs.map((r) => describeRun(r))]
  if (f.workload)
    parts.push(
      `replays as a workload: {"name": "${f.workload.name}", "type": "${f.workload.type}", "params": {"trace": …}}`,
    )
  return parts.join('\n\n')
}

const value = (v: number | null): string =>
  v === null || !Number.isFinite(v) ? 'not measured' : Number.isInteger(v) ? String(v) : num(v, 4)

function describeRun({ run, metrics }: ImportedRun): string {
  const lines = [
    `run "${run.label}" #${run.repetition + 1} — scheduler ${run.scheduler}, device ${run.device}, ${num(run.seconds, 4)} s`,
  ]
  if (metrics.length > 0)
    lines.push(
      indent(
        renderTable(
          ['figure', 'value', 'unit'],
          metrics.map((m) => [m.name, value(m.value), m.unit]),
          ['l', 'r', 'l'],
        ),
      ),
    )
  if (run.processes.length > 0) {
    lines.push(
      indent(
        renderTable(
          ['process', 'bytes', 'MB/s', 's', 'ops', 'p50 ms', 'p99 ms', 'max ms'],
          run.processes.map((p) => [
            p.name,
            String(p.bytes),
            num(p.MBps, 4),
            num(p.seconds, 4),
            String(p.ops),
            num(p.latencyMs.p50),
            num(p.latencyMs.p99),
            num(p.latencyMs.max),
          ]),
          ['l'],
        ),
      ),
    )
    const phases = run.processes.flatMap((p) => (p.phases ?? []).map((ph) => ({ p: p.name, ph })))
    if (phases.length > 0)
      lines.push(
        indent(
          renderTable(
            ['phase', 'bytes', 'ops', 's', 'MB/s', 'ops/s', 'CPU s'],
            phases.map(({ ph }) => [
              ph.name,
              String(ph.bytes),
              String(ph.ops),
              num(ph.seconds, 4),
              ph.bytes > 0 ? num(ph.bytes / 1e6 / ph.seconds, 4) : '-',
              num(ph.ops / ph.seconds, 4),
              num(ph.cpuSeconds),
            ]),
            ['l'],
          ),
        ),
      )
  }
  const t = run.totals
  lines.push(
    indent(
      `totals: read ${num(t.readMBps, 4)} MB/s, write ${num(t.writeMBps, 4)} MB/s` +
        (t.requests > 0 ? `, ${t.requests} requests, utilisation ${num(t.utilisation * 100)} %` : '') +
        (run.timeSeries.tMs.length > 0
          ? `; time series: ${run.timeSeries.tMs.length} intervals of ${num(run.timeSeries.intervalMs)} ms`
          : ''),
    ),
  )
  for (const n of run.imported?.notes ?? []) lines.push(indent(`note: ${n}`))
  return lines.join('\n')
}

const indent = (s: string): string =>
  s
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n')
