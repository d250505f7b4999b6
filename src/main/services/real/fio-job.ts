import { runSeed } from '../../../shared/experiment/runner'
import type { ResolvedProcess, ResolvedSpec } from '../../../shared/experiment/resolved'
import type { FilePlace } from './file-layout'
import { layoutFiles } from './file-layout'
import { fioValue } from './fio-size'
import { fioTime } from './fio-time'

/** One fio job (INI section) and what the lab needs to read its results back. */
export interface FioJobEntry {
  section: string
  /** The spec's process name, with `/i` for the i-th of several (as the simulator names them). */
  process: string
  options: [string, string][]
  /** Bytes it must move to count as finished (0 = open-ended: it runs until the experiment stops). */
  plannedBytes: number
  /**
   * The job's own runtime, ms, when it ends by time on its own before the run's limit (a fio
   * workload's `runtime`, time-based or not): running that long is finishing, as the simulated
   * job exits then. 0 = only the run's time limit ends it, which is not finishing.
   */
  ownRuntimeMs: number
  startSeconds: number
  readsOnly: boolean
}

/** A spec turned into a fio job file for one real run. */
export interface FioJobPlan {
  text: string
  jobs: FioJobEntry[]
  /** Every job only reads: fio runs with --readonly, and an in-use device is acceptable. */
  readOnly: boolean
  /** What could not be carried over exactly, said plainly. */
  notes: string[]
  places: FilePlace[]
}

export interface FioTarget {
  /** `/dev/loop0`, or a file target's test file */
  path: string
  sizeBytes: number
  description: string
  /** `file`: a test file on a file system (its ranges start at byte 0; fio's invalidate is fadvise's). */
  kind?: 'scratch-loop' | 'device' | 'file'
}

export interface TranslateOptions {
  /** The run's time limit (default: the spec's stop.maxSeconds). */
  maxSeconds?: number
  /** fio ramp_time: seconds of I/O left out of the statistics. */
  rampSeconds?: number
  repetition?: number
}

/** A spec problem that stops the translation (files that do not fit, an unknown workload …). */
export class TranslationError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'))
    this.name = 'TranslationError'
  }
}

interface Ctx {
  target: FioTarget
  places: Map<string, FilePlace>
  notes: string[]
  problems: string[]
}

interface Draft {
  suffix: string
  options: [string, string][]
  plannedBytes: number
  readsOnly: boolean
}

type Translator = (p: ResolvedProcess, c: Ctx) => Draft[]

/** A spec file's byte range, or the whole device for "/dev". */
function region(c: Ctx, file: string, proc: string): FilePlace {
  if (file === '/dev') return { name: '/dev', offset: 0, size: c.target.sizeBytes }
  const p = c.places.get(file)
  if (!p) {
    c.problems.push(`process "${proc}": file "${file}" has no place on the device`)
    return { name: file, offset: 0, size: 0 }
  }
  return p
}

/** fio's filename: a colon separates several files, so one in the name is escaped. */
const dev = (c: Ctx): [string, string] => ['filename', c.target.path.replace(/:/g, '\\:')]

/**
 * dd, cat and the simulator's random reader never drop the page cache; fio does by default
 * (invalidate=1: BLKFLSBUF on the block device at open and before each pass), so their jobs say not to.
 */
const KEEP_CACHE: [string, string] = ['invalidate', '0']

const dd: Translator = (p, c) => {
  const v = p.params
  const bs = v.bs as number
  const file = (v.file as string) || `${p.name}.dd`
  const r = region(c, file, p.name)
  const write = v.op === 'write'
  const count = v.count as number
  const o: [string, string][] = [
    dev(c),
    ['rw', write ? 'write' : 'read'],
    ['bs', String(bs)],
    ['offset', String(r.offset + (v.skip as number) * bs)],
    ['size', String(count * bs)],
  ]
  if (v.direct) o.push(['direct', '1'])
  if (v.loop) o.push(['time_based', '1'])
  if (v.fsync && write) o.push(v.loop ? ['fsync', String(count)] : ['end_fsync', '1'])
  if (v.dsync && write) o.push(['fdatasync', '1']) // oflag=dsync: an fdatasync after every write
  o.push(KEEP_CACHE)
  return [{ suffix: '', options: o, plannedBytes: v.loop ? 0 : count * bs, readsOnly: !write }]
}

const cat: Translator = (p, c) => {
  const v = p.params
  const r = region(c, (v.file as string) || `${p.name}.cat`, p.name)
  const size = Math.min(v.size as number, r.size)
  const o: [string, string][] = [
    dev(c),
    ['rw', 'read'],
    ['bs', String(v.bs)],
    ['offset', String(r.offset)],
    ['size', String(size)],
    KEEP_CACHE,
  ]
  return [{ suffix: '', options: o, plannedBytes: size, readsOnly: true }]
}

const randomRead: Translator = (p, c) => {
  const v = p.params
  const bs = v.bs as number
  const r = region(c, (v.file as string) || `${p.name}.rr`, p.name)
  const size = Math.max(bs, Math.floor(Math.min(v.size as number, r.size) / bs) * bs)
  const dirty = v.dirtyShare as number
  const count = v.count as number
  const n = v.processes as number
  if (dirty > 0)
    c.notes.push(
      `process "${p.name}": dirtyShare ${dirty} is approximated by rw=randrw with rwmixread=${Math.round(100 / (1 + dirty))}: ` +
        'fio writes other random blocks at once, where the simulated reader dirties the block it read for writeback',
    )
  const out: Draft[] = []
  for (let i = 0; i < n; i++) {
    const o: [string, string][] = [
      dev(c),
      ['rw', dirty > 0 ? 'randrw' : 'randread'],
      ['bs', String(bs)],
      ['offset', String(r.offset)],
      ['size', String(size)],
      ['norandommap', '1'],
    ]
    if (dirty > 0) o.push(['rwmixread', String(Math.round(100 / (1 + dirty)))])
    const ios = Math.round(count * (1 + dirty))
    if (count > 0) o.push(['number_ios', String(ios)], ['io_size', String(ios * bs)])
    else o.push(['time_based', '1'])
    if (v.direct) o.push(['direct', '1'])
    if ((v.thinkUs as number) > 0) o.push(['thinktime', String(Math.round(v.thinkUs as number))])
    o.push(KEEP_CACHE)
    out.push({
      suffix: n > 1 ? `/${i}` : '',
      options: o,
      plannedBytes: count > 0 ? ios * bs : 0,
      readsOnly: dirty === 0,
    })
  }
  return out
}

const fioJob: Translator = (p, c) => {
  const v = p.params
  const bs = v.bs as number
  const n = v.numjobs as number
  const rw = v.rw as string
  const out: Draft[] = []
  for (let i = 0; i < n; i++) {
    const file = (v.filename as string) || `${p.name}.${i}.0`
    const r = region(c, file, p.name)
    const size = Math.max(bs, Math.floor(Math.min(v.size as number, r.size) / bs) * bs)
    const o: [string, string][] = [
      dev(c),
      ['rw', rw],
      ['bs', String(bs)],
      ['offset', String(r.offset)],
      ['size', String(size)],
      ['ioengine', String(v.ioengine)],
    ]
    if (['rw', 'readwrite', 'randrw'].includes(rw)) o.push(['rwmixread', String(v.rwmixread)])
    if ((v.iodepth as number) > 1) o.push(['iodepth', String(v.iodepth)])
    if (v.iodepth_batch_complete_min !== undefined && v.iodepth_batch_complete_min !== 1)
      o.push(['iodepth_batch_complete_min', String(v.iodepth_batch_complete_min)])
    if (v.iodepth_batch_complete_max)
      o.push(['iodepth_batch_complete_max', String(v.iodepth_batch_complete_max)])
    if (v.direct) o.push(['direct', '1'])
    if ((v.rate as number) > 0) o.push(['rate', String(v.rate)])
    if ((v.thinktime as number) > 0)
      o.push(
        ['thinktime', String(Math.round(v.thinktime as number))],
        ['thinktime_blocks', String(v.thinktime_blocks)],
      )
    if (v.time_based) o.push(['time_based', '1'])
    if ((v.runtime as number) > 0) o.push(['runtime', `${Math.round((v.runtime as number) * 1000)}ms`])
    // the job's own cache and sync semantics, in fio's own words (fio's defaults are left out)
    if ((v.ramp_time as number) > 0) o.push(['ramp_time', `${Math.round((v.ramp_time as number) * 1000)}ms`])
    if ((v.loops as number) > 1) o.push(['loops', String(v.loops)])
    if (!v.invalidate) o.push(['invalidate', '0'])
    if (v.end_fsync) o.push(['end_fsync', '1'])
    if (v.fadvise_hint !== undefined && v.fadvise_hint !== '1')
      o.push(['fadvise_hint', String(v.fadvise_hint)])
    if (v.fsync_on_close) o.push(['fsync_on_close', '1'])
    if ((v.fsync as number) > 0) o.push(['fsync', String(v.fsync)])
    if (i === 0 && v.invalidate && !v.direct && file !== '/dev' && c.target.kind !== 'file')
      c.notes.push(invalidateNote(p.name))
    out.push({
      suffix: n > 1 ? `/${i}` : '',
      options: o,
      plannedBytes: v.time_based ? 0 : size,
      readsOnly: rw === 'read' || rw === 'randread',
    })
  }
  return out
}

/**
 * The simulation drops a file's cached pages as fio does on a file (posix_fadvise DONTNEED over
 * its range); on the real run the file is a byte range of the block device, where fio flushes the
 * device's whole cache instead (BLKFLSBUF: writes back and waits, then drops).
 */
const invalidateNote = (proc: string): string =>
  `process "${proc}": its file is a byte range of the block device here, so fio's invalidate flushes the ` +
  'whole device cache (BLKFLSBUF: writes dirty pages back and waits) where the simulation, like fio on a ' +
  'file, drops the file’s range (posix_fadvise DONTNEED: writeback started, not waited for)'

const cpuHog: Translator = () => [
  {
    suffix: '',
    options: [
      ['ioengine', 'cpuio'],
      ['cpuload', '100'],
      ['time_based', '1'],
    ],
    plannedBytes: 0,
    readsOnly: true,
  },
]

/** One translator per workload type of the simulator's registry. */
const TRANSLATORS: Record<string, Translator> = {
  dd,
  cat,
  'random-read': randomRead,
  fio: fioJob,
  'cpu-hog': cpuHog,
}

export const translatableWorkloads = (): string[] => Object.keys(TRANSLATORS)

/** Section names fio accepts and we can map back: letters, digits and `_ . : / + -`. */
function sectionName(name: string, taken: Set<string>): string {
  let s = name.replace(/[^A-Za-z0-9_.:/+-]/g, '_').slice(0, 60) || 'job'
  if (s === 'global') s = 'global_'
  let k = s
  for (let i = 2; taken.has(k); i++) k = `${s}_${i}`
  taken.add(k)
  return k
}

/**
 * Translate the spec's workload into a fio job file for `target`: one section per process
 * (several for a multi-process workload), its files as byte ranges of the raw device, start
 * delays, I/O priorities, nice levels, the run's time limit, and — when the run stops with one
 * process — `exitall` on it so the others stop too. Throws a TranslationError for what cannot run.
 */
export function translateSpec(spec: ResolvedSpec, target: FioTarget, o: TranslateOptions = {}): FioJobPlan {
  const lay = layoutFiles(spec.files, target.sizeBytes, target.kind === 'file')
  const c: Ctx = { target, places: lay.places, notes: [...lay.notes], problems: [...lay.problems] }
  const maxSeconds = o.maxSeconds ?? spec.stop.maxSeconds
  const maxMs = Math.round(maxSeconds * 1000)
  const jobs: FioJobEntry[] = []
  const taken = new Set<string>()
  for (const p of spec.processes) {
    const t = TRANSLATORS[p.type]
    if (!t) {
      c.problems.push(
        `process "${p.name}": workload type "${p.type}" has no fio translation (translatable: ${translatableWorkloads().join(', ')})`,
      )
      continue
    }
    if (p.startMs >= maxMs) {
      c.notes.push(
        `process "${p.name}" starts at ${p.startMs} ms, after the run's limit of ${maxSeconds} s: left out`,
      )
      continue
    }
    for (const d of t(p, c)) {
      const { options, ownRuntimeMs } = withCommon(d.options, p, maxMs)
      jobs.push({
        section: sectionName(p.name + d.suffix, taken),
        process: p.name + d.suffix,
        options,
        plannedBytes: d.plannedBytes,
        ownRuntimeMs,
        startSeconds: p.startMs / 1000,
        readsOnly: d.readsOnly,
      })
    }
  }
  if (jobs.length === 0 && c.problems.length === 0)
    c.problems.push('no process of the spec can run before the time limit')
  if (c.problems.length > 0) throw new TranslationError(c.problems)
  stopRule(spec, jobs, c.notes, maxSeconds)
  c.notes.push(
    `device preset "${spec.device.preset}" is replaced by ${target.description}; host preset "${spec.host.preset}" ` +
      '(memory, dirty ratios, read-ahead, CPU scheduler) is not applied: the real run uses this machine’s settings',
  )
  const readOnly = jobs.every((j) => j.readsOnly)
  const global: [string, string][] = [
    // jobs as threads of one fio process: fio's forked jobs start sessions of their own and would
    // outlive a killed fio; threads die with it (each still has its own I/O context, nice and ioprio)
    ['thread', '1'],
    ['ioengine', 'psync'],
    ['randseed', String(runSeed(spec, o.repetition ?? 0))],
  ]
  if (o.rampSeconds && o.rampSeconds > 0) {
    global.push(['ramp_time', `${Math.round(o.rampSeconds * 1000)}ms`])
    c.notes.push(
      `ramp_time ${o.rampSeconds} s: the first ${o.rampSeconds} s of every job are left out of its statistics`,
    )
  }
  const text = [
    `; iosched-lab: "${spec.name}" for fio, repetition ${(o.repetition ?? 0) + 1}, on ${target.description}`,
    ...c.notes.map((n) => `; note: ${n}`),
    '',
    '[global]',
    ...global.map(([k, v]) => `${k}=${v}`),
    ...jobs.flatMap((j) => [
      '',
      `; process "${j.process}"`,
      `[${j.section}]`,
      // sizes as people write them (bs=128k): fio reads them as the same bytes
      ...j.options.map(([k, v]) => `${k}=${fioTime(k, fioValue(k, v))}`),
    ]),
    '',
  ].join('\n')
  return { text, jobs, readOnly, notes: c.notes, places: [...lay.places.values()] }
}

/**
 * Add start delay, I/O priority and nice, and cap the job's runtime at the time left until the
 * run's limit, less its ramp_time (a shorter runtime of its own, from a fio workload, stays:
 * `ownRuntimeMs`).
 */
function withCommon(
  own: [string, string][],
  p: ResolvedProcess,
  maxMs: number,
): { options: [string, string][]; ownRuntimeMs: number } {
  // ramp_time comes before the runtime (fio runs ramp_time + runtime): both fit the time left
  const ramp = own.find(([k]) => k === 'ramp_time')
  const left = Math.max(1, Math.round(maxMs - p.startMs) - (ramp ? parseInt(ramp[1], 10) : 0))
  const ownOption = own.find(([k]) => k === 'runtime')
  const ownRuntime = ownOption ? parseInt(ownOption[1], 10) : 0
  const ownRuntimeMs = ownRuntime > 0 && ownRuntime <= left ? ownRuntime : 0
  const o = own.filter(([k]) => k !== 'runtime')
  if (p.startMs > 0) o.push(['startdelay', `${Math.round(p.startMs)}ms`])
  if (p.ioClass !== 0) o.push(['prioclass', String(p.ioClass)], ['prio', String(p.ioLevel)])
  if (p.nice !== 0) o.push(['nice', String(p.nice)])
  o.push(['runtime', `${ownRuntimeMs || left}ms`])
  return { options: o, ownRuntimeMs }
}

/**
 * The simulator stops when the spec's stop processes have finished. fio ends when every job has:
 * when one job is the whole stop set, `exitall` on it ends the others with it; otherwise the
 * others run to the time limit.
 */
function stopRule(spec: ResolvedSpec, jobs: FioJobEntry[], notes: string[], maxSeconds: number): void {
  const stopping = jobs.filter((j) => spec.stop.processes.includes(j.process.replace(/\/\d+$/, '')))
  const others = jobs.filter((j) => !stopping.includes(j))
  if (others.length === 0 || stopping.length === 0) return
  if (stopping.length === 1) {
    stopping[0].options.push(['exitall', '1'])
    return
  }
  notes.push(
    `the run stops in the spec when ${spec.stop.processes.join(', ')} have finished; fio can only end the other jobs ` +
      `when one job finishes (exitall), so they run to the time limit (${maxSeconds} s) instead`,
  )
}
