// A QD1 reader beside a QD32 reader on this lab machine's loop device (preset loop-dio-virtio): the
// host signals each pass over the virtio ring once, and the guest then completes the pass's
// requests one after another in its block softirq (virtual-params.ts irqCompleteUs). Measured
// (Linux 6.18, 2026-12-06, ftrace): the reader's reads land in the deep reader's passes and take as
// long as its reads — 0.41 against 0.42 ms at the loop device — and both readers restart only as
// the softirq reaches their completions. A pass completed all at once let the reader, woken with
// the first, got ahead of the deep reader's resubmissions into a pass of its own every other read
// while the model still woke the loop worker onto the reader's busy CPU (cpu.ts backToIdle).
// (The preset leaves the completion work at 0 until the model lets reads overtake writes at this
// host: virtual-params.ts irqCompleteUs. These runs set the measured 1.3 µs, or 0.)
import { describe, expect, it } from 'vitest'
import { simulate } from '../../src/shared/experiment/runner'
import { resolveSpec } from '../../src/shared/experiment/validate'
import { randomReader } from '../helpers/fio-process'
import { LAB_VM_CPUS } from '../helpers/lab-vm-cpus'

function run(irqCompleteUs: number) {
  const spec = resolveSpec({
    device: { preset: 'loop-dio-virtio', overrides: { irqCompleteUs } },
    // this machine's host as its fingerprint captured it (2 vCPUs packing woken tasks, EEVDF)
    host: { preset: 'linux-modern', overrides: { ...LAB_VM_CPUS, syscallUs: 0.688, wakeUs: 10.2 } },
    workload: {
      processes: [
        { ...randomReader(0.5), name: 'reader' },
        { ...randomReader(0.5, { iodepth: 32, ioengine: 'libaio' }), name: 'deep' },
      ],
    },
    schedulers: ['none'],
  })
  const r = simulate(spec, 0, 0)
  const lat = (name: string) => r.processes.find((p) => p.name === name)!.latencyMs.mean
  return { reader: lat('reader'), deep: lat('deep') }
}

describe('a pass completed request by request', () => {
  it('keeps a QD1 reader in the deep reader’s passes: its reads take as long as the deep ones', () => {
    const r = run(1.3)
    expect(r.reader / r.deep).toBeGreaterThan(0.9)
    expect(r.reader / r.deep).toBeLessThan(1.1)
  })

  // what let the reader ahead before (cpu.ts backToIdle): the loop worker woken onto the reader's
  // CPU, behind it, while its own CPU stood idle — the reader reached the host ahead of the deep
  // reader's resubmissions, in a pass of its own every other read
  it('keeps the QD1 reader in the deep reader’s passes even when a pass completes at once', () => {
    const r = run(0)
    expect(r.reader / r.deep).toBeGreaterThan(0.9)
    expect(r.reader / r.deep).toBeLessThan(1.1)
  })
})
