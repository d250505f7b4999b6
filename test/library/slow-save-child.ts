// A child process for the interrupted-save test: saves a large session with a write hook that
// says when the write has begun and then slows it down, so the parent can kill it mid-write.
import { SessionStore } from '../../src/main/services/sessions'
import { experiment } from './helpers'

const [folder, name, compress] = process.argv.slice(2)
const store = new SessionStore(folder, 'child', { gzipThresholdBytes: compress === 'gzip' ? 1 : Infinity })
const times = Object.fromEntries(
  Array.from({ length: 12 }, (_, i) => [
    `sched-${i}`,
    Array.from({ length: 20 }, (_, k) => 100 + i + k / 10),
  ]),
)
const result = experiment('big', times)
let chunks = 0
await store.save(
  { name, spec: null, result, notes: 'the new version', replace: true },
  {
    chunkBytes: 8 * 1024,
    onChunk: async () => {
      if (chunks++ === 0) process.stdout.write('writing\n')
      await new Promise((r) => setTimeout(r, 40))
    },
  },
)
process.stdout.write('saved\n')
