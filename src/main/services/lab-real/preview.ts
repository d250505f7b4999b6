import type { RealPreview, RealRunInput, RealTargetInput } from '../../../shared/api/real-contract'
import type { ResolvedSpec } from '../../../shared/experiment/resolved'
import { findBlockDevice } from '../real/block-devices'
import { checkDeviceTarget } from '../real/device-safety'
import { engineByName } from '../real/engines'
import { bytesNeeded } from '../real/file-layout'
import { checkExtraFioArgs, shellQuote } from '../real/fio-command'
import { TranslationError } from '../real/fio-job'
import type { RealRunOptions } from '../real/real-backend'
import { previewRealRun } from '../real/real-experiment'
import { resolveRealSpec } from '../real/real-spec'
import { scratchParentDir } from '../real/state-dir'
import type { TargetRequest } from '../real/target'
import { scratchSize, TargetRefused } from '../real/target'

const MiB = 1 << 20

export function targetRequest(t: RealTargetInput): TargetRequest {
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
  }
}

/** Would this target be refused? The same rules as the run applies (device-safety.ts); no root needed. */
export async function checkTarget(
  t: RealTargetInput,
  readOnly: boolean,
  spec: ResolvedSpec,
): Promise<{ ok: true; description: string; warnings: string[] } | { ok: false; reason: string }> {
  if (t.kind === 'scratch') {
    try {
      const size = scratchSize(t.sizeMiB === undefined ? undefined : t.sizeMiB * MiB, bytesNeeded(spec.files))
      return {
        ok: true,
        description: `a scratch loop device of ${Math.round(size / MiB)} MiB (a file of the lab's own in ${scratchParentDir()}, direct I/O), detached afterwards`,
        warnings: [],
      }
    } catch (e) {
      return { ok: false, reason: (e as Error).message }
    }
  }
  const name = t.name.replace(/^\/dev\//, '')
  const dev = await findBlockDevice(name)
  const c = checkDeviceTarget(dev, name, { readOnly, confirm: t.confirm?.trim() })
  if (!c.ok) return c
  return { ok: true, description: `${dev!.path} (${dev!.model ?? dev!.type})`, warnings: c.warnings }
}

/** Whether the run only reads (which devices it may use), or why the spec cannot become a job. */
export function planFacts(
  spec: ResolvedSpec,
  input: RealRunInput,
): { readOnly: boolean; problems: string[] } {
  try {
    const p = previewRealRun(spec, {
      target: targetRequest(input.target),
      engine: input.engine === undefined ? undefined : engineByName(input.engine),
      maxSeconds: input.maxSeconds,
      rampSeconds: input.rampSeconds,
      fioArgs: input.fioArgs ?? [],
    })
    return { readOnly: p.readOnly, problems: [] }
  } catch (e) {
    if (e instanceof TranslationError) return { readOnly: false, problems: e.problems }
    if (e instanceof TargetRefused) return { readOnly: false, problems: [e.message] }
    throw e
  }
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
  out.kernelOnly = v.kernelOnly
  out.problems.push(...checkExtraFioArgs(input.fioArgs ?? []))
  let readOnly = false
  try {
    const p = previewRealRun(v.spec, {
      target: targetRequest(input.target),
      engine: input.engine === undefined ? undefined : engineByName(input.engine),
      maxSeconds: input.maxSeconds,
      rampSeconds: input.rampSeconds,
      fioArgs: input.fioArgs ?? [],
    })
    Object.assign(out, {
      jobFile: p.jobFile,
      command: shellQuote(p.command),
      notes: p.notes,
      skipped: p.skipped,
    })
    readOnly = p.readOnly
    if (p.skipped.length === v.spec.schedulers.length)
      out.problems.push('no scheduler entry of the spec can run on this kernel')
  } catch (e) {
    if (e instanceof TranslationError) out.problems.push(...e.problems)
    else if (e instanceof TargetRefused) out.problems.push(e.message)
    else throw e
  }
  const t = await checkTarget(input.target, readOnly, v.spec)
  if (t.ok) out.target = { description: t.description, warnings: t.warnings }
  else out.problems.push(t.reason)
  out.ok = out.problems.length === 0
  return out
}
