import type { WorkEstimate } from './work-estimate'

/**
 * How much work one request to simulate may ask for, as data: each limit with its default, unit
 * and meaning (docs/spec.md, "Work limits"). A spec beyond one is refused before any simulation
 * starts, with the reason; `run --allow-large` (the app's "Allow large runs", the API's
 * `allowLarge`) runs it anyway.
 */
export interface WorkLimit {
  name: WorkLimitName
  default: number
  unit: string
  meaning: string
  /** The spec path the limit is most about (where the app points). */
  path: string
}

export type WorkLimitName =
  'runs' | 'processesPerRun' | 'requestsPerRun' | 'requests' | 'runMemoryMiB' | 'resultsMemoryMiB'

export const WORK_LIMITS: readonly WorkLimit[] = [
  {
    name: 'runs',
    default: 10_000,
    unit: 'runs',
    meaning:
      'simulations in one request: scheduler entries × repetitions (the cap maxRepetitions when repeating until stable) × sweep points',
    path: 'repetitions',
  },
  {
    name: 'processesPerRun',
    default: 4096,
    unit: 'processes',
    meaning: 'simulated processes in one run, every instance counted (processes, numjobs)',
    path: 'workload.processes',
  },
  {
    name: 'requestsPerRun',
    default: 1e9,
    unit: 'requests',
    meaning:
      'I/O requests one run may simulate (estimated): about 15–30 minutes of CPU at the simulator’s 0.5–1.4 million requests a second',
    path: 'workload.stop.maxSeconds',
  },
  {
    name: 'requests',
    default: 1e10,
    unit: 'requests',
    meaning: 'I/O requests all runs together may simulate (estimated)',
    path: 'repetitions',
  },
  {
    name: 'runMemoryMiB',
    default: 1024,
    unit: 'MiB',
    meaning: 'memory one simulation may take (estimated): each runs in a child process of its own',
    path: 'workload.processes',
  },
  {
    name: 'resultsMemoryMiB',
    default: 2048,
    unit: 'MiB',
    meaning:
      'memory the results of all runs may take (estimated): they are kept together by the CLI or the app',
    path: 'repetitions',
  },
]

/** A limit the estimate goes beyond: which, by how much, and why that matters. */
export interface WorkExcess {
  limit: WorkLimit
  estimate: number
  /** `up to 6.4e+13 I/O requests in one run (limit 1e+9): …`. */
  message: string
}

/** A work figure as people read it: `1e12`, `65,536`, `0.5`, `unbounded`. */
export const workNumber = (v: number): string =>
  !Number.isFinite(v)
    ? 'unbounded'
    : v >= 1e6
      ? v
          .toExponential(2)
          .replace(/\.?0+e/, 'e')
          .replace('e+', 'e')
      : v >= 100
        ? Math.round(v).toLocaleString('en-US')
        : String(Number(v.toPrecision(3)))

/** Every limit the estimate goes beyond (empty: it is within all of them). */
export function workExcesses(e: WorkEstimate, limits: readonly WorkLimit[] = WORK_LIMITS): WorkExcess[] {
  const out: WorkExcess[] = []
  for (const limit of limits) {
    const v = estimateOf(e, limit.name)
    if (!(v > limit.default)) continue
    // one run: its own limit says it already
    if (limit.name === 'requests' && e.runs <= 1 && out.some((x) => x.limit.name === 'requestsPerRun'))
      continue
    out.push({
      limit,
      estimate: v,
      message: `${describe(e, limit.name, v)}: more than the limit of ${workNumber(limit.default)} ${limit.unit} (${limit.meaning})`,
    })
  }
  return out
}

function estimateOf(e: WorkEstimate, name: WorkLimitName): number {
  switch (name) {
    case 'runs':
      return e.runs
    case 'processesPerRun':
      return e.maxProcessesPerRun
    case 'requestsPerRun':
      return e.maxRequestsPerRun
    case 'requests':
      return e.requests
    case 'runMemoryMiB':
      return e.maxRunMemoryMiB
    case 'resultsMemoryMiB':
      return e.resultsMemoryMiB
  }
}

function describe(e: WorkEstimate, name: WorkLimitName, v: number): string {
  switch (name) {
    case 'runs':
      return `${workNumber(v)} runs`
    case 'processesPerRun':
      return `${workNumber(v)} simulated processes in one run`
    case 'requestsPerRun':
      return e.requestsBoundBy === 'time'
        ? `up to ${workNumber(v)} I/O requests in one run: as many as the device can take in its time limit of ${workNumber(e.maxSimSeconds)} s simulated`
        : `up to ${workNumber(v)} I/O requests in one run: the I/O its processes ask for, which its time limit of ${workNumber(e.maxSimSeconds)} s simulated does not cut short`
    case 'requests':
      return `up to ${workNumber(v)} I/O requests in all ${workNumber(e.runs)} runs`
    case 'runMemoryMiB':
      return `about ${workNumber(v)} MiB for one simulation (${workNumber(e.maxProcessesPerRun)} processes)`
    case 'resultsMemoryMiB':
      return `about ${workNumber(v)} MiB for the results of ${workNumber(e.runs)} runs`
  }
}

/** The refusal, one line each: what the limits are for, every limit passed, and how to run it anyway. */
export function beyondLimits(over: readonly WorkExcess[], hint: string): string[] {
  return [
    `the run is refused before it starts: its estimated work is beyond the limits (docs/spec.md, "Work limits"); ${hint}`,
    ...over.map((x) => x.message),
  ]
}
