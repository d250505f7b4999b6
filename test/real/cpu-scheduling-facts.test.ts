// The host capture tells the simulated companion how this kernel schedules CPUs: EEVDF with its
// slice from 6.6 on, CFS before, and a VM kernel's packing of tasks onto few vCPUs where it is set.
import { describe, expect, it } from 'vitest'
import { cpuSchedulingFacts } from '../../src/main/services/real/host-capture'

describe('the kernel’s CPU scheduling, captured', () => {
  it('is EEVDF from Linux 6.6, its slice scaled by the CPUs as the kernel does (at most 8)', () => {
    expect(cpuSchedulingFacts('6.18.44-fc-v1272', 2, null).overrides).toEqual({
      cpuPolicy: 'eevdf',
      minGranularityMs: 1.5,
    })
    expect(cpuSchedulingFacts('6.6.0', 1, null).overrides.minGranularityMs).toBe(0.75)
    expect(cpuSchedulingFacts('7.1.0', 64, null).overrides.minGranularityMs).toBe(3)
  })

  it('leaves a CFS kernel to the preset', () => {
    expect(cpuSchedulingFacts('6.5.13', 2, null).overrides).toEqual({})
    expect(cpuSchedulingFacts('5.15.0-91-generic', 8, null).overrides).toEqual({})
  })

  it('packs woken tasks where the VM kernel says it packs vCPUs, and says where it read that', () => {
    const on = cpuSchedulingFacts('6.18.0', 2, '15\n')
    expect(on.overrides.wakePacking).toBe(true)
    expect(on.sources.wakePacking).toMatch(/sched_vcpu_pack = 15/)
    expect(cpuSchedulingFacts('6.18.0', 2, '0\n').overrides.wakePacking).toBeUndefined()
    expect(cpuSchedulingFacts('6.18.0', 2, null).overrides.wakePacking).toBeUndefined()
  })
})
