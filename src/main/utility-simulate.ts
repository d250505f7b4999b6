// Entry of a simulation child started as an Electron utility process. The worker speaks Node's
// child-process IPC (process.send / 'message'); a utility process has process.parentPort instead.
// This shim connects the two first, then loads the worker (dynamically, so it surely runs after).
const port = process.parentPort
if (port) {
  process.send = ((m: unknown) => {
    port.postMessage(m)
    return true
  }) as typeof process.send
  port.on('message', (e) => process.emit('message', e.data, undefined))
}
await import('./workers/simulate')
export {}
