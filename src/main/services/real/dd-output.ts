/** What dd says when it finishes (or is interrupted with SIGINT/SIGUSR1). */
export interface DdSummary {
  bytes: number
  seconds: number
  /** Records in/out: full and partial blocks (null when dd did not print them). */
  recordsIn: { full: number; partial: number } | null
  recordsOut: { full: number; partial: number } | null
}

const GNU = /(\d+) bytes(?: \([^)]*\))? copied, ([\d.,]+(?:e[-+]?\d+)?) s/
const BSD = /(\d+) bytes transferred in ([\d.,]+) secs/
const RECORDS = /(\d+)\+(\d+) records (in|out)/g

/**
 * Parse dd's summary: GNU (`N bytes (…) copied, S s, R MB/s`) or BSD (`N bytes transferred in S
 * secs (R bytes/sec)`), plus the `records in / records out` lines; the last summary wins (a
 * looping dd, or one signalled with SIGUSR1, prints several). Throws, naming the text, when there is none.
 */
export function parseDdOutput(text: string, source = 'dd output'): DdSummary {
  let last: RegExpExecArray | null = null
  for (const line of text.split('\n')) {
    const m = GNU.exec(line) ?? BSD.exec(line)
    if (m) last = m
  }
  if (!last) {
    const head = text.trim().split('\n').slice(-3).join(' / ')
    throw new Error(
      `${source}: no dd summary ("N bytes … copied, S s" or "N bytes transferred in S secs") in: "${head.slice(0, 300)}"`,
    )
  }
  const rec: Record<string, { full: number; partial: number }> = {}
  for (const m of text.matchAll(RECORDS)) rec[m[3]] = { full: Number(m[1]), partial: Number(m[2]) }
  return {
    bytes: Number(last[1]),
    seconds: Number(last[2].replace(',', '.')),
    recordsIn: rec.in ?? null,
    recordsOut: rec.out ?? null,
  }
}
