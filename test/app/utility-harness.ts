// Runs src/main/utility-simulate.ts as Electron would, with a stand-in for process.parentPort:
// answers `ready` with a run request and prints the message types the worker posted.
import { EventEmitter } from 'node:events'
import { resolveSpec } from '../../src/shared/experiment/validate'
import { quickSpec } from '../api/fixtures'

const posted: string[] = []
const port = Object.assign(new EventEmitter(), {
  postMessage(m: { type: string }) {
    posted.push(m.type)
    if (m.type === 'ready')
      port.emit('message', {
        data: { type: 'run', spec: resolveSpec(quickSpec), schedIndex: 0, repetition: 0 },
      })
    if (m.type === 'done' || m.type === 'failed') {
      process.stdout.write(JSON.stringify(posted) + '\n')
      process.exit(0)
    }
  },
})
Object.defineProperty(process, 'parentPort', { value: port })
await import('../../src/main/utility-simulate')
