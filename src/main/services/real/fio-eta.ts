/** fio's progress line (`--eta=always --eta-newline=1`), e.g.
 *  `Jobs: 2 (f=2): [W(1),R(1)][60.0%][r=2760MiB/s,w=1038MiB/s][r=22.1k,w=1037 IOPS][eta 00m:02s]` */
export interface EtaStatus {
  jobs: number
  /** Job states: one letter per job (R read, W write, M mixed, _ done, P setup …). */
  states: string
  /** 0 … 1, or null while fio cannot tell (`-.-%`). */
  fraction: number | null
  etaSeconds: number | null
  /** `r=…,w=…` as fio prints it. */
  rates: string
}

const LINE =
  /Jobs: (\d+) \(f=\d+\)(?:: \[([^\]]*)\]\[(-\.-|[\d.]+)%\](?:\[([^\]]*)\])?(?:\[[^\]]*IOPS\])?\[eta ([^\]]+)\])?/

/** Seconds from fio's `[d:]hh:mm:ss`-like ETA (`01h:02m:03s`, `00m:02s`, `1d:…`). */
export function parseEtaDuration(s: string): number | null {
  const m = /^(?:(\d+)d:)?(?:(\d+)h:)?(?:(\d+)m:)?(\d+)s$/.exec(s.trim())
  if (!m) return null
  return Number(m[1] ?? 0) * 86400 + Number(m[2] ?? 0) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4])
}

/** Parse one ETA line (null for anything else). */
export function parseEtaLine(line: string): EtaStatus | null {
  const m = LINE.exec(line)
  if (!m) return null
  return {
    jobs: Number(m[1]),
    states: m[2] ?? '',
    fraction: m[3] === undefined || m[3] === '-.-' ? null : Math.min(1, Number(m[3]) / 100),
    etaSeconds: m[5] === undefined ? null : parseEtaDuration(m[5]),
    rates: m[4] ?? '',
  }
}

/** fio separates ETA updates by \r and \n: split a chunk of its stdout into lines, keeping the rest. */
export class LineSplitter {
  private rest = ''
  push(chunk: string): string[] {
    const parts = (this.rest + chunk).split(/[\r\n]+/)
    this.rest = parts.pop() ?? ''
    return parts.filter((p) => p.trim() !== '')
  }
  flush(): string[] {
    const r = this.rest.trim()
    this.rest = ''
    return r ? [r] : []
  }
}
