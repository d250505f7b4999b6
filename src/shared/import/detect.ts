import { looksLikeBonnieCsv } from '../formats/bonnie-csv'
import { isDdSummary } from '../formats/dd'
import { hasIozoneHeader } from '../formats/iozone'
import { isKDiskMark } from '../formats/kdiskmark'
import { isLmddSummary } from '../formats/lmdd'
import { isVmstatHeader } from '../formats/vmstat'
import { splitLines } from '../formats/import-error'
import type { ImportFormat } from './types'

export interface Detection {
  format: ImportFormat
  /** Which rule matched, for the user. */
  reason: string
}

const BLKPARSE_EVENT = /^\s*\d+,\d+\s+\d+\s+\d+\s+\d+\.\d+\s+\d+\s+[A-Z]{1,2}\s/

/**
 * The format of a tool's output, from its content first — each tool's unmistakable marks, most
 * specific first — and from the file name only when the content says nothing (so that the
 * parser's error can then say what is missing). Null when neither tells.
 */
export function detectFormat(text: string, fileName = ''): Detection | null {
  const head = text.slice(0, 1 << 16)
  const lines = splitLines(text)
  const some = (f: (l: string) => boolean): boolean => lines.some(f)
  if (/"fio version"\s*:/.test(head))
    return { format: 'fio-json', reason: 'a JSON document with "fio version"' }
  if (isKDiskMark(text))
    return { format: 'kdiskmark', reason: 'KDiskMark banner or [Read]/[Write] test lines' }
  if (
    /^format_version,bonnie_version,/m.test(head) ||
    some((l) => looksLikeBonnieCsv(l.trim()) && l.split(',').length >= 14)
  )
    return { format: 'bonnie-csv', reason: 'a bonnie++ CSV line (1.03 or 1.9x layout)' }
  if (/Iozone: Performance Test of File I\/O/.test(head) || hasIozoneHeader(text))
    return { format: 'iozone', reason: 'iozone banner or its "kB reclen write rewrite …" header' }
  if (some(isVmstatHeader)) return { format: 'vmstat', reason: 'vmstat\'s "r b swpd free … bi bo" header' }
  if (some((l) => BLKPARSE_EVENT.test(l)))
    return { format: 'blkparse', reason: 'blkparse event lines "maj,min cpu seq time pid action …"' }
  if (some((l) => isLmddSummary(l)))
    return { format: 'lmdd', reason: 'an lmdd "X MB in S secs, R MB/sec" line' }
  if (some((l) => isDdSummary(l.split('\r').pop() ?? '') || / records (in|out)\s*$/.test(l)))
    return { format: 'dd', reason: 'a dd "records in/out" or "bytes … copied/transferred" line' }
  const name = fileName.toLowerCase().split(/[\\/]/).pop() ?? ''
  const byName: [RegExp, ImportFormat][] = [
    [/\.json$|fio/, 'fio-json'],
    [/kdiskmark|diskmark/, 'kdiskmark'],
    [/bonnie/, 'bonnie-csv'],
    [/iozone/, 'iozone'],
    [/vmstat/, 'vmstat'],
    [/blk|trace/, 'blkparse'],
    [/lmdd/, 'lmdd'],
    [/\bdd\b|^dd/, 'dd'],
  ]
  for (const [re, format] of byName)
    if (re.test(name)) return { format, reason: `nothing in the content; the file name "${name}"` }
  return null
}
