import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { findDevicePreset, registerDevicePreset } from '../../shared/devices/registry'
import { labStateDir } from './real/state-dir'

/**
 * Where a user's device presets live (`iosched-lab fingerprint` saves there by default): beside
 * the sessions in $IOSCHED_LAB_HOME (the folder sessions.ts's defaultLibraryFolder honours), else
 * in the state folder (labStateDir: $IOSCHED_LAB_STATE_DIR, $XDG_STATE_HOME/iosched-lab …).
 */
export function userPresetDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.IOSCHED_LAB_HOME || labStateDir(env), 'presets')
}

/**
 * Register every preset file of the user's preset folder (`iosched-lab/device-preset@1`: a model,
 * the built-in preset it starts from, and its own values), so a spec can name it like a built-in
 * one. A file that cannot be used is reported, not fatal.
 */
export function loadUserPresets(dir = userPresetDir()): { loaded: string[]; problems: string[] } {
  const loaded: string[] = []
  const problems: string[] = []
  if (!existsSync(dir)) return { loaded, problems }
  for (const f of readdirSync(dir)
    .filter((x) => x.endsWith('.json'))
    .sort()) {
    const path = join(dir, f)
    try {
      const doc = JSON.parse(readFileSync(path, 'utf8')) as {
        schema?: string
        name?: string
        model?: string
        basePreset?: string
        description?: string
        values?: Record<string, number | boolean | string>
        sources?: Record<string, string>
      }
      if (doc.schema !== 'iosched-lab/device-preset@1')
        throw new Error('not an iosched-lab/device-preset@1 document')
      if (!doc.name || !doc.model) throw new Error('needs "name" and "model"')
      const base = doc.basePreset ? findDevicePreset(doc.basePreset) : undefined
      if (doc.basePreset && !base) throw new Error(`unknown base preset "${doc.basePreset}"`)
      registerDevicePreset({
        name: doc.name,
        model: doc.model,
        description: doc.description ?? `a user preset (${f})`,
        values: { ...(base?.values ?? {}), ...(doc.values ?? {}) },
        sources: { ...(doc.sources ?? {}) },
      })
      loaded.push(doc.name)
    } catch (e) {
      problems.push(`${path}: ${(e as Error).message}`)
    }
  }
  return { loaded, problems }
}
