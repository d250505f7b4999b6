// Inputs and answers of the LabApi's library methods: search and compare the saved sessions,
// change a session's notes and tags, import tools' outputs, export results.
import type { ExperimentResult } from '../experiment/compare'
import type { RunResult } from '../experiment/result'
import type { ImportFormat, WorkloadSuggestion } from '../import/types'
import type { LibraryComparison, RunSetRef } from '../library/compare'
import type { LibraryQuery, LibrarySearchResult } from '../library/types'
import type { SessionInfo, SweepResult } from './contract'

export type {
  CompareCell,
  CompareMetric,
  CompareSetRow,
  LibraryComparison,
  RunSetRef,
} from '../library/compare'
export type {
  LibraryEntry,
  LibraryFacets,
  LibraryHit,
  LibraryProblem,
  LibraryQuery,
  LibrarySearchResult,
} from '../library/types'
export type { RunKind, RunSetFacts, SessionEnvironment, SessionHeader, SessionIndex } from '../session/types'

/** New notes, tags or name of a saved session (the rest of the file is kept). */
export interface SessionMetaInput {
  path: string
  name?: string
  notes?: string
  tags?: string[]
}

/** Run sets of any sessions, compared against `sets[baseline]` (default the first). */
export interface LibraryCompareInput {
  sets: RunSetRef[]
  baseline?: number
  /** Significance level (default 0.05). */
  alpha?: number
}

export type { LibraryComparison as LibraryCompareResult }

/** Files read in the app: their names and text, parsed by the lab's importers. */
export interface ImportFilesInput {
  files: { name: string; text: string }[]
  /** Skip format detection. */
  format?: ImportFormat
  /** What the files do not say: the runs' label, scheduler and device. */
  label?: string
  scheduler?: string
  device?: string
  /** Sampling interval of a vmstat log without timestamps, seconds. */
  intervalSeconds?: number
}

export interface ImportedFileRuns {
  file: string
  format: ImportFormat
  tool: string
  version: string | null
  /** Repetitions numbered across the files of one call (per label). */
  runs: RunResult[]
  /** A blkparse trace as a workload to replay. */
  workload?: WorkloadSuggestion
}

export interface ImportFilesResult {
  files: ImportedFileRuns[]
  /** Files that could not be read: `file: line N, field F: problem`. */
  errors: { file: string; message: string }[]
}

export type ReportFormat = 'html' | 'csv' | 'json' | 'text'

/** What is being worked on in the app, unsaved: exported as it stands. */
export interface SessionContentInput {
  name: string
  spec?: unknown
  result?: ExperimentResult | null
  sweep?: SweepResult | null
  runs?: RunResult[]
  notes?: string
  tags?: string[]
}

/** Export a saved session (`path`) or the work in the app (`session`). */
export type ExportReportInput =
  { format: ReportFormat; path: string } | { format: ReportFormat; session: SessionContentInput }

export interface ExportedReport {
  /** A file name for the download: the session's name and the format's extension. */
  fileName: string
  mime: string
  text: string
}

/** The library's methods (contract.ts's LabApi extends this). */
export interface LibraryLabApi {
  /** The library's sessions that match, each with its matching run sets; unreadable files with their errors. */
  librarySearch(input: LibraryQuery): Promise<LibrarySearchResult>
  /** Run sets of any sessions against a baseline set: difference in percent and significance. */
  libraryCompare(input: LibraryCompareInput): Promise<LibraryComparison>
  /** Change a saved session's name, notes or tags. */
  setSessionMeta(input: SessionMetaInput): Promise<SessionInfo>
  /** Read tools' outputs (fio, bonnie++, dd …) into runs to add to a session. */
  importFiles(input: ImportFilesInput): Promise<ImportFilesResult>
  /** A saved session or the work in the app as an HTML report, CSV, JSON or plain text. */
  exportReport(input: ExportReportInput): Promise<ExportedReport>
}

/** LibraryLabApi's methods as data (methods.ts merges them into the one list). */
export const LIBRARY_METHODS = {
  librarySearch: true,
  libraryCompare: true,
  setSessionMeta: true,
  importFiles: true,
  exportReport: true,
} as const satisfies Record<keyof LibraryLabApi, true>
