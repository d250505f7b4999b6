// electron-builder.yml, parsed: the app packed in app.asar and the Electron fuses of the security
// checklist flipped.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { load } from 'js-yaml'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '../..')
const config = load(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as Record<string, unknown>
const fuses = config.electronFuses as Record<string, unknown>

/** FuseOptionsV1 of electron-builder 26 (its electronFuses option), from @electron/fuses. */
const KNOWN_FUSES = [
  'runAsNode',
  'enableCookieEncryption',
  'enableNodeOptionsEnvironmentVariable',
  'enableNodeCliInspectArguments',
  'enableEmbeddedAsarIntegrityValidation',
  'onlyLoadAppFromAsar',
  'loadBrowserProcessSpecificV8Snapshot',
  'grantFileProtocolExtraPrivileges',
  'resetAdHocDarwinSignature',
]

describe('electron-builder.yml', () => {
  it('packs the app in app.asar and loads it only from there, checked where Electron can', () => {
    expect(config.asar).not.toBe(false)
    expect(fuses.onlyLoadAppFromAsar).toBe(true)
    expect(fuses.enableEmbeddedAsarIntegrityValidation).toBe(true)
  })

  it('takes no NODE_OPTIONS and no --inspect arguments, and gives file:// no extra rights', () => {
    expect(fuses.enableNodeOptionsEnvironmentVariable).toBe(false)
    expect(fuses.enableNodeCliInspectArguments).toBe(false)
    expect(fuses.grantFileProtocolExtraPrivileges).toBe(false)
  })

  it('turns ELECTRON_RUN_AS_NODE off, and nothing of the app starts Electron in Node mode', () => {
    expect(fuses.runAsNode).toBe(false)
    for (const f of ['src/main/privileged-helper.ts', 'src/main/helper-mode.ts', 'src/main/app-main.ts'])
      expect(readFileSync(join(root, f), 'utf8'), f).not.toContain('ELECTRON_RUN_AS_NODE')
  })

  it('names only fuses electron-builder knows, each on or off', () => {
    for (const [name, value] of Object.entries(fuses)) {
      expect(KNOWN_FUSES, name).toContain(name)
      expect(typeof value, name).toBe('boolean')
    }
  })

  it('packs the built renderer that app:// serves', () => {
    expect(config.files).toContain('out/**')
  })
})
