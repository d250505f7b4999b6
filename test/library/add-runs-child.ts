// A child process for the concurrent-writers test: adds one imported run at a time to a session,
// `count` times, each a read-modify-write of the file, as `import --session` does.
import { SessionStore } from '../../src/main/services/sessions'
import { importedRuns } from './helpers'

const [folder, file, label, count] = process.argv.slice(2)
const store = new SessionStore(folder, 'child')
for (let i = 0; i < Number(count); i++) await store.addRuns(file, 'shared', importedRuns(label, [10 + i]))
process.stdout.write('done\n')
