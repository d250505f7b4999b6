import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ExperimentResult } from '../../../shared/experiment/compare'
import { summarizeRuns } from '../../../shared/experiment/compare'
import type { ResolvedSpec } from '../../../shared/experiment/resolved'
import type { RunResult } from '../../../shared/experiment/result'
import { LatencyHistogram } from '../../../shared/metrics/histogram'
import { startEngine } from './engine-process'
import type { FioJobPlan } from './fio-job'
import { translateSpec } from './fio-job'
import type { FioJobReport } from '../../../shared/formats/fio-json'
import { parseFioOutput } from '../../../shared/formats/fio-json'
import { processesFromReport } from './fio-result'
import type { Journal } from './journal'
import { RUN_PREFIX } from './state-dir'

export interface FioServersOptions {
  /** fio client addresses as fio takes them: `host`, `host,port`, `ip:1.2.3.4,8765`, `ip6:…`, `sock:/path`. */
  hosts: string[]
  /** The device (or file) on each lab machine, as that machine names it, and its size. */
  remoteTarget: { path: string; sizeBytes: number }
  maxSeconds?: number
  extraArgs?: string[]
  journal?: Journal
}

const ADDRESS = /^[A-Za-z0-9.:,_\-[\]/]+$/

/**
 * The job file and command of a run on fio servers (the run's own planning; `--show-job` and
 * `--dry-run` print it). Files go to `dir`. Throws for bad addresses and a spec fio cannot run.
 */
export function planOnFioServers(
  spec: ResolvedSpec,
  o: FioServersOptions,
  dir: string,
): { plan: FioJobPlan; jobFile: string; command: string[]; jobPath: string; output: string } {
  const bad = o.hosts.filter((h) => !ADDRESS.test(h))
  if (o.hosts.length === 0 || bad.length > 0)
    throw new Error(
      `fio server addresses: ${o.hosts.length === 0 ? 'none given' : `cannot use ${bad.map((b) => `"${b}"`).join(', ')}`}`,
    )
  const plan = translateSpec(
    spec,
    { ...o.remoteTarget, description: `${o.remoteTarget.path} on each fio server` },
    { maxSeconds: o.maxSeconds },
  )
  // --readonly is not passed to servers: in client mode the job itself must carry it
  const text = plan.readOnly ? plan.text.replace('[global]\n', '[global]\nreadonly=1\n') : plan.text
  const jobPath = join(dir, 'job.fio')
  const output = join(dir, 'clients.json')
  const args = [
    '--output-format=json+',
    `--output=${output}`,
    ...(o.extraArgs ?? []),
    ...o.hosts.flatMap((h) => [`--client=${h}`, jobPath]),
  ]
  return { plan, jobFile: text, command: ['fio', ...args], jobPath, output }
}

/**
 * The same experiment on several lab machines through fio's own client/server mode: each machine
 * runs `fio --server`, the lab runs one `fio --client=h1 JOB --client=h2 JOB …` and reads the
 * per-host results from the json+ report's `client_stats`. One RunResult per host (label = host),
 * so the hosts appear side by side in one comparison. The lab switches no scheduler there: that
 * stays with each machine's operator, and the results say "as configured on the host".
 */
export async function runOnFioServers(
  spec: ResolvedSpec,
  o: FioServersOptions,
): Promise<{ result: ExperimentResult; jobFile: string; command: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), RUN_PREFIX))
  o.journal?.addTempDir(dir)
  try {
    const { plan, jobFile: text, command, jobPath, output: out } = planOnFioServers(spec, o, dir)
    const args = command.slice(1)
    writeFileSync(jobPath, text)
    writeFileSync(out, '')
    const proc = startEngine('fio', args, { journal: o.journal })
    const exit = await proc.done
    if (exit.code !== 0)
      throw new Error(
        `fio --client exited with status ${exit.code}: ${exit.stderr.trim().split('\n').slice(-5).join(' / ')}`,
      )
    const report = parseFioOutput(readFileSync(out, 'utf8'), out)
    const n = plan.jobs.length
    if (report.jobs.length !== n * o.hosts.length)
      throw new Error(
        `${out}: expected ${n} jobs from each of ${o.hosts.length} hosts, the report has ${report.jobs.length}`,
      )
    const byHost = jobsByHost(report.jobs, o.hosts, n, out)
    const runs: RunResult[] = o.hosts.map((h, k) => hostRun(spec, h, byHost[k], plan.jobs, out))
    return {
      result: {
        schema: 'iosched-lab/experiment@1',
        name: spec.name,
        spec,
        runs,
        summary: summarizeRuns(runs),
      },
      jobFile: text,
      command: ['fio', ...args],
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
    o.journal?.removeTempDir(dir)
  }
}

/** fio's default server port. */
const FIO_PORT = 8765

/** The host and port fio reports for a `--client` address (`host`, `host,port`, `ip:…`, `ip6:…`). */
export function clientEndpoint(address: string): { host: string; port: number } | null {
  if (address.startsWith('sock:')) return null
  const bare = address.replace(/^ip6?:/, '')
  const comma = bare.lastIndexOf(',')
  if (comma < 0) return { host: bare, port: FIO_PORT }
  return { host: bare.slice(0, comma), port: Number(bare.slice(comma + 1)) }
}

/**
 * The report's jobs, host by host. Hosts finish in any order and fio lists their jobs as they
 * arrive, so each job is matched by the hostname and port it carries; a report without them (a
 * fio that does not say) falls back to the order of the `--client` options.
 */
export function jobsByHost(
  jobs: readonly FioJobReport[],
  hosts: readonly string[],
  perHost: number,
  source: string,
): FioJobReport[][] {
  const endpoints = hosts.map(clientEndpoint)
  const tagged = jobs.every((j) => typeof j.port === 'number')
  const unique = new Set(endpoints.map((e) => (e ? `${e.host}:${e.port}` : null))).size === hosts.length
  if (!tagged || !unique || endpoints.some((e) => e === null))
    return hosts.map((_, k) => jobs.slice(k * perHost, (k + 1) * perHost))
  return hosts.map((h, k) => {
    const e = endpoints[k]!
    // fio reports the port it connected to; the hostname may be resolved, so the port decides when unique
    const samePort = endpoints.filter((x) => x!.port === e.port).length === 1
    const mine = jobs.filter((j) => j.port === e.port && (samePort || j.hostname === e.host))
    if (mine.length !== perHost)
      throw new Error(`${source}: expected ${perHost} jobs from ${h}, the report has ${mine.length}`)
    return mine
  })
}

function hostRun(
  spec: ResolvedSpec,
  address: string,
  jobs: FioJobReport[],
  plan: ReturnType<typeof translateSpec>['jobs'],
  source: string,
): RunResult {
  const processes = processesFromReport(jobs, plan, `${source} (${address})`)
  const seconds = Math.max(0, ...processes.map((p) => p.startSeconds + p.seconds)) || 1e-9
  const readBytes = processes.reduce((a, p) => a + p.readBytes, 0)
  const writeBytes = processes.reduce((a, p) => a + p.writeBytes, 0)
  const reads = jobs.reduce((a, j) => a + j.read.total_ios, 0)
  const writes = jobs.reduce((a, j) => a + j.write.total_ios, 0)
  const empty = new LatencyHistogram().toJSON()
  return {
    schema: 'iosched-lab/run@1',
    label: address,
    scheduler: 'as configured on the host',
    tunables: {},
    source: 'real',
    repetition: 0,
    seed: spec.seed,
    device: address,
    seconds,
    stoppedBy: 'processes',
    processes,
    // what fio saw, not the device's counters (those stay on the host)
    totals: {
      readMBps: readBytes / 1e6 / seconds,
      writeMBps: writeBytes / 1e6 / seconds,
      readIops: reads / seconds,
      writeIops: writes / seconds,
      readBytes,
      writeBytes,
      requests: reads + writes,
      utilisation: 0,
      seeks: 0,
      meanSeekSectors: 0,
      meanRequestKiB: reads + writes ? (readBytes + writeBytes) / 1024 / (reads + writes) : 0,
    },
    timeSeries: {
      intervalMs: 0,
      tMs: [],
      readMBps: [],
      writeMBps: [],
      readIops: [],
      writeIops: [],
      queued: [],
      inFlight: [],
    },
    dispatches: { stride: 1, tMs: [], sector: [], nsect: [], op: [], pid: [] },
    requestLatency: empty,
    serviceLatency: empty,
  }
}
