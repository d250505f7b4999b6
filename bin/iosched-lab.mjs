#!/usr/bin/env node
// The iosched-lab command: runs the TypeScript sources through tsx, so a checkout needs no build step.
import { register } from 'tsx/esm/api'

register()
const { main } = await import('../src/cli/main.ts')
try {
  process.exitCode = await main(process.argv.slice(2))
} catch (e) {
  process.stderr.write(
    `iosched-lab: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
  )
  process.exitCode = 70
}
