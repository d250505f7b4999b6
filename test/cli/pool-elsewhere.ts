// Runs the quick spec in a RunPool with its defaults (the CLI's: Node's fork, the worker next to
// the pool — here the TypeScript source), from whatever directory it is started in; prints each
// job's outcome as JSON.
import { RunPool } from '../../src/main/services/run-pool'
import { resolveSpec } from '../../src/shared/experiment/validate'
import { quickSpec } from '../api/fixtures'

const pool = new RunPool(2)
const failures: string[] = []
const results = await pool.runAll(
  resolveSpec(quickSpec),
  [0, 1].map((schedIndex) => ({ schedIndex, repetition: 0 })),
  { failed: (_job, message) => void failures.push(message) },
)
pool.dispose()
process.stdout.write(
  JSON.stringify({ cwd: process.cwd(), done: results.map((r) => r?.label ?? null), failures }) + '\n',
)
