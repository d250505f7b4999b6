import { describe, expect, it } from 'vitest'
import { TRACE_COST_WARN, traceCostNote } from '../../src/main/services/real/trace-cost'

// A traced real run says what reading its trace took of the machine, and from a tenth of its CPUs
// on, that a workload short of CPU ran slower for it (the buffered writer's reader on 2 vCPUs).
describe("the note on a trace's cost", () => {
  it('gives the events, their rate, the losses and the share of the CPUs', () => {
    const n = traceCostNote({ events: 40_000, lost: 0, cpuSeconds: 0.2, seconds: 4, cpus: 2 })
    expect(n).toBe(
      "traced 40000 block events (10000/s); reading them took the lab 0.2 CPU-seconds, 3 % of the machine's 2 CPUs over the run",
    )
  })

  it('warns, naming the way to measure untraced, when the reading took a tenth of the CPUs or more', () => {
    const heavy = traceCostNote({ events: 3_000_000, lost: 1_200_000, cpuSeconds: 2.8, seconds: 4, cpus: 2 })
    expect(heavy).toMatch(
      /^traced 3000000 block events \(750000\/s, 1200000 lost\); .* 35 % of the machine's 2 CPUs/,
    )
    expect(heavy).toMatch(/a workload short of CPU runs slower beside it .*`--no-trace`/)
    const edge = traceCostNote({ events: 100, lost: 0, cpuSeconds: TRACE_COST_WARN * 8, seconds: 4, cpus: 2 })
    expect(edge).toMatch(/--no-trace/)
    expect(traceCostNote({ events: 100, lost: 0, cpuSeconds: 0.79, seconds: 4, cpus: 2 })).not.toMatch(
      /--no-trace/,
    )
  })

  it('says nothing of a trace that read nothing', () => {
    expect(traceCostNote({ events: 0, lost: 0, cpuSeconds: 0.1, seconds: 4, cpus: 2 })).toBeNull()
    expect(traceCostNote({ events: 10, lost: 0, cpuSeconds: 0.1, seconds: 0, cpus: 2 })).toBeNull()
  })
})
