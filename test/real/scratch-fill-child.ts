// A lab process making a scratch loop device (argv: state dir, scratch parent dir, size in MiB),
// for a test that kills it while it fills the backing file.
import { Journal } from '../../src/main/services/real/journal'
import { createScratchLoop } from '../../src/main/services/real/loop-device'

const [stateDir, parentDir, mib] = process.argv.slice(2)
await createScratchLoop({ sizeBytes: Number(mib) * 2 ** 20, parentDir, journal: new Journal(stateDir) })
process.stdout.write('attached\n')
