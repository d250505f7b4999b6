// The start page's gallery of ready experiments: every `*.json` in the examples folder, read when asked.
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Example } from '../../shared/api/contract'

export async function loadExamples(folder: string): Promise<Example[]> {
  let names: string[]
  try {
    names = (await readdir(folder)).filter((n) => n.endsWith('.json')).sort()
  } catch {
    return []
  }
  const out: Example[] = []
  for (const n of names) {
    try {
      const spec = JSON.parse(await readFile(join(folder, n), 'utf8')) as Record<string, unknown>
      const id = n.slice(0, -'.json'.length)
      out.push({
        id,
        name: typeof spec.name === 'string' ? spec.name : id,
        description: typeof spec.description === 'string' ? spec.description : '',
        spec,
      })
    } catch {
      /* an unreadable example is left out; `iosched-lab run` on it says why */
    }
  }
  return out
}
