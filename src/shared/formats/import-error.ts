/**
 * The one error every importer throws for input it cannot read: where (a 1-based line, and the
 * field when there is one) and what is wrong. Anything else escaping an importer is a bug — the
 * fuzz tests feed every importer random bytes and truncated files to keep it so.
 */
export class ImportError extends Error {
  /** The file, once the import layer knows it (parsers work on text alone). */
  file: string | null = null

  constructor(
    /** What is wrong, without the position. */
    readonly problem: string,
    /** 1-based line of the input. */
    readonly line: number,
    /** The field (column, key or JSON path) when the problem is in one, else null. */
    readonly field: string | null = null,
  ) {
    super(formatPosition(line, field, problem))
    this.name = 'ImportError'
  }

  /** `FILE: line N, field F: problem`, or without the file when it is not known. */
  describe(): string {
    const where = formatPosition(this.line, this.field, this.problem)
    return this.file === null ? where : `${this.file}: ${where}`
  }
}

function formatPosition(line: number, field: string | null, problem: string): string {
  return `line ${line}${field === null ? '' : `, field ${field}`}: ${problem}`
}

/** Text shown in an error message: at most `max` characters of `s`, quoted. */
export function quote(s: string, max = 60): string {
  return JSON.stringify(s.length > max ? `${s.slice(0, max)}…` : s)
}

/** The input split into lines, as the importers number them (CRLF and CR line ends accepted). */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\n/)
}

/** A decimal number as tools print it, with a point or a comma (locales) as the decimal mark. */
export function parseDecimal(s: string): number {
  const t = s.trim()
  if (!/^[-+]?(\d+([.,]\d*)?|[.,]\d+)([eE][-+]?\d+)?$/.test(t)) return NaN
  return Number(t.replace(',', '.'))
}
