// npm run -s bench:pair -- OTHER_CHECKOUT [--pairs N] [--full] [--only TEXT] [--no-why] [--b-no-why] [--gc]
//   [--sample SECONDS]
// Before/after figures on a noisy machine: each bench case (bench/cases.ts, quick sizes unless
// --full) from this checkout (A) and another (B, e.g. `git worktree add ../base <commit>` with
// node_modules linked) loaded into one process and run alternately, A B B A A B …, the CPU time
// of each run taken from process.cpuUsage. The figure is the median over pairs of B's CPU time ÷
// A's — A's speed relative to B (1.10 = A 10 % faster) — with the range: pairing in one process
// cancels the drift of a shared VM that separate processes minutes apart do not. Figures only.
// The runs are warm, as `npm run bench`'s: a full collection (`gc()`) before a run makes V8 drop
// the optimised code that referred to the last run's objects ("weak objects" deoptimisations), and
// the run after it spends most of its time compiling again (2–7× a warm run on the quick cases);
// `--gc` collects before each run all the same, to price that.
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { raiseInliningBudget } from '../src/main/workers/v8-inlining'

// both checkouts' runs as the run pool's simulation children run them
raiseInliningBudget()

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
// `--sample`: a sample's CPU seconds at least (default 0.1; a shorter case runs several times a
// sample). The 2003 flagship's schedulers take 5–20 ms a run: at 0.1 s a sample their figures
// still move by a quarter from one pass to the next; `--only 2003 --sample 1` prices them.
const sampleSeconds = Math.max(0.01, Number(option('--sample') ?? 0.1) || 0.1)
// `--no-why`: this checkout's runs without the why (RunHooks.why); `--b-no-why`: the other's (a
// checkout from before the why ignores the hook). `--b-no-why` with OTHER_CHECKOUT a copy of this
// one (`git archive HEAD | tar -x -C DIR`, node_modules linked) prices the why alone. This checkout
// itself as OTHER_CHECKOUT works too, but then both sides run the same compiled code, optimised
// for the mix of runs with and without the why that it has seen.
const whyA = !argv.includes('--no-why')
const whyB = !argv.includes('--b-no-why')
const collect = argv.includes('--gc')

interface Side {
  names: string[]
  run(index: number, times?: number): number
}

/** One checkout's bench cases, resolved, and a function that runs one `times` times and returns its CPU seconds. */
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
    run(index: number, times = 1): number {
      const t = process.cpuUsage()
      // a time case runs every scheduler of its spec; a rate case its one
      const n = cases[index].measure === 'cpuSeconds' ? specs[index].schedulers.length : 1
      for (let k = 0; k < times; k++) for (let s = 0; s < n; s++) simulate(specs[index], s, 0, { why })
      const u = process.cpuUsage(t)
      return (u.user + u.system) / 1e6
    },
  }
}

const a = await load(resolve(import.meta.dirname, '..'), whyA)
const b = await load(other, whyB)
const gc = (collect ? (globalThis as { gc?: () => void }).gc : undefined) ?? (() => undefined)
console.log(
  `A: this checkout${whyA ? '' : ' without the why'}; B: ${other}${whyB ? '' : ' without the why'}; ` +
    `${pairs} pairs per case, ${quick ? 'quick' : 'full'} sizes${collect ? ', a full collection before each run' : ''}`,
)
for (const [i, name] of a.names.entries()) {
  if (only && !name.includes(only)) continue
  const j = b.names.indexOf(name)
  if (j < 0) {
    console.log(`${name.padEnd(52)} not in B`)
    continue
  }
  // Warm both sides' code for this case (a short case, a few runs). A case shorter than a sample
  // (`--sample`; the 2003 flagship's schedulers, ~10 ms) is run several times a sample, as many on
  // both sides: a few ms of CPU time are at the mercy of the machine's other work (single pairs
  // from 0.2 to 2.5). Not with `--gc`: that prices a cold run.
  let warm = Infinity
  for (let w = 0, spent = 0; w < 10 && spent < 0.3; w++) {
    const ta = a.run(i)
    const tb = b.run(j)
    spent += ta + tb
    warm = Math.min(warm, ta, tb)
  }
  const times = collect ? 1 : Math.min(500 * sampleSeconds, Math.ceil(sampleSeconds / Math.max(1e-4, warm)))
  const ratios: number[] = []
  for (let k = 0; k < pairs; k++) {
    gc()
    const first = k % 2 === 0 ? a.run(i, times) : b.run(j, times)
    gc()
    const second = k % 2 === 0 ? b.run(j, times) : a.run(i, times)
    const [ta, tb] = k % 2 === 0 ? [first, second] : [second, first]
    ratios.push(tb / ta)
  }
  ratios.sort((x, y) => x - y)
  const median = ratios[Math.floor(ratios.length / 2)]
  console.log(
    `${name.padEnd(52)} A/B speed ${median.toFixed(2)}  [${ratios[0].toFixed(2)} … ${ratios[ratios.length - 1].toFixed(2)}]` +
      (times > 1 ? `  (${times} runs a sample)` : ''),
  )
}
