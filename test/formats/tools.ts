import { describe, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * Tests on the real outputs of benchmark tools, run here on temp files in a temp directory (never
 * on a device). A missing tool skips its tests with the reason — or fails them when
 * IOSCHED_REQUIRE_REAL=1 (CI installs fio and bonnie++).
 */
export const required = process.env.IOSCHED_REQUIRE_REAL === '1'

export const installed = (tool: string): boolean =>
  spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).status === 0

/** `optional`: skip even under IOSCHED_REQUIRE_REAL=1 (a tool CI does not install, like vmstat). */
export function describeWithTools(
  tools: string[],
  name: string,
  body: () => void,
  options: { optional?: boolean } = {},
): void {
  const missing = tools.filter((t) => !installed(t))
  if (missing.length === 0) {
    describe(name, body)
    return
  }
  const why = `not installed: ${missing.join(', ')}`
  if (required && !options.optional) {
    describe(name, () => {
      it('has its tools (IOSCHED_REQUIRE_REAL=1)', () => {
        throw new Error(`IOSCHED_REQUIRE_REAL=1 but ${why}`)
      })
    })
    return
  }
  console.warn(`skipping "${name}": ${why}`)
  describe.skip(`${name} (skipped: ${why})`, body)
}

/** A fresh temp directory and a function that deletes it. */
export function scratchDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

/** The error a function throws (fails when it throws none). */
export function thrown(f: () => unknown): Error {
  try {
    f()
  } catch (e) {
    return e as Error
  }
  throw new Error('expected an error')
}
