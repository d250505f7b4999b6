import { writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { runsCsv } from '../../shared/report/csv'
import { htmlReport } from '../../shared/report/html'
import { reportInput, ReportInputError } from '../../shared/report/input'
import { reportJson } from '../../shared/report/json'
import { mailingListText } from '../../shared/report/text'
import { readSessionDocument } from '../../shared/session/document'
import { isSweepDocument } from '../../shared/session/from-sweep'
import { SessionFormatError } from '../../shared/session/migrate'
import { sessionReportInput } from '../../shared/session/report-input'
import type { CliCommand } from '../command'
import { InputError, readJsonFile } from '../spec-file'

/** `iosched-lab report RESULT.json [--html|--csv|--text|--json] [-o FILE]`: export results. */
export const reportCommand: CliCommand = {
  name: 'report',
  usage: [
    'report RESULT.json [--html|--csv|--text|--json] [-o FILE]',
    '                                    export the output of run --json (or a session, a sweep, or import --json): a',
    '                                    plain-text table for a mailing list (default), a self-contained HTML',
    '                                    report with charts, one CSV row per run and process, or JSON',
  ],
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        html: { type: 'boolean' },
        csv: { type: 'boolean' },
        text: { type: 'boolean' },
        json: { type: 'boolean' },
        output: { type: 'string', short: 'o' },
      },
      allowPositionals: true,
    })
    if (positionals.length !== 1)
      throw new InputError([`report: expected one results file, got ${positionals.length}`])
    const chosen = (['html', 'csv', 'text', 'json'] as const).filter((k) => values[k])
    if (chosen.length > 1) throw new InputError([`report: choose one of --html, --csv, --text and --json`])
    const path = positionals[0]
    const doc = readJsonFile(path)
    let input
    try {
      // a sweep (`sweep`, `merge`) as the app opens it: each point's runs labelled with its value
      input = isSweepDocument(doc) ? sessionReportInput(readSessionDocument(doc)) : reportInput(doc)
    } catch (e) {
      if (e instanceof ReportInputError || e instanceof SessionFormatError)
        throw new InputError([`${path}: ${e.message}`])
      throw e
    }
    const format = chosen[0] ?? 'text'
    const out =
      format === 'html'
        ? htmlReport(input)
        : format === 'csv'
          ? runsCsv(input.runs)
          : format === 'json'
            ? reportJson(input) + '\n'
            : mailingListText(input)
    if (values.output !== undefined) {
      try {
        writeFileSync(values.output, out)
      } catch (e) {
        throw new InputError([`${values.output}: cannot write: ${(e as Error).message}`])
      }
      io.err(`wrote ${values.output}`)
    } else io.out(out.replace(/\n$/, ''))
    return 0
  },
}
