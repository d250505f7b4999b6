import type { ResolvedProcess } from '../../../shared/experiment/resolved'
import type { ProcessResult } from '../../../shared/experiment/result'
import { LatencyHistogram, summarizeLatency } from '../../../shared/metrics/histogram'
import { parseDdOutput } from './dd-output'
import type { EnginePlan, RealEngine } from './engine-plan'
import { CancelledError } from './engine-plan'
import type { EngineProcess } from './engine-process'
import { startEngine } from './engine-process'
import { runCommand } from './exec'
import { shellQuote } from './fio-command'
import type { FilePlace } from './file-layout'
import { layoutFiles } from './file-layout'
import { TranslationError } from './fio-job'

interface DdJob {
  process: string
  argv: string[]
  loop: boolean
  startMs: number
  bs: number
  plannedBytes: number
  reads: boolean
}

/** dd's arguments for one spec process (dd, or cat as a buffered dd read). */
function ddJob(
  p: ResolvedProcess,
  path: string,
  places: Map<string, FilePlace>,
  problems: string[],
): DdJob | null {
  const v = p.params
  const region = (file: string): FilePlace | undefined =>
    file === '/dev' ? { name: '/dev', offset: 0, size: Infinity } : places.get(file)
  let write = false
  let bs: number
  let bytes: number
  let offset: number
  const flags: string[] = []
  if (p.type === 'dd') {
    const r = region((v.file as string) || `${p.name}.dd`)
    if (!r) return null
    write = v.op === 'write'
    bs = v.bs as number
    bytes = (v.count as number) * bs
    offset = r.offset + (v.skip as number) * bs
    if (v.direct) flags.push('direct')
    if (v.dsync && write) flags.push('dsync')
  } else if (p.type === 'cat') {
    const r = region((v.file as string) || `${p.name}.cat`)
    if (!r) return null
    bs = v.bs as number
    bytes = Math.min(v.size as number, r.size)
    offset = r.offset
  } else {
    problems.push(
      `process "${p.name}": the dd engine runs dd and cat workloads only, not "${p.type}" (use the fio engine)`,
    )
    return null
  }
  const io = write
    ? [
        'if=/dev/zero',
        `of=${path}`,
        `bs=${bs}`,
        `count=${bytes}`,
        `seek=${offset}`,
        'iflag=count_bytes',
        `oflag=seek_bytes${flags.map((f) => `,${f}`).join('')}`,
        `conv=notrunc${v.fsync ? ',fsync' : ''}`,
      ]
    : [
        `if=${path}`,
        'of=/dev/null',
        `bs=${bs}`,
        `count=${bytes}`,
        `skip=${offset}`,
        `iflag=count_bytes,skip_bytes${flags.map((f) => `,${f}`).join('')}`,
      ]
  let argv = ['dd', ...io]
  if (p.nice !== 0) argv = ['nice', '-n', String(p.nice), ...argv]
  if (p.ioClass !== 0)
    argv = ['ionice', '-c', String(p.ioClass), ...(p.ioClass === 3 ? [] : ['-n', String(p.ioLevel)]), ...argv]
  return {
    process: p.name,
    argv,
    loop: p.type === 'dd' && (v.loop as boolean),
    startMs: p.startMs,
    bs,
    plannedBytes: bytes,
    reads: !write,
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

/**
 * dd as the engine, for dd (and cat) workloads: one dd per process, on its byte range of the raw
 * device, started after its delay, repeated while `loop` holds, interrupted with SIGINT (dd then
 * prints its summary) when the stop processes have finished or the time limit is reached. dd
 * reports bytes and seconds only: no per-operation latency.
 */
export const ddEngine: RealEngine = {
  name: 'dd',
  async version() {
    return (await runCommand('dd', ['--version'], { allowFailure: true })).stdout.split('\n')[0] || 'dd'
  },
  plan(spec, target, o): EnginePlan {
    const lay = layoutFiles(spec.files, target.sizeBytes)
    const problems = [...lay.problems]
    const jobs = spec.processes
      .map((p) => ddJob(p, target.path, lay.places, problems))
      .filter((j): j is DdJob => j !== null)
    if (problems.length > 0) throw new TranslationError(problems)
    const maxMs = (o.maxSeconds ?? spec.stop.maxSeconds) * 1000
    const notes = [
      ...lay.notes,
      'dd reports bytes and seconds only: no latency percentiles for its processes',
    ]
    const text = jobs
      .map(
        (j) =>
          `# ${j.process}${j.startMs ? ` (after ${j.startMs} ms)` : ''}${j.loop ? ' (repeated until the run ends)' : ''}\n${shellQuote(j.argv)}`,
      )
      .join('\n')
    return {
      engine: 'dd',
      jobFile: text,
      command: jobs[0]?.argv ?? ['dd'],
      readOnly: jobs.every((j) => j.reads),
      notes,
      async execute(ctx) {
        const t0 = performance.now()
        const stopSet = new Set(spec.stop.processes)
        const state = jobs.map((j) => ({
          job: j,
          bytes: 0,
          seconds: 0,
          finished: false,
          running: null as EngineProcess | null,
          start: 0,
          end: 0,
        }))
        let stopping = false
        const stopAll = async (): Promise<void> => {
          stopping = true
          await Promise.all(state.map((s) => s.running?.stop('SIGINT')))
        }
        const hook = async (): Promise<void> => {
          stopping = true
          await Promise.all(state.map((s) => s.running?.cancel()))
        }
        ctx.cancel.hooks.add(hook)
        const limit = setTimeout(() => void stopAll(), maxMs)
        const tick = setInterval(() => {
          const f = Math.min(1, (performance.now() - t0) / maxMs)
          ctx.progress(f, Math.max(0, Math.round((maxMs - (performance.now() - t0)) / 1000)), '')
        }, 500)
        const runOne = async (s: (typeof state)[number]): Promise<void> => {
          if (s.job.startMs > 0) await sleep(s.job.startMs)
          s.start = performance.now() - t0
          while (!stopping) {
            const proc = startEngine(s.job.argv[0], s.job.argv.slice(1), {
              journal: ctx.journal,
              env: { LC_ALL: 'C' },
            })
            s.running = proc
            const exit = await proc.done
            s.running = null
            try {
              const d = parseDdOutput(exit.stderr, `${s.job.process}: ${shellQuote(s.job.argv)}`)
              s.bytes += d.bytes
              s.seconds += d.seconds
            } catch (e) {
              if (!stopping) throw e
            }
            if (!stopping && exit.code !== 0)
              throw new Error(
                `${shellQuote(s.job.argv)} exited with status ${exit.code}: ${exit.stderr.trim().split('\n').pop()}`,
              )
            if (!stopping && !s.job.loop) {
              s.finished = true
              break
            }
          }
          s.end = performance.now() - t0
          const stops = state.filter((x) => stopSet.has(x.job.process))
          if (stops.length > 0 && stops.every((x) => x.finished)) await stopAll()
        }
        try {
          await Promise.all(state.map(runOne))
        } finally {
          clearTimeout(limit)
          clearInterval(tick)
          ctx.cancel.hooks.delete(hook)
        }
        if (ctx.cancel.cancelled) throw new CancelledError()
        const empty = new LatencyHistogram()
        return {
          processes: state.map((s, i): ProcessResult => {
            const seconds = (s.end - s.start) / 1000
            return {
              name: s.job.process,
              pid: i + 1,
              bytes: s.bytes,
              readBytes: s.job.reads ? s.bytes : 0,
              writeBytes: s.job.reads ? 0 : s.bytes,
              seconds,
              MBps: seconds > 0 ? s.bytes / 1e6 / seconds : 0,
              ops: Math.round(s.bytes / s.job.bs),
              finished: s.finished,
              startSeconds: s.job.startMs / 1000,
              cpuSeconds: 0,
              latencyMs: summarizeLatency(empty),
              latency: empty.toJSON(),
            }
          }),
          endWallMs: Date.now(),
        }
      },
    }
  },
}
