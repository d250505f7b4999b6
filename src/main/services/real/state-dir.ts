import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * Where the lab keeps state that must outlive a crash (the journal of switched devices):
 * IOSCHED_LAB_STATE_DIR, else $XDG_STATE_HOME/iosched-lab, else ~/.local/state/iosched-lab.
 */
export function labStateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.IOSCHED_LAB_STATE_DIR) return env.IOSCHED_LAB_STATE_DIR
  const xdg = env.XDG_STATE_HOME
  return join(xdg && xdg.startsWith('/') ? xdg : join(homedir(), '.local/state'), 'iosched-lab')
}

/** Where scratch loop devices' backing files go: IOSCHED_LAB_SCRATCH_DIR, else the temp directory. */
export function scratchParentDir(): string {
  return process.env.IOSCHED_LAB_SCRATCH_DIR || tmpdir()
}

/** Prefix of every scratch directory the lab creates (repair deletes only directories named so). */
export const SCRATCH_PREFIX = 'iosched-lab-scratch-'

/** Prefix of the lab's working directories for job files and reports. */
export const RUN_PREFIX = 'iosched-lab-run-'
