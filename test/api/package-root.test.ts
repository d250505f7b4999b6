// The lab's own files are found from the code's location, not the working directory: from the
// sources, from a build's main/ or main/chunks/, and not at all outside the package.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { packageRoot } from '../../src/main/services/package-root'

const root = join(import.meta.dirname, '../..')
const at = (p: string): string => pathToFileURL(join(root, p)).href

describe('packageRoot', () => {
  it('is the folder holding the lab’s package.json, from the sources or a build', () => {
    expect(packageRoot()).toBe(root)
    expect(packageRoot(at('src/main/services/gallery-entries.ts'))).toBe(root)
    expect(packageRoot(at('out/main/chunks/startup-repair-0.js'))).toBe(root)
    expect(packageRoot(at('out/main/cli.js'))).toBe(root)
  })

  it('skips other packages’ package.json and says so when there is none above', () => {
    expect(packageRoot(at('node_modules/zod/index.js'))).toBe(root)
    const dir = mkdtempSync(join(tmpdir(), 'iosched-root-'))
    try {
      expect(() => packageRoot(pathToFileURL(join(dir, 'x.js')).href)).toThrow(/no iosched-lab package\.json/)
    } finally {
      rmSync(dir, { recursive: true })
    }
  })
})
