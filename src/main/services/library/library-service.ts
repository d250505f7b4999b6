// The library's side of the LabApi: search the saved sessions, compare run sets picked from any
// of them, change a session's notes and tags, import tools' outputs, export results. LabService
// delegates to this; the CLI's `sessions` command uses it too.
import { stat } from 'node:fs/promises'
import type { SessionInfo } from '../../../shared/api/contract'
import { ApiError } from '../../../shared/api/errors'
import type {
  ExportedReport,
  ExportReportInput,
  ImportFilesInput,
  ImportFilesResult,
  LibraryCompareInput,
  ReportFormat,
  SessionContentInput,
  SessionMetaInput,
} from '../../../shared/api/library-contract'
import { ImportError } from '../../../shared/formats/import-error'
import { importText, numberRepetitions } from '../../../shared/import/import-text'
import type { ImportedFile } from '../../../shared/import/types'
import { compareRunSets } from '../../../shared/library/compare'
import type { CompareSetInput, LibraryComparison } from '../../../shared/library/compare'
import { facetsOf, searchEntries } from '../../../shared/library/filter'
import type { LibraryQuery, LibrarySearchResult } from '../../../shared/library/types'
import { runsCsv } from '../../../shared/report/csv'
import { htmlReport } from '../../../shared/report/html'
import { ReportInputError } from '../../../shared/report/input'
import { reportJson } from '../../../shared/report/json'
import { mailingListText } from '../../../shared/report/text'
import { sessionReportInput } from '../../../shared/session/report-input'
import { findRunSet, sessionIndex } from '../../../shared/session/run-sets'
import { SESSION_SCHEMA } from '../../../shared/session/types'
import type { SessionDocument } from '../../../shared/session/types'
import { slugOf } from '../sessions'
import type { SessionStore } from '../sessions'
import { currentEnvironment } from './environment'

/** Whole sessions kept in memory for comparisons (by path, while the file is unchanged). */
const DOCUMENT_CACHE = 8

const FORMATS: Record<ReportFormat, { ext: string; mime: string }> = {
  html: { ext: 'html', mime: 'text/html;charset=utf-8' },
  csv: { ext: 'csv', mime: 'text/csv;charset=utf-8' },
  json: { ext: 'json', mime: 'application/json' },
  text: { ext: 'txt', mime: 'text/plain;charset=utf-8' },
}

export class LibraryService {
  private readonly docs = new Map<string, { size: number; mtimeMs: number; doc: SessionDocument }>()

  constructor(
    private readonly store: SessionStore,
    private readonly appVersion = '0',
  ) {}

  async search(query: LibraryQuery = {}): Promise<LibrarySearchResult> {
    const { entries, problems } = await this.store.scan()
    return {
      folder: this.store.folder,
      total: entries.length,
      hits: searchEntries(entries, query),
      problems,
      facets: facetsOf(entries),
    }
  }

  async compare(input: LibraryCompareInput): Promise<LibraryComparison> {
    const sets: CompareSetInput[] = []
    for (const ref of input.sets) {
      const doc = await this.document(ref.path)
      const set = findRunSet(doc, ref.set)
      if (!set)
        throw new ApiError('not-found', `${ref.path}: no run set "${ref.set}" in session “${doc.name}”`)
      sets.push({ ref, session: doc.name, facts: set.facts, runs: set.runs })
    }
    try {
      return compareRunSets(sets, input.baseline ?? 0, input.alpha ?? 0.05)
    } catch (e) {
      // a renaming the set cannot take, or no such baseline: the request's fault, said as such
      if (e instanceof RangeError) throw new ApiError('bad-input', e.message)
      throw e
    }
  }

  async setMeta(input: SessionMetaInput): Promise<SessionInfo> {
    const info = await this.store.setMeta(input)
    this.docs.delete(info.path)
    return info
  }

  /** Read each file; the ones that cannot be read are reported, the others become runs. */
  async importFiles(input: ImportFilesInput): Promise<ImportFilesResult> {
    const files: ImportedFile[] = []
    const errors: ImportFilesResult['errors'] = []
    for (const f of input.files) {
      try {
        files.push(
          importText(f.text, f.name, {
            format: input.format,
            label: input.label || undefined,
            scheduler: input.scheduler || undefined,
            device: input.device || undefined,
            vmstatIntervalSeconds: input.intervalSeconds,
          }),
        )
      } catch (e) {
        if (!(e instanceof ImportError)) throw e
        errors.push({ file: f.name, message: e.describe() })
      }
    }
    numberRepetitions(files)
    return {
      files: files.map((f) => ({
        file: f.file,
        format: f.format,
        tool: f.tool,
        version: f.version,
        runs: f.runs.map((r) => r.run),
        ...(f.workload ? { workload: f.workload } : {}),
      })),
      errors,
    }
  }

  async exportReport(input: ExportReportInput): Promise<ExportedReport> {
    const doc = 'path' in input ? await this.document(input.path) : this.documentOf(input.session)
    let report
    try {
      report = sessionReportInput(doc)
    } catch (e) {
      if (e instanceof ReportInputError) throw new ApiError('bad-input', e.message)
      throw e
    }
    const text =
      input.format === 'html'
        ? htmlReport(report)
        : input.format === 'csv'
          ? runsCsv(report.runs)
          : input.format === 'json'
            ? reportJson(report) + '\n'
            : mailingListText(report)
    const f = FORMATS[input.format]
    return { fileName: `${slugOf(doc.name)}.${f.ext}`, mime: f.mime, text }
  }

  /** A whole session, from memory while its file is unchanged. */
  async document(path: string): Promise<SessionDocument> {
    const abs = await this.store.locate(path)
    let st
    try {
      st = await stat(abs)
    } catch {
      throw new ApiError('not-found', `${abs}: no such file`)
    }
    const hit = this.docs.get(abs)
    if (hit && hit.size === st.size && hit.mtimeMs === st.mtimeMs) {
      this.docs.delete(abs)
      this.docs.set(abs, hit)
      return hit.doc
    }
    const doc = await this.store.open(abs)
    this.docs.set(abs, { size: st.size, mtimeMs: st.mtimeMs, doc })
    while (this.docs.size > DOCUMENT_CACHE) this.docs.delete(this.docs.keys().next().value!)
    return doc
  }

  /** The work in the app as a document, with this machine's environment. */
  private documentOf(s: SessionContentInput): SessionDocument {
    const content = { result: s.result ?? null, sweep: s.sweep ?? null, runs: s.runs ?? [] }
    return {
      schema: SESSION_SCHEMA,
      name: s.name,
      savedAt: new Date().toISOString(),
      app: this.appVersion,
      revision: 0,
      index: sessionIndex({ ...content, spec: s.spec }),
      notes: s.notes ?? '',
      tags: s.tags ?? [],
      environment: currentEnvironment(this.appVersion),
      spec: s.spec ?? null,
      ...content,
    }
  }
}
