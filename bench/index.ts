// npm run bench [-- --json] [-- --quick] [-- --runs N] [-- --forks N] [-- --only TEXT]
// Simulated requests per second (whole runs, one process) and peak memory, for the cases the
// foundation and performance issues name (bench/cases.ts); a time case (`flagship-warm`) prints
// its CPU seconds (`cpuSeconds`). Figures, not assertions.
//
// Each case runs in a fresh Node process (bench/case.ts), as JMH forks per benchmark: in one
// process the cases run before it would leave the JIT's profile shaped by other schedulers and
// devices, and a case's figure would depend on its place in the list. The machine is noisy (a
// shared VM: the same process runs 15–30 % slower for a minute at a time, and the JIT's choices
// vary from process to process): each case runs in `--forks` processes (default 2), `--runs` times
// in each (default 3); the best is reported, with the range of the processes' bests beside it and
// the ratio to noop on the same case.
// Requests per second are over the process's CPU time (user + system), which other load on the
// machine disturbs far less than wall-clock time; the wall-clock figure is printed beside it.
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { benchCases } from './cases'

const argv = process.argv.slice(2)
const quick = argv.includes('--quick')
const json = argv.includes('--json')
const option = (name: string): string | undefined => {
  const i = argv.indexOf(name)
  return i >= 0 ? argv[i + 1] : undefined
}
const runs = Math.max(1, Number(option('--runs') ?? 3) || 1)
const forks = Math.max(1, Number(option('--forks') ?? 2) || 1)
const only = option('--only')

const caseScript = fileURLToPath(new URL('./case.ts', import.meta.url))
const rows: Record<string, string | number>[] = []
benchCases(quick).forEach((c, index) => {
  if (only && !`${c.name} ${c.scheduler} ${c.device}`.includes(only)) return
  const measured = Array.from({ length: c.name.startsWith('memory') ? 1 : forks }, () => {
    const out = execFileSync(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', caseScript, String(index), quick ? '1' : '0', String(runs)],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
    )
    return JSON.parse(out.trim().split('\n').pop()!) as Record<string, string | number>
  })
  const rate = (x: Record<string, string | number>): number => x.requestsPerSecond as number
  const row = measured.reduce((a, b) => (rate(b) > rate(a) ? b : a))
  row.wallRequestsPerSecond = Math.max(...measured.map((x) => x.wallRequestsPerSecond as number))
  row.processes = measured.length
  row.lowestProcessRequestsPerSecond = Math.min(...measured.map(rate))
  const noop = rows.find((x) => x.name === c.name && x.device === c.device && x.scheduler === 'noop')
  row.vsNoop = noop ? +((row.requestsPerSecond as number) / (noop.requestsPerSecond as number)).toFixed(2) : 1
  rows.push(row)
  if (!json) {
    const x = row
    console.log(
      `${String(x.name).padEnd(32)} ${String(x.scheduler).padEnd(12)} ${String(x.device).padEnd(14)} ` +
        (x.cpuSeconds !== undefined ? `${x.cpuSeconds} CPU s for ${x.schedulers} schedulers; ` : '') +
        `${String(x.requests).padStart(9)} req ${String(x.requestsPerSecond).padStart(9)} req/s ` +
        `(lowest process ${x.lowestProcessRequestsPerSecond}; ×${x.vsNoop} noop; wall ${x.wallRequestsPerSecond})  ` +
        `rss ${x.peakMemoryMiB} MiB, heap ${x.peakHeapMiB} MiB (second half ${Number(x.heapGrowthSecondHalfMiB) >= 0 ? '+' : ''}${x.heapGrowthSecondHalfMiB})`,
    )
  }
})
if (json) console.log(JSON.stringify({ cases: rows }, null, 2))
