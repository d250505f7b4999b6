// Child-process entry: runs one simulation and reports progress and the result to its parent.
// Started by the run pool with child_process.fork (CLI, browser host) or utilityProcess (app).
import { simulate } from '../../shared/experiment/runner'
import type { WorkerRequest, WorkerMessage } from '../services/worker-protocol'

const send = (m: WorkerMessage): void => {
  process.send?.(m)
}

process.on('message', (msg: WorkerRequest) => {
  if (msg.type !== 'run') return
  try {
    let last = 0
    const result = simulate(msg.spec, msg.schedIndex, msg.repetition, {
      progress: (fraction, simSeconds) => {
        const now = Date.now()
        if (now - last >= 100) {
          last = now
          send({ type: 'progress', fraction, simSeconds })
        }
      },
    })
    send({ type: 'done', result })
  } catch (e) {
    send({ type: 'failed', message: (e as Error).message ?? String(e) })
  }
})

send({ type: 'ready' })
