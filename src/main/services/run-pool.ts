import type { ChildProcess } from 'node:child_process'
import { availableParallelism } from 'node:os'
import type { ResolvedSpec } from '../../shared/experiment/resolved'
import type { RunResult } from '../../shared/experiment/result'
import { forkSimulation, simulationWorkerPath } from './simulation-worker'
import type { WorkerMessage, WorkerRequest } from './worker-protocol'

export interface RunJob {
  schedIndex: number
  repetition: number
  /** Keep the run's why (default true; RunHooks.why). */
  why?: boolean
}

export interface RunEvents {
  progress?(job: RunJob, fraction: number, simSeconds: number): void
  done?(job: RunJob, result: RunResult): void
  failed?(job: RunJob, message: string): void
}

/** How to start a simulation child: Node's fork here; the app passes Electron's utilityProcess. */
export type Spawner = (workerPath: string) => ChildProcess

/** Idle children are kept this long for the next run, then let go. */
export const IDLE_MS = 120_000

/** CPU time a new child spends warming up on the spec about to run (see WorkerRequest 'warm'). */
export const WARM_UP_MS = 1000

/** What a warm-up compiles: the device model, the schedulers and the workloads of a spec. */
const warmKinds = (spec: ResolvedSpec): string[] => [
  `device:${spec.device.model}`,
  ...spec.schedulers.map((s) => `scheduler:${s.name}`),
  ...spec.processes.map((p) => `workload:${p.type}`),
]

/** One place in the pool: its child (alive, or null until needed) and whether a job holds it. */
interface Slot {
  child: ChildProcess | null
  /** Resolves when the child has said `ready`; rejects with why it ended before. */
  ready: Promise<void> | null
  busy: boolean
  stderr: string
  idleTimer: NodeJS.Timeout | null
  /** What its child has warmed up on (warmKinds), so the same code is not warmed twice. */
  warmed: Set<string>
}

const exited = (c: ChildProcess): boolean => c.exitCode !== null || c.signalCode !== null

/** Idle children must not keep their host alive (the CLI exits when its work is done). */
function holdHost(c: ChildProcess, hold: boolean): void {
  const h = c as ChildProcess & { channel?: { ref?(): void; unref?(): void } | null }
  if (hold) {
    c.ref?.()
    h.channel?.ref?.()
  } else {
    c.unref?.()
    h.channel?.unref?.()
  }
}

/**
 * Runs simulations in child processes, at most `size` at a time (default: the number of cores), so
 * a comparison of many schedulers × repetitions runs in parallel and a runaway run can be killed
 * without harming its host. Each slot keeps its child for the next job (and the next run, for
 * IDLE_MS): starting a child costs more than most simulations, and a warm one runs them faster.
 * A child that crashes fails its own job; its slot starts a fresh child for the next. Aborting a
 * run (its signal) kills the children busy with it; `cancel` kills every child; none is left behind.
 */
export class RunPool {
  private readonly slots: Slot[]
  private readonly waiting: ((s: Slot) => void)[] = []
  /** Bumped by `cancel`: runs started before it stop taking jobs. */
  private epoch = 0
  private disposed = false

  constructor(
    private readonly size = Math.max(1, availableParallelism()),
    private readonly spawn: Spawner = forkSimulation,
    private readonly workerPath = simulationWorkerPath(),
  ) {
    this.slots = Array.from({ length: Math.max(1, size) }, () => ({
      child: null,
      ready: null,
      busy: false,
      stderr: '',
      idleTimer: null,
      warmed: new Set(),
    }))
  }

  /**
   * Start children ahead of a run (up to `jobs` of them), so it does not wait for them; with a
   * spec, children that have not yet simulated its device model, each of its schedulers and
   * workloads (in this or an earlier warm-up) also simulate it — for `budgetMs` of CPU
   * time (the spec about to run), or each entry to its end with null (a short warm-up spec) — to
   * get their code compiled. A job that comes meanwhile goes first.
   */
  warm(jobs = this.size, spec?: ResolvedSpec, budgetMs: number | null = WARM_UP_MS): void {
    if (this.disposed) return
    for (const s of this.slots.slice(0, Math.min(jobs, this.size))) {
      if (s.busy) continue
      const child = this.childOf(s)
      const kinds = spec ? warmKinds(spec) : []
      if (spec && kinds.some((k) => !s.warmed.has(k))) {
        for (const k of kinds) s.warmed.add(k)
        const req: WorkerRequest = { type: 'warm', spec, ...(budgetMs === null ? {} : { budgetMs }) }
        void s.ready
          ?.then(() => s.child === child && !exited(child) && child.send(req))
          .catch(() => undefined)
      }
      this.idle(s)
    }
  }

  /** Run every job; resolves with results in job order (undefined for failed runs). */
  async runAll(
    spec: ResolvedSpec,
    jobs: RunJob[],
    ev: RunEvents = {},
    signal?: AbortSignal,
  ): Promise<(RunResult | undefined)[]> {
    const epoch = this.epoch
    const stopped = (): boolean => this.disposed || epoch !== this.epoch || signal?.aborted === true
    const results: (RunResult | undefined)[] = new Array(jobs.length)
    let next = 0
    const lane = async (): Promise<void> => {
      while (!stopped() && next < jobs.length) {
        const i = next++
        const slot = await this.acquire()
        try {
          if (!stopped()) results[i] = await this.runOn(slot, spec, jobs[i], ev, epoch, signal)
        } finally {
          this.release(slot)
        }
      }
    }
    await Promise.all(Array.from({ length: Math.min(this.size, jobs.length) }, lane))
    return results
  }

  /** Kill every child (busy and idle); runs in progress end, their pending jobs are not started. */
  cancel(): void {
    this.epoch++
    for (const s of this.slots) this.kill(s)
  }

  /** Cancel, and start no child again. */
  dispose(): void {
    this.disposed = true
    this.cancel()
  }

  /** Children busy with a job. */
  get running(): number {
    return this.slots.filter((s) => s.busy).length
  }

  /** Pids of the children alive now, busy or idle (for tests and diagnostics). */
  get pids(): number[] {
    return this.slots.flatMap((s) => (s.child && !exited(s.child) && s.child.pid ? [s.child.pid] : []))
  }

  private acquire(): Promise<Slot> {
    // a slot with a live child first: reuse before starting anew
    const free = this.slots.filter((s) => !s.busy)
    const slot = free.find((s) => s.child && !exited(s.child)) ?? free[0]
    if (slot) {
      slot.busy = true
      return Promise.resolve(slot)
    }
    return new Promise((resolve) => this.waiting.push(resolve))
  }

  private release(slot: Slot): void {
    const next = this.waiting.shift()
    if (next) return next(slot)
    slot.busy = false
    this.idle(slot)
  }

  /** An idle child lets its host exit, and goes away after IDLE_MS. */
  private idle(slot: Slot): void {
    const c = slot.child
    if (!c || exited(c)) return
    holdHost(c, false)
    if (slot.idleTimer) clearTimeout(slot.idleTimer)
    slot.idleTimer = setTimeout(() => {
      if (!slot.busy) this.kill(slot)
    }, IDLE_MS)
    slot.idleTimer.unref()
  }

  private kill(slot: Slot): void {
    if (slot.idleTimer) clearTimeout(slot.idleTimer)
    slot.idleTimer = null
    const c = slot.child
    slot.child = null
    slot.ready = null
    if (c && !exited(c)) c.kill('SIGKILL')
  }

  /** The slot's child, started (with its ready handshake) when there is none alive. */
  private childOf(slot: Slot): ChildProcess {
    if (slot.child && !exited(slot.child)) return slot.child
    const child = this.spawn(this.workerPath)
    slot.child = child
    slot.stderr = ''
    slot.warmed = new Set()
    child.stderr?.on('data', (d: Buffer) => {
      slot.stderr = (slot.stderr + d.toString()).slice(-4000)
    })
    slot.ready = new Promise<void>((resolve, reject) => {
      const onMessage = (m: WorkerMessage): void => {
        if (m.type !== 'ready') return
        child.off('message', onMessage)
        resolve()
      }
      child.on('message', onMessage)
      child.once('exit', () => reject(new Error('exited before it was ready')))
    })
    slot.ready.catch(() => undefined)
    child.on('error', () => undefined) // reported per job below
    child.once('exit', () => {
      if (slot.child === child) {
        slot.child = null
        slot.ready = null
      }
    })
    return child
  }

  private runOn(
    slot: Slot,
    spec: ResolvedSpec,
    job: RunJob,
    ev: RunEvents,
    epoch: number,
    signal?: AbortSignal,
  ): Promise<RunResult | undefined> {
    return new Promise((resolve) => {
      if (slot.idleTimer) clearTimeout(slot.idleTimer)
      const reused = slot.child !== null && !exited(slot.child)
      const child = this.childOf(slot)
      holdHost(child, true)
      slot.stderr = ''
      let settled = false
      let heard = false
      const detach = (): void => {
        settled = true
        child.off('message', onMessage)
        child.off('exit', onExit)
        child.off('error', onError)
        signal?.removeEventListener('abort', onAbort)
      }
      const finish = (r: RunResult | undefined, err?: string): void => {
        if (settled) return
        detach()
        if (err !== undefined) ev.failed?.(job, err)
        resolve(r)
      }
      const onMessage = (m: WorkerMessage): void => {
        heard = true
        if (m.type === 'progress') ev.progress?.(job, m.fraction, m.simSeconds)
        else if (m.type === 'done') {
          ev.done?.(job, m.result)
          finish(m.result)
        } else if (m.type === 'failed') finish(undefined, m.message)
      }
      const onError = (e: Error): void => {
        this.kill(slot)
        finish(undefined, `simulation process error: ${e.message}`)
      }
      const onExit = (code: number | null, sig: NodeJS.Signals | null): void => {
        if (signal?.aborted || epoch !== this.epoch) return finish(undefined, 'cancelled')
        // an idle child that died (killed, out of memory) before it took the job: not the job's
        // fault — run it again on a fresh child (once: a fresh child is not reused)
        if (reused && !heard && !settled) {
          detach()
          return resolve(this.runOn(slot, spec, job, ev, epoch, signal))
        }
        const why = sig ? `killed by ${sig}` : `exited with code ${code}`
        const tail = slot.stderr.trim().split('\n').slice(-3).join(' | ')
        finish(undefined, `simulation process ${why}${tail ? `: ${tail}` : ''}`)
      }
      // the run was cancelled: its child goes (a fresh one takes the slot next time)
      const onAbort = (): void => this.kill(slot)
      child.on('message', onMessage)
      child.on('exit', onExit)
      child.on('error', onError)
      signal?.addEventListener('abort', onAbort, { once: true })
      if (signal?.aborted) return onAbort()
      const req: WorkerRequest = {
        type: 'run',
        spec,
        schedIndex: job.schedIndex,
        repetition: job.repetition,
        ...(job.why === false ? { why: false } : {}),
      }
      slot.ready!.then(
        () => {
          if (!settled && slot.child === child) child.send(req)
        },
        () => undefined, // the exit handler reports it
      )
    })
  }
}
