// npm run -s bench:startup [-- --runs N] [-- --other DIR] [-- ARGS…]
// How long the command line takes to start and answer: `iosched-lab list` (or the given
// arguments) in fresh processes, interleaved with a bare `node -e 0` — the floor no change to the
// lab can go below. Prints the median and the fastest of N runs (default 15) of each: wall-clock
// time, and CPU time (user + system, of the whole process: other load on this shared machine
// disturbs it far less). A figure, not an assertion. Whether bin/ runs the build or the sources
// through tsx depends on the checkout: build first (`npx electron-vite build`) to time the build.
// `--other DIR`: another checkout's bin/iosched-lab.mjs beside this one's (before/after), interleaved too.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const argv = process.argv.slice(2)
const valueOf = (name: string): string | undefined => {
  const i = argv.indexOf(name)
  if (i < 0) return undefined
  const v = argv[i + 1]
  argv.splice(i, 2)
  return v
}
const runs = Math.max(1, Number(valueOf('--runs') ?? 15) || 1)
const other = valueOf('--other')
const command = argv.length > 0 ? argv : ['list']
const bin = fileURLToPath(new URL('../bin/iosched-lab.mjs', import.meta.url))
const otherBin = other === undefined ? null : join(resolve(other), 'bin/iosched-lab.mjs')

// a preload that writes the process's CPU time (µs) to a file as it exits
const dir = mkdtempSync(join(tmpdir(), 'iosched-startup-'))
const cpuFile = join(dir, 'cpu')
const preload = join(dir, 'cpu.mjs')
writeFileSync(
  preload,
  `import { writeFileSync } from 'node:fs'\nprocess.on('exit', () => { const u = process.cpuUsage(); writeFileSync(${JSON.stringify(cpuFile)}, String(u.user + u.system)) })\n`,
)

function once(nodeArgs: string[]): { wall: number; cpu: number } {
  const t = performance.now()
  const r = spawnSync(process.execPath, ['--import', preload, ...nodeArgs], {
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  const wall = performance.now() - t
  if (r.status !== 0) throw new Error(`exit status ${r.status}: ${r.stderr.toString()}`)
  return { wall, cpu: Number(readFileSync(cpuFile, 'utf8')) / 1000 }
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

const lab: { wall: number; cpu: number }[] = []
const theirs: { wall: number; cpu: number }[] = []
const bare: { wall: number; cpu: number }[] = []
// the file cache warm, as for a user's second call
once([bin, ...command])
if (otherBin) once([otherBin, ...command])
for (let i = 0; i < runs; i++) {
  lab.push(once([bin, ...command]))
  if (otherBin) theirs.push(once([otherBin, ...command]))
  bare.push(once(['-e', '0']))
}
rmSync(dir, { recursive: true, force: true })

const line = (name: string, xs: { wall: number; cpu: number }[]): string => {
  const w = xs.map((x) => x.wall)
  const c = xs.map((x) => x.cpu)
  return `${name.padEnd(28)} wall ${median(w).toFixed(0).padStart(4)} ms (fastest ${Math.min(...w).toFixed(0)})   cpu ${median(c).toFixed(0).padStart(4)} ms (least ${Math.min(...c).toFixed(0)})`
}
console.log(`medians of ${runs} runs, interleaved`)
console.log(line(`iosched-lab ${command.join(' ')}`, lab))
if (other !== undefined) console.log(line(`… in ${other}`, theirs))
console.log(line('node -e 0', bare))
