// npm run -s bench:hash [-- --only TEXT] [-- --out FILE] [-- --compare FILE] [-- --no-why]
// A fingerprint of the simulator's results, to show an optimisation changed nothing: every gallery
// entry's runs (each variant, each sweep value, each scheduler, the first repetition), every
// example, and the bench's cases at their quick sizes, each simulated with the why, the result's
// JSON hashed (SHA-256). Prints one line per run and the hash of them all; `--out` saves the lines,
// `--compare` reads such a file and names the runs whose results differ (exit status 1).
// `--no-why`: each simulated without the why (RunHooks.why), the way a run that does without it goes.
import { createHash } from 'node:crypto'
import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { loadGalleryEntry, listGallery, specsOf } from '../src/main/services/gallery-entries'
import { resolveSpec } from '../src/shared/experiment/validate'
import { simulate } from '../src/shared/experiment/runner'
import { benchCases } from './cases'

const argv = process.argv.slice(2)
const option = (name: string): string | undefined => {
  const i = argv.indexOf(name)
  return i >= 0 ? argv[i + 1] : undefined
}
const only = option('--only')
const out = option('--out')
const compare = option('--compare')
const why = !argv.includes('--no-why')

/** Every spec to hash, named. */
function specs(): { name: string; doc: unknown }[] {
  const all: { name: string; doc: unknown }[] = []
  for (const { name } of listGallery()) {
    for (const v of loadGalleryEntry(name).entry.variants)
      for (const { spec, value } of specsOf(v))
        all.push({
          name: `gallery ${name} ${v.id}${value === undefined ? '' : `=${String(value)}`}`,
          doc: spec,
        })
  }
  const examples = new URL('../examples/', import.meta.url)
  for (const f of readdirSync(examples)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const doc = JSON.parse(readFileSync(new URL(f, examples), 'utf8'))
    if (doc && typeof doc === 'object' && 'workload' in doc) all.push({ name: `example ${f}`, doc })
  }
  for (const c of benchCases(true))
    if (!c.name.startsWith('memory'))
      all.push({ name: `bench ${c.name} ${c.scheduler} ${c.device}`, doc: c.spec })
  return all
}

const lines: string[] = []
const total = createHash('sha256')
for (const { name, doc } of specs()) {
  if (only && !name.includes(only)) continue
  const spec = resolveSpec(doc)
  spec.schedulers.forEach((s, i) => {
    const line = `${name} ${s.label ?? s.name} ${createHash('sha256')
      .update(JSON.stringify(simulate(spec, i, 0, { why })))
      .digest('hex')
      .slice(0, 16)}`
    total.update(line + '\n')
    lines.push(line)
    console.log(line)
  })
}
console.log(`all ${lines.length} runs: ${total.digest('hex').slice(0, 16)}`)
if (out) writeFileSync(out, lines.join('\n') + '\n')
if (compare) {
  const before = new Map(
    readFileSync(compare, 'utf8')
      .trim()
      .split('\n')
      .map((l) => [l.slice(0, l.lastIndexOf(' ')), l.slice(l.lastIndexOf(' ') + 1)] as const),
  )
  const differ = lines.filter((l) => {
    const was = before.get(l.slice(0, l.lastIndexOf(' ')))
    return was !== undefined && was !== l.slice(l.lastIndexOf(' ') + 1)
  })
  for (const l of differ) console.log(`differs from ${compare}: ${l}`)
  console.log(
    differ.length ? `${differ.length} runs differ` : `every run compared is identical to ${compare}`,
  )
  if (differ.length) process.exitCode = 1
}
