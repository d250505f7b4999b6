import { parseBlkparseEvents, queueDispatchComplete, TraceParseError } from '../formats/blkparse'
import type { BlkparseEvent } from '../formats/blkparse-line'
import { parseBonnieCsv } from '../formats/bonnie-csv'
import { parseDd } from '../formats/dd'
import { parseFioDocuments } from '../formats/fio-json'
import { ImportError } from '../formats/import-error'
import { parseIozone } from '../formats/iozone'
import { parseKDiskMark } from '../formats/kdiskmark'
import { parseLmdd } from '../formats/lmdd'
import { parseVmstat } from '../formats/vmstat'
import { checkImportedRun } from './check-figures'
import { detectFormat } from './detect'
import { blkparseRuns, blkparseWorkload } from './from-blkparse'
import { bonnieRuns } from './from-bonnie'
import { ddRuns } from './from-dd'
import { fioRuns } from './from-fio'
import { iozoneRuns } from './from-iozone'
import { kdiskmarkRuns } from './from-kdiskmark'
import { lmddRuns } from './from-lmdd'
import { vmstatRuns } from './from-vmstat'
import type { ImportFormat, ImportOptions, ImportedFile } from './types'

/** What to call each format's tool when the file does not name its version. */
const TOOLS: Record<ImportFormat, string> = {
  'fio-json': 'fio',
  'bonnie-csv': 'bonnie++',
  dd: 'dd',
  lmdd: 'lmdd',
  iozone: 'iozone',
  vmstat: 'vmstat',
  kdiskmark: 'KDiskMark',
  blkparse: 'blkparse',
}

/**
 * Read one file's text: detect its format (unless given), parse it, and turn it into runs. Every
 * problem is an ImportError carrying the file, the line and the field.
 */
export function importText(
  text: string,
  file: string,
  options: ImportOptions & { format?: ImportFormat } = {},
): ImportedFile {
  try {
    const format = options.format ?? detectFormat(text, file)?.format
    if (!format)
      throw new ImportError(
        'unrecognised format: not fio JSON, bonnie++ CSV, dd, lmdd, iozone, vmstat, KDiskMark or blkparse output',
        1,
      )
    const out = (runs: ImportedFile['runs']): ImportedFile => {
      // the one check of every figure, whichever tool it came from
      for (const r of runs) checkImportedRun(r)
      return {
        file,
        format,
        tool: runs[0]?.run.imported?.tool ?? TOOLS[format],
        version: runs[0]?.run.imported?.version ?? null,
        runs,
      }
    }
    switch (format) {
      case 'fio-json':
        return out(fioRuns(parseFioDocuments(text, file), file, options))
      case 'bonnie-csv':
        return out(bonnieRuns(parseBonnieCsv(text), file, options))
      case 'dd':
        return out(ddRuns(parseDd(text), file, options))
      case 'lmdd':
        return out(lmddRuns(parseLmdd(text), file, options))
      case 'iozone':
        return out(iozoneRuns(parseIozone(text), file, options))
      case 'vmstat':
        return out(vmstatRuns(parseVmstat(text), file, options))
      case 'kdiskmark':
        return out(kdiskmarkRuns(parseKDiskMark(text), file, options))
      case 'blkparse': {
        const all = blkparseEvents(text)
        const events = queueDispatchComplete(all)
        if (events.length === 0) throw new ImportError('no Q, D or C events in the trace', 1)
        return { ...out(blkparseRuns(events, file, options, all)), workload: blkparseWorkload(events, text) }
      }
    }
  } catch (e) {
    if (e instanceof ImportError) e.file = file
    throw e
  }
}

function blkparseEvents(text: string): BlkparseEvent[] {
  try {
    return parseBlkparseEvents(text)
  } catch (e) {
    if (e instanceof TraceParseError)
      throw new ImportError(e.message.replace(/^line \d+: /, ''), e.line, e.field)
    throw e
  }
}

/**
 * Number the repetitions across files: runs with the same label and source, in file order, become
 * repetitions 0, 1, 2 … (five bonnie++ files imported under one label are five repetitions).
 */
export function numberRepetitions(files: readonly ImportedFile[]): void {
  const next = new Map<string, number>()
  for (const f of files)
    for (const { run } of f.runs) {
      const key = `${run.source}\u0000${run.label}`
      const k = next.get(key) ?? 0
      run.repetition = k
      next.set(key, k + 1)
    }
}
