import type { RealPreview, RealRunInput, RealTargetInput } from '../../../shared/api/real-contract'
import type { ResolvedSpec } from '../../../shared/experiment/resolved'
import { engineByName } from '../real/engines'
import { bytesNeeded } from '../real/file-layout'
import { shellQuote } from '../real/fio-command'
import type { RealRunOptions } from '../real/real-backend'
import type { RealRunPreview } from '../real/real-plan'
import { previewRealRun } from '../real/real-plan'
import { resolveRealSpec } from '../real/real-spec'
import { labStateDir } from '../real/state-dir'
import type { TargetRequest } from '../real/target'
import { judgeTarget } from '../real/target'

const MiB = 1 << 20

export function targetRequest(t: RealTargetInput): TargetRequest {
  if (t.kind === 'dir') return { kind: 'dir', dir: t.dir.trim() }
  return t.kind === 'scratch'
    ? { kind: 'scratch', sizeBytes: t.sizeMiB === undefined ? undefined : t.sizeMiB * MiB }
    : { kind: 'device', name: t.name.replace(/^\/dev\//, ''), confirm: t.confirm?.trim() }
}

export function runOptions(input: RealRunInput): RealRunOptions {
  return {
    target: targetRequest(input.target),
    engine: input.engine,
    maxSeconds: input.maxSeconds,
    rampSeconds: input.rampSeconds,
    fioArgs: input.fioArgs ?? [],
    dropCaches: input.dropCaches !== false,
    trace: input.trace !== false,
  }
}

/** Would this target be refused? The run's own judgement (target.ts); no root needed. */
export async function checkTarget(
  t: RealTargetInput,
  readOnly: boolean,
  spec: ResolvedSpec,
): Promise<{ ok: true; description: string; warnings: string[] } | { ok: false; reason: string }> {
  const j = await judgeTarget(targetRequest(t), {
    readOnly,
    neededBytes: bytesNeeded(spec.files, t.kind === 'dir'),
    stateDir: labStateDir(),
  })
  if (j.refusal !== null || !j.facts) return { ok: false, reason: j.refusal ?? 'no target' }
  return { ok: true, description: j.facts.description, warnings: j.facts.warnings }
}

/** The real run's plan for an app request: the job, and every reason the run would refuse. */
export function planOf(spec: ResolvedSpec, input: RealRunInput): Promise<RealRunPreview> {
  return previewRealRun(spec, {
    target: targetRequest(input.target),
    engine: input.engine === undefined ? undefined : engineByName(input.engine),
    maxSeconds: input.maxSeconds,
    rampSeconds: input.rampSeconds,
    fioArgs: input.fioArgs ?? [],
  })
}

/** The job file and exact command of a real run, and every reason it would be refused. */
export async function previewReal(input: RealRunInput): Promise<RealPreview> {
  const out: RealPreview = {
    ok: false,
    issues: [],
    problems: [],
    jobFile: '',
    command: '',
    notes: [],
    skipped: [],
    kernelOnly: [],
    target: { description: '', warnings: [] },
  }
  const v = resolveRealSpec(input.spec)
  if (!v.ok) return { ...out, issues: v.issues }
  const p = await planOf(v.spec, input)
  return {
    ...out,
    ok: p.refusals.length === 0,
    problems: p.refusals,
    jobFile: p.jobFile,
    command: p.command.length > 0 ? shellQuote(p.command) : '',
    notes: p.notes,
    skipped: p.skipped,
    kernelOnly: v.kernelOnly,
    target: p.target ? { description: p.target.description, warnings: p.target.warnings } : out.target,
  }
}
