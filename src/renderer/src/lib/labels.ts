// How runs are named in the table and the charts: a simulated run by its scheduler entry's label,
// a real run (fio on a device) by the same label with "(real)", so "deadline" and "deadline (real)"
// stand side by side in one comparison. The data keeps the entry's label and `source`.

/** The row / series name of a run, a summary row or a job. */
export function shownLabel(x: { label: string; source?: string }): string {
  return x.source === 'real' ? `${x.label} (real)` : x.label
}

/**
 * Rows in the spec's order: each entry's simulated row, then its real one, for those present in
 * `items` (runs, summary rows or jobs). An entry with neither keeps its row (it failed or waits).
 */
export function orderedLabels(
  entries: readonly string[],
  items: readonly { label: string; source?: string }[],
): string[] {
  const out: string[] = []
  for (const e of entries) {
    const sim = items.some((i) => i.label === e && i.source !== 'real')
    const real = items.some((i) => i.label === e && i.source === 'real')
    if (sim || !real) out.push(e)
    if (real) out.push(`${e} (real)`)
  }
  return out
}
