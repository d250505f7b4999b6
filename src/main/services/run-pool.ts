import { fork } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import type { ResolvedSpec } from '../../shared/experiment/resolved'
import type { RunResult } from '../../shared/experiment/result'
import type { WorkerMessage, WorkerRequest } from './worker-protocol'

export interface RunJob {
  schedIndex: number
  repetition: number
}

export interface RunEvents {
  progress?(job: RunJob, fraction: number, simSeconds: number): void
  done?(job: RunJob, result: RunResult): void
  failed?(job: RunJob, message: string): void
}

/** How to start a simulation child: Node's fork here; the app passes Electron's utilityProcess. */
export type Spawner = (workerPath: string) => ChildProcess

const defaultWorker = (): string => {
  const here = import.meta.url
  // From source (tsx, vitest) the worker is a .ts file next door; in a build it is bundled as .js.
  const ts = new URL('../workers/simulate.ts', here)
  return fileURLToPath(here.endsWith('.ts') ? ts : new URL('./workers/simulate.js', here))
}

const tsxSpawner: Spawner = (path) =>
  fork(path, [], {
    execArgv: path.endsWith('.ts') ? ['--import', 'tsx'] : [],
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    serialization: 'advanced',
  })

/**
 * Runs simulations in child processes, at most `size` at a time (default: the number of cores), so
 * a comparison of many schedulers × repetitions runs in parallel and a runaway run can be killed
 * without harming its host. A child that crashes fails its own run; the others go on. `cancel`
 * kills every child and leaves none behind.
 */
export class RunPool {
  private readonly children = new Set<ChildProcess>()
  private cancelled = false

  constructor(
    private readonly size = Math.max(1, availableParallelism()),
    private readonly spawn: Spawner = tsxSpawner,
    private readonly workerPath = defaultWorker(),
  ) {}

  /** Run every job; resolves with results in job order (undefined for failed runs). */
  async runAll(spec: ResolvedSpec, jobs: RunJob[], ev: RunEvents = {}): Promise<(RunResult | undefined)[]> {
    this.cancelled = false
    const results: (RunResult | undefined)[] = new Array(jobs.length)
    let next = 0
    const lane = async (): Promise<void> => {
      while (!this.cancelled && next < jobs.length) {
        const i = next++
        results[i] = await this.runOne(spec, jobs[i], ev)
      }
    }
    await Promise.all(Array.from({ length: Math.min(this.size, jobs.length) }, lane))
    return results
  }

  private runOne(spec: ResolvedSpec, job: RunJob, ev: RunEvents): Promise<RunResult | undefined> {
    return new Promise((resolve) => {
      if (this.cancelled) return resolve(undefined)
      const child = this.spawn(this.workerPath)
      this.children.add(child)
      let settled = false
      let stderr = ''
      child.stderr?.on('data', (d: Buffer) => {
        stderr = (stderr + d.toString()).slice(-4000)
      })
      const finish = (r: RunResult | undefined, err?: string): void => {
        if (settled) return
        settled = true
        this.children.delete(child)
        if (err !== undefined) ev.failed?.(job, err)
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
        resolve(r)
      }
      child.on('message', (m: WorkerMessage) => {
        if (m.type === 'ready') {
          const req: WorkerRequest = {
            type: 'run',
            spec,
            schedIndex: job.schedIndex,
            repetition: job.repetition,
          }
          child.send(req)
        } else if (m.type === 'progress') ev.progress?.(job, m.fraction, m.simSeconds)
        else if (m.type === 'done') {
          ev.done?.(job, m.result)
          finish(m.result)
        } else if (m.type === 'failed') finish(undefined, m.message)
      })
      child.on('error', (e) => finish(undefined, `simulation process error: ${e.message}`))
      child.on('exit', (code, signal) => {
        if (this.cancelled) return finish(undefined, 'cancelled')
        const why = signal ? `killed by ${signal}` : `exited with code ${code}`
        const tail = stderr.trim().split('\n').slice(-3).join(' | ')
        finish(undefined, `simulation process ${why}${tail ? `: ${tail}` : ''}`)
      })
    })
  }

  /** Kill every running child; pending jobs are not started. */
  cancel(): void {
    this.cancelled = true
    for (const c of this.children) c.kill('SIGKILL')
  }

  get running(): number {
    return this.children.size
  }
}
