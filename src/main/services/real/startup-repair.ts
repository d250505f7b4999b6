import { readJournals } from './journal'
import { isRoot } from './prerequisites'
import { repairJournals } from './repair'

/** What the lab did at start with the journals of lab processes that are gone. */
export interface StartupRepairReport {
  root: boolean
  actions: string[]
  problems: string[]
  /** Journals that need root to replay (the app was started as a user). */
  pending: string[]
}

/**
 * Replay, at the start of the app or the browser host, the journals of lab processes that crashed
 * or were killed in the middle of a real run: their schedulers and tunables restored, their engines
 * stopped, their scratch loop devices detached. Without root nothing can be restored: the journals
 * are listed as pending (the next real run, through root, or `doctor` replays them). Never throws.
 */
export async function repairAtStart(stateDir: string): Promise<StartupRepairReport> {
  const out: StartupRepairReport = { root: isRoot(), actions: [], problems: [], pending: [] }
  try {
    if (!out.root) {
      for (const j of readJournals(stateDir)) {
        if (j.ownerAlive) continue
        const what = j.data
          ? [
              ...j.data.devices.map((d) => `${d.name} left on ${d.switchedTo} (was ${d.original.scheduler})`),
              ...j.data.loops.map((l) => `scratch loop device ${l.device ?? l.backingFile}`),
            ]
          : [`unreadable: ${j.error}`]
        out.pending.push(
          `a lab process that is gone (${j.data ? `pid ${j.data.owner.pid}` : j.path}) left ${what.join(', ') || 'its journal'}: repairing it needs root`,
        )
      }
      return out
    }
    for (const r of await repairJournals(stateDir)) {
      if (r.ownerAlive) continue
      out.actions.push(...r.actions.map((a) => `${a} (after ${r.owner} crashed)`))
      out.problems.push(...r.problems.map((p) => `${p} (journal ${r.journal})`))
    }
  } catch (e) {
    out.problems.push(`could not replay the journals in ${stateDir}: ${(e as Error).message}`)
  }
  return out
}
