import { describe, expect, it } from 'vitest'
import {
  allocatesAsItRuns,
  REPORTING_SETTLE_MS,
  settleFreePageReporting,
} from '../../src/main/services/real/page-cache'
import { resolveSpec } from '../../src/shared/experiment/validate'

// Before each real run the lab waits for free page reporting to hand the memory it just freed to
// the hypervisor, so that no run starts with the previous run's pages still warm.
describe('settling free page reporting before a real run', () => {
  const fakeSleep = () => {
    const slept: number[] = []
    return { slept, sleep: async (ms: number) => void slept.push(ms) }
  }

  it('waits the reporting delay on a VM that reports, and says so', async () => {
    const { slept, sleep } = fakeSleep()
    const phases: string[] = []
    const note = await settleFreePageReporting({
      cancelled: () => false,
      phase: (p) => phases.push(p),
      reporting: { on: true, from: 'virtio-balloon with VIRTIO_BALLOON_F_REPORTING' },
      sleep,
    })
    expect(slept.reduce((a, b) => a + b, 0)).toBe(REPORTING_SETTLE_MS)
    expect(REPORTING_SETTLE_MS).toBeGreaterThan(2000) // PAGE_REPORTING_DELAY is 2 s
    expect(phases).toEqual([expect.stringContaining('free page reporting')])
    expect(note).toMatch(/reported to the hypervisor \(virtio-balloon with VIRTIO_BALLOON_F_REPORTING\)/)
  })

  it('does not wait where nothing is reported', async () => {
    const { slept, sleep } = fakeSleep()
    const note = await settleFreePageReporting({
      cancelled: () => false,
      reporting: { on: false, from: 'no virtio-balloon' },
      sleep,
    })
    expect(slept).toEqual([])
    expect(note).toBeNull()
  })

  it('stops waiting at a cancel', async () => {
    const { slept, sleep } = fakeSleep()
    let cancelled = false
    await settleFreePageReporting({
      cancelled: () => cancelled,
      reporting: { on: true, from: 'x' },
      sleep: async (ms) => {
        await sleep(ms)
        if (slept.length === 3) cancelled = true
      },
    })
    expect(slept.length).toBe(3)
  })
})

describe('which runs wait for it', () => {
  const spec = (processes: object[]) =>
    resolveSpec({
      device: { preset: 'ssd-sata-mlc' },
      workload: { processes, stop: { maxSeconds: 1 } },
      schedulers: ['none'],
    })
  it('those that allocate as they run: buffered I/O, or memory of their own', () => {
    const direct = { name: 'r', type: 'fio', params: { rw: 'randread', direct: true } }
    const buffered = { name: 'w', type: 'fio', params: { rw: 'write', direct: false } }
    expect(allocatesAsItRuns(spec([direct]))).toBe(false)
    expect(allocatesAsItRuns(spec([direct, buffered]))).toBe(true)
    expect(allocatesAsItRuns(spec([{ name: 'c', type: 'cat', params: {} }]))).toBe(true)
  })
})
