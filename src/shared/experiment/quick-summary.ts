import type { ExperimentResult } from './compare'
import { groupProcesses } from './process-groups'
import { quickProcessName } from './quick-tests'
import type { QuickTestSet } from './quick-tests'

/** One scheduler's figures for one test: means over its repetitions (NaN: not measured). */
export interface QuickCell {
  readMBps: number
  writeMBps: number
  readIops: number
  writeIops: number
}

/** A row of the disk-mark-like summary: a test (a disk-mark set) or a profile's job. */
export interface QuickRow {
  test: string
  /** By column key (a scheduler label, `… (real)` for real runs). */
  cells: Record<string, QuickCell>
}

export interface QuickSummary {
  /** The columns: scheduler labels in the order they ran, real ones marked `(real)`. */
  columns: string[]
  rows: QuickRow[]
}

const mean = (xs: number[]): number => (xs.length === 0 ? NaN : xs.reduce((a, x) => a + x, 0) / xs.length)

/**
 * Whether a fio job reads and whether it writes, by its `rw=` (fio's default: read): `read`,
 * `randread`; `write`, `randwrite`, `trimwrite`; both for `rw`, `readwrite`, `randrw` (fio(1), rw).
 */
export function directions(rw: unknown): { read: boolean; write: boolean } {
  const m = typeof rw === 'string' ? rw : 'read'
  const both = /^(rand)?rw$/.test(m)
  return { read: both || m.includes('read'), write: both || m.includes('write') }
}

/**
 * The disk-mark view of a quick-test experiment (rows: tests, columns per scheduler: read MB/s,
 * write MB/s, IOPS), as KDiskMark shows them: a disk-mark set is one row, its `… read` process
 * giving the read figures and its `… write` process the write ones; a profile gives a row per
 * job, each with what it read and wrote (NaN for a direction it does not do). Rates are a process's bytes over its own time (fio's
 * instances folded: their bytes add up), MB = 10^6 bytes; means over the repetitions.
 */
export function quickSummary(
  sets: readonly QuickTestSet[],
  result: Pick<ExperimentResult, 'runs'> & { spec?: Pick<ExperimentResult['spec'], 'schedulers'> },
): QuickSummary {
  const key = (r: { label: string; source: string }): string =>
    r.source === 'real' ? `${r.label} (real)` : r.label
  // in the spec's order (runs arrive as they finish), each scheduler's real column after its simulated one
  const order = result.spec?.schedulers.map((s) => s.label) ?? []
  const rank = (r: { label: string; source: string }): number => {
    const i = order.indexOf(r.label)
    return (i < 0 ? order.length : i) * 2 + (r.source === 'real' ? 1 : 0)
  }
  const columns: string[] = []
  for (const r of [...result.runs].sort((a, b) => rank(a) - rank(b)))
    if (!columns.includes(key(r))) columns.push(key(r))
  const runs = result.runs.map(groupProcesses)
  const figures = (col: string, proc: string): QuickCell => {
    const ps = runs
      .filter((r) => key(r) === col)
      .map((r) => r.processes.find((p) => p.name === proc))
      .filter((p) => p !== undefined && p.seconds > 0)
    // a process's operations split by its bytes (each fio job here moves blocks of one size)
    const ops = (p: (typeof ps)[number], b: number): number => (p!.bytes > 0 ? (p!.ops * b) / p!.bytes : 0)
    return {
      readMBps: mean(ps.map((p) => p!.readBytes / 1e6 / p!.seconds)),
      writeMBps: mean(ps.map((p) => p!.writeBytes / 1e6 / p!.seconds)),
      readIops: mean(ps.map((p) => ops(p, p!.readBytes) / p!.seconds)),
      writeIops: mean(ps.map((p) => ops(p, p!.writeBytes) / p!.seconds)),
    }
  }
  const rows: QuickRow[] = []
  for (const set of sets) {
    if (set.kind === 'diskmark') {
      const cells: Record<string, QuickCell> = {}
      for (const c of columns) {
        const rd = figures(c, quickProcessName(set, 'read'))
        const wr = figures(c, quickProcessName(set, 'write'))
        if (Number.isNaN(rd.readMBps) && Number.isNaN(wr.writeMBps)) continue
        cells[c] = {
          readMBps: rd.readMBps,
          writeMBps: wr.writeMBps,
          readIops: rd.readIops,
          writeIops: wr.writeIops,
        }
      }
      rows.push({ test: set.title, cells })
    } else
      for (const job of set.jobs) {
        const cells: Record<string, QuickCell> = {}
        for (const c of columns) {
          const f = figures(c, quickProcessName(set, job.name))
          if (Number.isNaN(f.readMBps)) continue
          // a direction the job does not do is not measured (–), not a rate of 0
          const d = directions(job.params.rw)
          cells[c] = {
            readMBps: d.read ? f.readMBps : NaN,
            writeMBps: d.write ? f.writeMBps : NaN,
            readIops: d.read ? f.readIops : NaN,
            writeIops: d.write ? f.writeIops : NaN,
          }
        }
        rows.push({ test: quickProcessName(set, job.name), cells })
      }
  }
  return { columns, rows }
}
