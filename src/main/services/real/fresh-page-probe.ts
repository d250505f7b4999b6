// What touching memory the guest reported to its hypervisor costs (host freshPageUs), measured
// directly: the fingerprint's buffered point sees it only when its writes happen to reach such
// memory, and on this machine's kind the free memory the guest keeps warm was larger than the
// point's 64 MiB in two fingerprints of four (fp36, fp38, 2026-12-06), which left the cost at 0 —
// while a reader beside a buffered writer, whose passes free and allocate 256 MiB every 150 ms,
// had 26–252 writes of 1 MiB a run at 2.5–3.5 ms (fio json+, five runs on 2026-12-06; the writer
// on the CPU all along, by sched_switch): 10 µs a page, as the fingerprints that saw it fitted.
import { freemem } from 'node:os'
import { runCommand } from './exec'
import { LatencyHistogram } from '../../../shared/metrics/histogram'
import { freshWrites } from './fit-fresh-pages'

/** MiB the probe touches at most: half the free memory, and never more than this. */
export const PROBE_CAP_MIB = 8192
/** It stops once this many steps came from reported memory (64 MiB): enough for a median. */
const ENOUGH_FRESH = 32
/**
 * 4 KiB pages in the probe's step: 2 MiB, a transparent huge page, so that where anonymous memory
 * comes in huge pages (THP `always`) each step is one fault, as each is 512 where it does not.
 */
const PAGES = 512
const STEP_MIB = 2

/**
 * The child's program: touch anonymous memory one step at a time (blocks of 128 steps, kept until
 * it exits, so that each step is memory it has not had before) and print each step's time, µs.
 * The memory is the allocator's as the page cache's is: warm free memory first, then what the
 * guest reported (host/page-reporting.ts). Run in a process of its own, so that everything it
 * took is given back when it ends, however it ends. Arguments: steps at most, fresh steps enough.
 */
const CHILD = `
const cap = Number(process.argv[1]), enough = Number(process.argv[2]), STEP = ${STEP_MIB} << 20
const kept = [], us = []
let fast = Infinity, slow = 0
for (let total = 0; total < cap && slow < enough; ) {
  const n = Math.min(128, cap - total)
  const u8 = new Uint8Array(new ArrayBuffer(n * STEP))
  kept.push(u8)
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint()
    u8.fill(1, i * STEP, (i + 1) * STEP)
    const d = Number(process.hrtime.bigint() - t) / 1000
    us.push(d)
    if (d < fast) fast = d
    if (d > 4 * fast) slow++
  }
  total += n
}
process.stdout.write(JSON.stringify(us))
`

/** What the probe found: µs a 4 KiB page costs to touch again, from how many MiB of each kind. */
export interface FreshPageProbe {
  /** null when none of the memory it touched came from reported memory (the cost was not seen). */
  freshPageUs: number | null
  touchedMiB: number
  freshMiB: number
  /** The warm steps' time, µs per MiB (their p25). */
  warmUsPerMiB: number
}

/**
 * The cost per page from the steps' times (µs): the steps that came from reported memory stand
 * apart by their cost (fit-fresh-pages.ts freshWrites, as the buffered point's writes), and what
 * they cost beyond the warm ones is 512 pages' worth of the hypervisor's work.
 */
export function freshPageCost(stepUs: readonly number[]): FreshPageProbe {
  const h = new LatencyHistogram()
  for (const us of stepUs) h.record(Math.round(us * 1000))
  const f = freshWrites(h.toJSON())
  return {
    freshPageUs: f.count > 0 ? Math.round((f.excessNs / 1000 / PAGES) * 1000) / 1000 : null,
    touchedMiB: stepUs.length * STEP_MIB,
    freshMiB: f.count * STEP_MIB,
    warmUsPerMiB: stepUs.length > 0 ? Math.round(h.percentile(25) / STEP_MIB / 100) / 10 : 0,
  }
}

/**
 * Touch memory beyond what the guest keeps warm, in a child process (`execPath`: node, or
 * Electron run as node), and price the pages that came from reported memory. `capMiB`: at most
 * this much (default: half the free memory, up to PROBE_CAP_MIB).
 */
export async function probeFreshPages(
  o: { capMiB?: number; execPath?: string; timeoutMs?: number } = {},
): Promise<FreshPageProbe> {
  const capMiB = o.capMiB ?? Math.min(PROBE_CAP_MIB, freemem() / 2 ** 21)
  const steps = Math.max(1, Math.floor(capMiB / STEP_MIB))
  const out = await runCommand(
    o.execPath ?? process.execPath,
    ['-e', CHILD, String(steps), String(ENOUGH_FRESH)],
    {
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      timeoutMs: o.timeoutMs ?? 120_000,
    },
  )
  let stepUs: unknown
  try {
    stepUs = JSON.parse(out.stdout)
  } catch {
    throw new Error(`the fresh-page probe printed no list of times: ${out.stdout.slice(0, 200)}`)
  }
  if (!Array.isArray(stepUs) || !stepUs.every((x) => typeof x === 'number'))
    throw new Error('the fresh-page probe printed something other than a list of times')
  return freshPageCost(stepUs)
}

/**
 * On a guest that reports its free memory (captureHost left `freshPageUs` for the fingerprint),
 * measure the cost and put it in the host preset with where it came from; a notice says what was
 * found. Without reported memory within reach the cost stays 0 and the source says it was not
 * seen; a probe that fails (cannot start, times out) leaves it 0 too and says why, rather than
 * losing the sweep measured before it. True when the probe saw the cost (a measured value).
 */
export async function measureFreshPages(
  host: { overrides: Record<string, unknown>; sources: Record<string, string> },
  probe: () => Promise<FreshPageProbe> = () => probeFreshPages(),
  notice: (message: string) => void = () => {},
): Promise<boolean> {
  if (host.overrides.freshPageUs === undefined) return false
  let p: FreshPageProbe
  try {
    p = await probe()
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e)
    host.overrides.freshPageUs = 0
    host.sources.freshPageUs = `not measured (the fresh-page probe failed: ${why}); 0 unless the buffered point saw such writes`
    notice(`free page reporting: the probe of its cost failed (${why}); it is taken as 0`)
    return false
  }
  host.overrides.freshPageUs = p.freshPageUs ?? 0
  host.sources.freshPageUs =
    p.freshPageUs === null
      ? `measured: none of ${p.touchedMiB} MiB of memory touched came from memory the guest had reported (all warm): the cost was not seen, 0`
      : `measured: ${p.freshMiB} of ${p.touchedMiB} MiB of memory touched 2 MiB at a time came from memory the guest had reported (over 4 × the fastest tenth); their median beyond the warm ones' (${p.warmUsPerMiB} µs a MiB), per 4 KiB page`
  notice(
    p.freshPageUs === null
      ? `free page reporting: no reported memory within ${p.touchedMiB} MiB; its cost is taken as 0`
      : `free page reporting: touching a reported page again costs ${p.freshPageUs} µs (${p.freshMiB} of ${p.touchedMiB} MiB were reported)`,
  )
  return p.freshPageUs !== null
}
