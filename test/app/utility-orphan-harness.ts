// Runs src/main/utility-simulate.ts as Electron would (a stand-in for process.parentPort, no IPC
// channel), on a simulation that takes minutes; prints `busy PID` once it is under way.
import { EventEmitter } from 'node:events'
import { resolveSpec } from '../../src/shared/experiment/validate'
import { longSpec } from '../api/fixtures'

let busy = false
const port = Object.assign(new EventEmitter(), {
  postMessage(m: { type: string }) {
    if (m.type === 'ready')
      port.emit('message', {
        data: { type: 'run', spec: resolveSpec(longSpec), schedIndex: 0, repetition: 0 },
      })
    if (m.type === 'progress' && !busy) {
      busy = true
      process.stdout.write(`busy ${process.pid}\n`)
    }
  },
})
Object.defineProperty(process, 'parentPort', { value: port })
await import('../../src/main/utility-simulate')
