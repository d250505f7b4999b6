// Planning a real run: what the run checks before it touches anything, shared by the run itself
// and by its preview (`run --real --dry-run/--show-job`, the app's previewRealRun), so the preview
// shows the job that would run — on the device's real size — and refuses what the run refuses.
import type { ResolvedSpec } from '../../../shared/experiment/resolved'
import { bytesNeeded } from './file-layout'
import { checkExtraFioArgs } from './fio-command'
import { fioEngine } from './fio-engine'
import { TranslationError } from './fio-job'
import type { TunableWrite } from './kernel-schedulers'
import { mapScheduler } from './kernel-schedulers'
import type { RealExperimentOptions } from './real-experiment'
import { labStateDir } from './state-dir'
import type { TargetFacts, TargetLookup } from './target'
import { judgeTarget } from './target'

export interface MappedEntry {
  index: number
  kernel: string
  writes: TunableWrite[]
  notes: string[]
}

/** Map every scheduler entry onto the kernel; entries with no kernel equivalent are skipped, with the reason. */
export function mapEntries(spec: ResolvedSpec): {
  mapped: MappedEntry[]
  skipped: { label: string; reason: string }[]
} {
  const mapped: MappedEntry[] = []
  const skipped: { label: string; reason: string }[] = []
  spec.schedulers.forEach((s, index) => {
    const m = mapScheduler(s.name, s.tunables)
    if (m.ok) mapped.push({ index, kernel: m.kernel, writes: m.writes, notes: m.notes })
    else skipped.push({ label: s.label, reason: m.reason })
  })
  return { mapped, skipped }
}

/** Problems of the request itself: extra fio options, the sampling interval, no runnable entry. */
export function requestProblems(spec: ResolvedSpec, o: RealExperimentOptions): string[] {
  const problems = checkExtraFioArgs(o.fioArgs ?? [])
  const sampleMs = o.sampleMs ?? 500
  if (!(sampleMs > 0 && sampleMs <= 1000))
    problems.push(`the sampling interval must be in (0, 1000] ms, got ${sampleMs}`)
  if (mapEntries(spec).mapped.length === 0)
    problems.push('no scheduler entry of the spec can run on this kernel')
  if (o.target?.kind === 'dir' && o.engine && o.engine.name !== 'fio')
    problems.push(
      `a test file in a directory is run with fio only (${o.engine.name} runs on a device: a scratch loop device or a whole one)`,
    )
  return problems
}

/**
 * Does the workload only read? That decides which devices are acceptable, so the engine is asked
 * with a stand-in target as big as can be. Throws a TranslationError for a spec it cannot run.
 */
export function workloadReadsOnly(spec: ResolvedSpec, o: RealExperimentOptions): boolean {
  return (o.engine ?? fioEngine).plan(
    spec,
    { path: '/dev/null', sizeBytes: Number.MAX_SAFE_INTEGER, description: 'probe' },
    { repetition: 0, workDir: 'WORKDIR', maxSeconds: o.maxSeconds },
  ).readOnly
}

/** What a real run would do, and every reason it would refuse to. */
export interface RealRunPreview {
  /** The job file (fio) or command lines, as run for repetition 1; '' when none can be made. */
  jobFile: string
  /** argv; empty when no job can be made. */
  command: string[]
  notes: string[]
  skipped: { label: string; reason: string }[]
  readOnly: boolean
  /** The target as the run would see it (null: the device does not exist). */
  target: TargetFacts | null
  /** Why the real run would refuse (empty: it would run). */
  refusals: string[]
}

/**
 * The real run's planning without its actions: the same request checks, the same target judgement
 * (device safety, other lab processes, size — a scratch device is shown as /dev/loopN), and the
 * engine's plan on that target's real size (a `/dev` region is the whole device). Needs no root
 * and touches nothing. Prerequisites (root, fio) are not among the refusals: the preview is meant
 * to run without them.
 */
export async function previewRealRun(
  spec: ResolvedSpec,
  o: RealExperimentOptions = {},
  lookup: TargetLookup = {},
): Promise<RealRunPreview> {
  const engine = o.engine ?? fioEngine
  const { mapped, skipped } = mapEntries(spec)
  const out: RealRunPreview = {
    jobFile: '',
    command: [],
    notes: [],
    skipped,
    readOnly: false,
    target: null,
    refusals: requestProblems(spec, o),
  }
  try {
    out.readOnly = workloadReadsOnly(spec, o)
  } catch (e) {
    if (!(e instanceof TranslationError)) throw e
    out.refusals.push(...e.problems)
    return out
  }
  const judged = await judgeTarget(
    o.target ?? { kind: 'scratch' },
    {
      readOnly: out.readOnly,
      neededBytes: bytesNeeded(spec.files, o.target?.kind === 'dir'),
      stateDir: o.stateDir ?? labStateDir(),
    },
    lookup,
  )
  out.target = judged.facts
  if (judged.refusal !== null) out.refusals.push(judged.refusal)
  if (!judged.facts) return out
  try {
    const plan = engine.plan(spec, judged.facts, {
      repetition: 0,
      workDir: 'WORKDIR',
      maxSeconds: o.maxSeconds,
      rampSeconds: o.rampSeconds,
      extraArgs: o.fioArgs,
    })
    Object.assign(out, {
      jobFile: plan.jobFile,
      command: plan.command,
      notes: [...new Set([...mapped.flatMap((m) => m.notes), ...plan.notes])],
    })
  } catch (e) {
    if (!(e instanceof TranslationError)) throw e
    out.refusals.push(...e.problems)
  }
  return out
}
