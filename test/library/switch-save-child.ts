// A child process for the compression-switch test: saves the session "grows" across the gzip
// threshold (bigger, or smaller) and stops for good at a given point of the save — its first
// chunk written, or the new file in place before the old name's file is removed — saying so, so
// the parent can kill it right there.
import { SessionStore } from '../../src/main/services/sessions'
import { experiment } from './helpers'

const [folder, direction, step] = process.argv.slice(2)
const store = new SessionStore(folder, 'child', { gzipThresholdBytes: 20_000 })
const stop = async (): Promise<void> => {
  process.stdout.write(`${step}\n`)
  await new Promise(() => setInterval(() => undefined, 1_000))
}
const big = experiment('big', { noop: [1, 2, 3], deadline: [4, 5, 6] })
await store.save(
  {
    name: 'grows',
    spec: null,
    result: direction === 'grow' ? big : null,
    notes: 'the new version',
    replace: true,
  },
  {
    chunkBytes: 1024,
    onChunk: step === 'writing' ? stop : undefined,
    onPublished: step === 'published' ? stop : undefined,
  },
)
process.stdout.write('saved\n')
