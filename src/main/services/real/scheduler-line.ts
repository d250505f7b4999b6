/** `none [mq-deadline] kyber bfq` → the list and the bracketed, active one. */
export function parseSchedulerLine(line: string): { available: string[]; active: string | null } {
  const available: string[] = []
  let active: string | null = null
  for (const w of line.trim().split(/\s+/)) {
    if (!w) continue
    const m = /^\[(.+)\]$/.exec(w)
    if (m) active = m[1]
    available.push(m ? m[1] : w)
  }
  // A device with a single choice prints it without brackets ("none"): that one is active.
  if (active === null && available.length === 1) active = available[0]
  return { available, active }
}
