/**
 * What tracing a real run cost the machine: the kernel's block tracepoints are read line by line
 * by the lab (ftrace-capture.ts), and on a machine with few CPUs that reading competes with the
 * workload it observes. Measured on this 2-vCPU VM (Linux 6.18, scratch loop device, the
 * validation's reader beside a buffered 1 MiB writer, three alternating pairs): the reader made
 * 1.8–2.3 MB/s traced against 10.9–14.5 MB/s untraced, the writer 1.44–1.59 against 1.98–2.21
 * GB/s, and the CPUs were 1.7 busy against 1.0 — the trace's reading took what the reader's
 * wake-ups needed. The kernel's own recording, read by `cat` alone, left the reader as it was.
 */

/** From this share of the machine's CPUs the reading is said to slow a workload short of CPU. */
export const TRACE_COST_WARN = 0.1

export interface TraceCost {
  /** Lines read from the trace, and events the kernel dropped (its buffer was full). */
  events: number
  lost: number
  /** The lab's own CPU while it traced (reading and parsing the trace, mostly), s. */
  cpuSeconds: number
  /** How long it traced, s. */
  seconds: number
  cpus: number
}

/** The run's note on what its trace cost; null when it traced nothing. */
export function traceCostNote(c: TraceCost): string | null {
  if (!(c.seconds > 0) || c.events <= 0) return null
  const share = c.cpuSeconds / (c.seconds * Math.max(1, c.cpus))
  const rate = Math.round(c.events / c.seconds)
  const lost = c.lost > 0 ? `, ${c.lost} lost` : ''
  const took = `traced ${c.events} block events (${rate}/s${lost}); reading them took the lab ${c.cpuSeconds.toFixed(1)} CPU-seconds, ${Math.round(share * 100)} % of the machine's ${c.cpus} CPU${c.cpus === 1 ? '' : 's'} over the run`
  if (share < TRACE_COST_WARN) return took
  return `${took} — a workload short of CPU runs slower beside it (a reader next to a buffered writer made a fifth of its untraced rate on a 2-vCPU VM): \`--no-trace\` (or untraced in the app) measures without it`
}
