// Chromium for the end-to-end tests: Debian's, driven by playwright-core. Missing, the tests say so
// and skip — unless IOSCHED_REQUIRE_E2E=1 (CI sets it), then they fail.
import { existsSync } from 'node:fs'
import { chromium } from 'playwright-core'
import type { Browser } from 'playwright-core'
import { join } from 'node:path'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const REQUIRED = process.env.IOSCHED_REQUIRE_E2E === '1'
export const RESULTS = join(import.meta.dirname, '../../test-results')

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

/** Whether to run: true when Chromium is there; throws when it is not but required. */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true
  const why = `Chromium not found at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`
  if (REQUIRED) throw new Error(`${why}; IOSCHED_REQUIRE_E2E=1 makes this a failure`)
  console.warn(`end-to-end tests skipped: ${why}`)
  return false
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true })
}
