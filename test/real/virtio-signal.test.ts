import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  completions,
  interruptCpu,
  perInterrupt,
  requestInterrupts,
  requestInterruptsPerCpu,
  virtioOf,
} from '../../src/main/services/real/virtio-signal'
import { initialVirtual } from '../../src/main/services/real/fit-virtual'
import type { FitPoint } from '../../src/main/services/real/fit-virtual'
import type { QueueFacts } from '../../src/main/services/real/queue-facts'
import { loopFacts } from '../helpers/queue-facts'
import { LatencyHistogram } from '../../src/shared/metrics/histogram'

// How the fingerprint tells a host that signals per pass over its queue (Firecracker's block
// device) from one that signals each completion: completions per interrupt of the virtio disk.
const INTERRUPTS = `           CPU0       CPU1
 32:      21209          0 PCI-MSIX-0000:00:01.0   4-edge      virtio0-reporting_vq
 35:          0          2 PCI-MSIX-0000:00:02.0   0-edge      virtio1-config
 36:        100   64606194 PCI-MSIX-0000:00:02.0   1-edge      virtio1-req.0
 37:          7          3 PCI-MSIX-0000:00:02.0   2-edge      virtio1-req.1
 38:          0      35581 PCI-MSIX-0000:00:03.0   1-edge      virtio2-input.0
`

describe('completions per interrupt of a virtio disk', () => {
  it('counts the request queues’ interrupts of one virtio device, over every CPU', () => {
    expect(requestInterrupts(INTERRUPTS, 'virtio1')).toBe(100 + 64606194 + 7 + 3)
    expect(requestInterrupts(INTERRUPTS, 'virtio2')).toBe(0)
    expect(requestInterrupts(INTERRUPTS, 'virtio9')).toBe(0)
  })

  it('counts them per CPU, and names the CPU that takes nine in ten of them', () => {
    expect(requestInterruptsPerCpu(INTERRUPTS, 'virtio1')).toEqual([107, 64606197])
    const at = (perCpu: number[]) => ({ interrupts: 0, completions: 0, perCpu })
    expect(interruptCpu(at([100, 1000]), at([150, 9000]))).toEqual({ cpu: 1, share: 8000 / 8050 })
    // spread over both: no one CPU
    expect(interruptCpu(at([0, 0]), at([400, 600]))).toBeNull()
    expect(interruptCpu(null, at([1, 1]))).toBeNull()
    expect(interruptCpu(at([5, 5]), at([5, 5]))).toBeNull()
  })

  it('reads completed reads and writes from the disk’s stat line', () => {
    expect(completions('  42775  0  342200  2000  95469  0  763752  3000  0  100  5000')).toBe(42775 + 95469)
  })

  it('divides completions by interrupts between two readings', () => {
    expect(
      perInterrupt({ interrupts: 100, completions: 1000 }, { interrupts: 9523, completions: 180621 }),
    ).toBeCloseTo(19.06, 1)
    expect(perInterrupt(null, { interrupts: 1, completions: 1 })).toBeNull()
    expect(perInterrupt({ interrupts: 5, completions: 5 }, { interrupts: 5, completions: 9 })).toBeNull()
  })

  describe('the virtio device behind a disk', () => {
    let dir = ''
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'virtio-'))
      process.env.IOSCHED_LAB_SYSFS_BLOCK = join(dir, 'block')
      mkdirSync(join(dir, 'devices', 'pci0000:00', '0000:00:02.0', 'virtio1'), { recursive: true })
      mkdirSync(join(dir, 'devices', 'nvme0'), { recursive: true })
      mkdirSync(join(dir, 'block', 'vda'), { recursive: true })
      mkdirSync(join(dir, 'block', 'nvme0n1'), { recursive: true })
      symlinkSync(
        join(dir, 'devices', 'pci0000:00', '0000:00:02.0', 'virtio1'),
        join(dir, 'block', 'vda', 'device'),
      )
      symlinkSync(join(dir, 'devices', 'nvme0'), join(dir, 'block', 'nvme0n1', 'device'))
    })
    afterEach(() => {
      delete process.env.IOSCHED_LAB_SYSFS_BLOCK
      rmSync(dir, { recursive: true, force: true })
    })
    it('follows /sys/block/X/device to virtioN, and says null for another kind', () => {
      expect(virtioOf('vda')).toBe('virtio1')
      expect(virtioOf('nvme0n1')).toBeNull()
      expect(virtioOf('missing')).toBeNull()
    })
  })
})

describe('the preset says whether the host signals per pass', () => {
  const hist = (us: number) => {
    const h = new LatencyHistogram()
    for (let i = 0; i < 100; i++) h.record(us * 1000 + i * 100)
    return h.toJSON()
  }
  const point = (name: FitPoint['name'], iops: number, us: number): FitPoint => ({
    name,
    iops,
    MBps: (iops * 4096) / 1e6,
    latency: hist(us),
    fioCpuUs: null,
    busyCpus: null,
  })
  const points: FitPoint[] = [
    point('qd1-randread', 17000, 57),
    point('qd32-randread', 62000, 500),
    point('qd1-randwrite', 11000, 88),
    point('qd32-randwrite', 40000, 800),
    { ...point('seq-read', 1500, 2600), MBps: 1500 },
    { ...point('seq-write', 3000, 1300), MBps: 3000 },
  ]
  const facts = (perInterrupt?: number): QueueFacts =>
    loopFacts({
      device: 'loop0',
      ...(perInterrupt === undefined ? {} : { signal: { disk: 'vda', perInterrupt, during: 'QD32 reads' } }),
      sources: { writeCache: 'w', wbtLatUs: 'l' },
    })
  it('from the completions per interrupt, in the depth-law model; with the queue’s write cache and wbt target', () => {
    const many = initialVirtual(points, facts(19), 2 ** 30, undefined, true)
    expect(many.values.signalPerPass).toBe(true)
    expect(many.sources.signalPerPass).toMatch(/19 completions per interrupt of vda/)
    expect(many.values.writeCache).toBe(true)
    expect(many.values.wbtLatUs).toBe(2000)
    expect(initialVirtual(points, facts(1.1), 2 ** 30, undefined, true).values.signalPerPass).toBe(false)
    // not measured, or the lane model: left to the preset
    expect(initialVirtual(points, facts(), 2 ** 30, undefined, true).values.signalPerPass).toBeUndefined()
    expect(initialVirtual(points, facts(19), 2 ** 30, undefined, false).values.signalPerPass).toBeUndefined()
  })
})
