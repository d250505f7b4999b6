// Entry of the privileged helper in the built app: Electron's binary runs it as Node
// (ELECTRON_RUN_AS_NODE=1) under pkexec, once per session (privileged-helper.ts). The same program
// as `iosched-lab real-helper`.
import { runRealHelper } from './services/real/helper-main'

process.exitCode = await runRealHelper(process.argv.slice(2))
