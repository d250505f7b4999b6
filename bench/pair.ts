// npm run -s bench:pair -- OTHER_CHECKOUT [--pairs N] [--full] [--only TEXT] [--no-why] [--b-no-why]
// Before/after figures on a noisy machine: each bench case (bench/cases.ts, quick sizes unless
// --full) from this checkout (A) and another (B, e.g. `git worktree add ../base <commit>` with
// node_modules linked) loaded into one process and run alternately, A B B A A B …, the CPU time
// of each run taken from process.cpuUsage. The figure is the median over pairs of B's CPU time ÷
// A's — A's speed relative to B (1.10 = A 10 % faster) — with the range: pairing in one process
// cancels the drift of a shared VM that separate processes minutes apart do not. Figures only.
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const argv = process.argv.slice(2)
const option = (name: string): string | undefined => {
  const i = argv.indexOf(name)
  return i >= 0 ? argv[i + 1] : undefined
}
const other = argv[0]
if (!other || other.startsWith('--')) {
  console.error('usage: npm run -s bench:pair -- OTHER_CHECKOUT [--pairs N] [--full] [--only TEXT]')
  process.exit(2)
}
const pairs = Math.max(2, Number(option('--pairs') ?? 6) || 6)
const quick = !argv.includes('--full')
const only = option('--only')
// `--no-why`: this checkout's runs without the why (RunHooks.why); `--b-no-why`: the other's (a
// checkout from before the why ignores the hook). `--b-no-why` with OTHER_CHECKOUT = this one
// prices the why alone.
const whyA = !argv.includes('--no-why')
const whyB = !argv.includes('--b-no-why')

interface Side {
  names: string[]
  run(index: number): number
}

/** One checkout's bench cases, resolved, and a function that runs one and returns its CPU seconds. */
async function load(root: string, why: boolean): Promise<Side> {
  const at = (p: string): string => pathToFileURL(resolve(root, p)).href
  const { resolveSpec } = await import(at('src/shared/experiment/validate.ts'))
  const { simulate } = await import(at('src/shared/experiment/runner.ts'))
  const { benchCases } = await import(at('bench/cases.ts'))
  const cases = benchCases(quick) as {
    name: string
    scheduler: string
    device: string
    spec: unknown
    measure?: string
  }[]
  const specs = cases.map((c) => resolveSpec(c.spec))
  return {
    names: cases.map((c) => `${c.name} ${c.scheduler} ${c.device}`),
    run(index: number): number {
      const t = process.cpuUsage()
      // a time case runs every scheduler of its spec; a rate case its one
      const n = cases[index].measure === 'cpuSeconds' ? specs[index].schedulers.length : 1
      for (let s = 0; s < n; s++) simulate(specs[index], s, 0, { why })
      const u = process.cpuUsage(t)
      return (u.user + u.system) / 1e6
    },
  }
}

const a = await load(resolve(import.meta.dirname, '..'), whyA)
const b = await load(other, whyB)
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined)
console.log(
  `A: this checkout${whyA ? '' : ' without the why'}; B: ${other}${whyB ? '' : ' without the why'}; ` +
    `${pairs} pairs per case, ${quick ? 'quick' : 'full'} sizes`,
)
for (const [i, name] of a.names.entries()) {
  if (only && !name.includes(only)) continue
  const j = b.names.indexOf(name)
  if (j < 0) {
    console.log(`${name.padEnd(52)} not in B`)
    continue
  }
  a.run(i) // warm both sides' code for this case
  b.run(j)
  const ratios: number[] = []
  for (let k = 0; k < pairs; k++) {
    gc()
    const first = k % 2 === 0 ? a.run(i) : b.run(j)
    gc()
    const second = k % 2 === 0 ? b.run(j) : a.run(i)
    const [ta, tb] = k % 2 === 0 ? [first, second] : [second, first]
    ratios.push(tb / ta)
  }
  ratios.sort((x, y) => x - y)
  const median = ratios[Math.floor(ratios.length / 2)]
  console.log(
    `${name.padEnd(52)} A/B speed ${median.toFixed(2)}  [${ratios[0].toFixed(2)} … ${ratios[ratios.length - 1].toFixed(2)}]`,
  )
}
