// Where the lab's own files are (gallery/, examples/, package.json, out/): found from the code's
// location, so it holds from the TypeScript sources (src/main/services), from a build (out/main,
// its chunks/, a packaged app's asar) and from an installed package — whatever the working directory.
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const NAME = 'iosched-lab'

const isLabPackage = (dir: string): boolean => {
  const file = join(dir, 'package.json')
  if (!existsSync(file)) return false
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === NAME
  } catch {
    return false
  }
}

/** The nearest folder above `from` (a module's URL) holding the lab's package.json. */
export function packageRoot(from: string = import.meta.url): string {
  const start = dirname(fileURLToPath(from))
  for (let dir = start; ; dir = dirname(dir)) {
    if (isLabPackage(dir)) return dir
    if (dirname(dir) === dir) throw new Error(`no ${NAME} package.json in ${start} or above it`)
  }
}
