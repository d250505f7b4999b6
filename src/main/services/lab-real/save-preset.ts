// Saving a fitted fingerprint as a user preset, by this process (not the root backend) into the
// user's preset folder, atomically (a crash leaves the old file or the new one, never half of
// one), then registered so the catalogue lists it at once and a spec can name it.
import { join } from 'node:path'
import type { PresetDocument } from '../real/fingerprint'
import { writeFileAtomic } from '../library/atomic-write'
import { loadUserPresets } from '../user-presets'

/** Save `doc` as `DIR/NAME.json`; the folder's unreadable presets go to `notice`. Its path. */
export async function saveFingerprintPreset(
  dir: string,
  doc: PresetDocument,
  notice: (message: string) => void,
): Promise<string> {
  const path = join(dir, `${doc.name}.json`)
  await writeFileAtomic(path, JSON.stringify(doc, null, 2) + '\n')
  for (const p of loadUserPresets(dir).problems) notice(`ignoring device preset ${p}`)
  return path
}
