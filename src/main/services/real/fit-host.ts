// The host's values the fingerprint's fit corrects from its sweep (fit-virtual-refine.ts refineVirtual):
// system call and wake-up costs from fio's own CPU, a buffered write()'s work and copy, and on a VM
// that reports free memory the cost of touching reported pages again.
import { LatencyHistogram } from '../../../shared/metrics/histogram'
import type { ParamValues } from '../../../shared/util/params'
import type { SweepName } from './fingerprint-fit'
import type { FitPoint } from './fit-virtual'
import { correctFreshPage, warmPoolMiB } from './fit-fresh-pages'
import { correctWriteCall } from './fit-write-call'

const r3 = (x: number): number => Math.round(x * 1000) / 1000
const r5 = (x: number): number => Math.round(x * 1e5) / 1e5
const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x))

/** Where the host values `correctHost` adjusts come from, for the preset’s sources. */
export const HOST_FIT_SOURCES: Record<string, string> = {
  submitUs:
    "fitted: fio's own CPU per I/O at QD32 random reads (libaio, hardly a sleep) beyond the simulated: each io_submit's request built and submitted (blk_mq_submit_bio, the driver's queue_rq — a loop device's queue_work waking its worker, on a VM an IPI's exit). Not the system calls' entry and exit (syscallUs, the host preset's): a whole 4 KiB buffered write() took 3.1 µs where fio spent 12.3 µs of CPU per QD32 read (this machine, 2026-12-07), and fitting the excess to every system call made the simulated write() 6.1 µs",
  wakeUs: "fitted: fio's own CPU per I/O at QD1 random reads (a sleep per I/O) beyond its system calls",
  copyUsPerKiB:
    'fitted: the median 1 MiB buffered write() into pages freed a moment before (system call, page allocation and copy), per KiB',
  dioReadUsPerKiB:
    "fitted: fio's own CPU per I/O of the 1 MiB direct reads (seq-read) beyond the simulated, per KiB (pinning, building and releasing the buffer's pages)",
  dioWriteUsPerKiB:
    "fitted: fio's own CPU per I/O of the 1 MiB direct writes (seq-write) beyond the simulated, per KiB (the buffer's preparation, pinning, building and releasing its pages)",
  writeCallUs:
    'fitted: the median of writeCallQuantilesUs — the median 4 KiB buffered write() (a system call, one page copied, the call’s work in the write path) beyond the simulated',
  writeCallQuantilesUs:
    'fitted: the 4 KiB buffered write()s’ latency quantiles (fio json+ bins) beyond the simulated, up to their p99 (above it: first touches of reported memory, freshPageUs)',
  freshPageUs:
    'fitted: the 1 MiB buffered write() calls into pages the guest had reported to the hypervisor (those over 4 × the fastest tenth), beyond the others, per 4 KiB page (free page reporting: page-reporting.ts)',
  warmPoolMiB:
    'fitted: the 1 MiB buffered write() calls of the first pass that found free memory the guest had not reported (mm/page_reporting.c reports only blocks of page_reporting_order or more), MiB',
}

/** A point's latency percentile `q`, µs. */
const pctUs = (p: FitPoint, q: number): number => LatencyHistogram.fromJSON(p.latency).percentile(q) / 1000

/** One correction step of the host's values, each by the residual of the point that determines it. */
export function correctHost(
  host: ParamValues,
  meas: readonly FitPoint[],
  sim: readonly FitPoint[],
): ParamValues {
  // fio's own CPU per I/O: at QD32 (libaio: io_submit and io_getevents, hardly ever a sleep) it
  // is system calls and each request's submission — the part the calls' entry and exit do not
  // explain is the submission's, once per I/O (every system call's would price a buffered write()
  // too, which has none); at QD1 (psync) each I/O also sleeps and wakes — the rest is the wake-up's
  const cpu = (n: SweepName): [number, number] | null => {
    const mc = meas.find((p) => p.name === n)?.fioCpuUs ?? null
    const sc = sim.find((p) => p.name === n)?.fioCpuUs ?? null
    return mc !== null && sc !== null && mc > 0 ? [mc, sc] : null
  }
  const out = { ...host }
  const q32 = cpu('qd32-randread')
  const q1 = cpu('qd1-randread')
  if (q32)
    out.submitUs = r3(clamp(((host.submitUs as number | undefined) ?? 0.5) + (q32[0] - q32[1]), 0, 1000))
  if (q1) out.wakeUs = r3(clamp(((host.wakeUs as number | undefined) ?? 0) + (q1[0] - q1[1]), 0, 1000))
  // the 1 MiB direct transfers cost fio more per I/O than the 4 KiB ones by their pages: what the
  // model does not count of it, per KiB, is the direct transfer's own work (dio*UsPerKiB)
  for (const [name, key] of [
    ['seq-read', 'dioReadUsPerKiB'],
    ['seq-write', 'dioWriteUsPerKiB'],
  ] as const) {
    const c = cpu(name)
    if (c) out[key] = r5(clamp(((host[key] as number | undefined) ?? 0) + (c[0] - c[1]) / 1024, 0, 100))
  }
  // a buffered write() of 4 KiB: a system call, a page's copy and the call's own work, no sleep
  // under the dirty limits — its quantiles beyond the simulated are that work's (fio's clat: the
  // call alone; fio's own time between calls is not the kernel's and stays out)
  const m4 = meas.find((p) => p.name === 'buffered-randwrite')
  const s4 = sim.find((p) => p.name === 'buffered-randwrite')
  if (m4 && s4) Object.assign(out, correctWriteCall(host, m4.latency, s4.latency))
  // a buffered write() of 1 MiB is CPU alone (no throttling under the dirty limits): its median
  // beyond the simulated one is copy and page allocation the host preset did not count. The
  // rewrite (into pages freed a moment before) gives the copy; where the host reports free memory
  // to a hypervisor (freshPageUs captured), the writes into reported pages give the cost of
  // touching one such page again — 256 of them per MiB — and the first pass's other writes the
  // free memory the guest never reports (fit-fresh-pages.ts)
  const mb = meas.find((p) => p.name === 'buffered-write')
  const sb = sim.find((p) => p.name === 'buffered-write')
  if (mb && sb) {
    const copy = ((host.copyUsPerKiB as number | undefined) ?? 0.1) + (pctUs(mb, 25) - pctUs(sb, 25)) / 1024
    out.copyUsPerKiB = Math.round(clamp(copy, 0.005, 100) * 1e4) / 1e4
    if (host.freshPageUs !== undefined) {
      const fresh = correctFreshPage(host.freshPageUs as number, mb.latency, sb.latency, 256)
      out.freshPageUs = r3(clamp(fresh, 0, 1000))
      // two passes of 1 MiB writes: half the point's writes are the first pass's
      out.warmPoolMiB = warmPoolMiB(
        mb.latency,
        LatencyHistogram.fromJSON(mb.latency).count / 2,
        1,
        mb.freshExcessNs,
      )
    }
  }
  return out
}
