// V8's inlining budget for the processes that run simulations: the run pool's children (simulate.ts)
// and the bench's processes, which measure the simulator as those children run it.
import { setFlagsFromString } from 'node:v8'

/**
 * How much bytecode V8's optimising compiler inlines into one function, in all (920 by default).
 * A simulated request is a chain of small calls — the workload, the host's CPU and I/O paths, the
 * block layer, the scheduler, the device, the metrics — entered from a handful of event handlers,
 * and with the default budget each handler's optimised code stops inlining a few calls down: the
 * rest stay calls, which box the floating-point times they pass as heap numbers (cfq at QD32 made
 * a third less garbage with the larger budget). At 4 000, 4 KiB random reads at QD32 ran 12–17 %
 * faster (cfq, bfq and noop on ssd-sata-mlc and nvme-tlc); the flagship spec's warm runs and 1 024
 * fio jobs ran as fast as before; 8 000 gained nothing more. What is inlined never changes a
 * result: JavaScript's arithmetic is the same either way (the bench's result hashes are identical
 * with and without it).
 */
export const INLINING_BUDGET = 4000

/** Set the budget; before the simulator's code is optimised (at a process's start), so it applies. */
export function raiseInliningBudget(): void {
  setFlagsFromString(`--max-inlined-bytecode-size-cumulative=${INLINING_BUDGET}`)
}
