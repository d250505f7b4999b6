import { processGroupMembers } from './proc-identity'

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

/** Is any process of the group still there? */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0)
    return processGroupMembers(pgid).length > 0
  } catch {
    return false
  }
}

/**
 * End a whole process group: `signal` first (fio stops its jobs cleanly on SIGTERM/SIGINT), then
 * SIGKILL after `graceMs`; resolves once no member is left (or after a final SIGKILL wait).
 */
export async function killGroup(
  pgid: number,
  signal: NodeJS.Signals = 'SIGTERM',
  graceMs = 3000,
): Promise<boolean> {
  const send = (s: NodeJS.Signals): void => {
    try {
      process.kill(-pgid, s)
    } catch {
      // already gone
    }
  }
  if (!groupAlive(pgid)) return true
  send(signal)
  for (let t = 0; t < graceMs && groupAlive(pgid); t += 50) await sleep(50)
  if (!groupAlive(pgid)) return true
  send('SIGKILL')
  for (let t = 0; t < 5000 && groupAlive(pgid); t += 50) await sleep(50)
  return !groupAlive(pgid)
}
