// The user's presets that hold a fingerprint (a measured sweep and the device to paste into a
// spec): those a validation can reuse instead of fingerprinting the device again.
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { FingerprintPreset, FingerprintPresets } from '../../../shared/api/real-contract'
import type { PresetDocument } from '../real/fingerprint'
import { residualSize } from '../real/fingerprint-sweep'

const MODELS: readonly string[] = ['virtual', 'flash', 'hdd']

/** The largest |residual| of a rate or a median over the sweep (as validate.ts judges it); null when none is recorded. */
function worstResidual(doc: PresetDocument): number | null {
  const rs = Object.values(doc.residuals ?? {})
  if (rs.length === 0) return null
  return Math.max(...rs.map(residualSize))
}

/** A preset file as a fingerprint a validation can reuse, or why it is not one. */
function fingerprintOf(path: string): FingerprintPreset | { why: string } {
  const doc = JSON.parse(readFileSync(path, 'utf8')) as Partial<PresetDocument>
  if (doc.schema !== 'iosched-lab/device-preset@1')
    return { why: 'not an iosched-lab/device-preset@1 document' }
  if (!doc.name || !doc.model || !MODELS.includes(doc.model))
    return { why: `needs "name" and a "model" of ${MODELS.join(', ')}` }
  if (!doc.measured?.target || !doc.specDevice) return { why: 'holds no fingerprint (no "measured" sweep)' }
  return {
    name: doc.name,
    model: doc.model,
    path,
    target: doc.measured.target.description,
    description: doc.description ?? '',
    worstResidual: worstResidual(doc as PresetDocument),
  }
}

/**
 * Every fingerprinted preset of the folder, by name. Files that are presets without a fingerprint
 * (written by hand) are left out silently; files that cannot be read are problems.
 */
export function fingerprintPresets(dir: string): FingerprintPresets {
  const presets: FingerprintPreset[] = []
  const problems: string[] = []
  if (!existsSync(dir)) return { presets, problems }
  for (const f of readdirSync(dir)
    .filter((x) => x.endsWith('.json'))
    .sort()) {
    const path = join(dir, f)
    try {
      const p = fingerprintOf(path)
      if ('name' in p) presets.push(p)
    } catch (e) {
      problems.push(`${path}: ${(e as Error).message}`)
    }
  }
  return { presets, problems }
}
