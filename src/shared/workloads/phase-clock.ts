import type { PhaseResult, Sys } from '../host/program'
import { SECOND } from '../sim/time'

/** Times the phases of a tool that reports per phase (iozone's tests, bonnie++'s columns). */
export class PhaseClock {
  private readonly done: PhaseResult[] = []
  private name = ''
  private t0 = 0
  private cpu0 = 0
  bytes = 0
  ops = 0

  begin(sys: Sys, name: string): void {
    this.name = name
    this.t0 = sys.now
    this.cpu0 = sys.cpuUsed
    this.bytes = 0
    this.ops = 0
  }

  end(sys: Sys): void {
    this.done.push({
      name: this.name,
      bytes: this.bytes,
      ops: this.ops,
      seconds: (sys.now - this.t0) / SECOND,
      cpuSeconds: (sys.cpuUsed - this.cpu0) / SECOND,
    })
  }

  results(): PhaseResult[] {
    return this.done.slice()
  }
}
