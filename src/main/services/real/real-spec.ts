import type { ResolvedSpec } from '../../../shared/experiment/resolved'
import { validateSpec } from '../../../shared/experiment/validate'
import { findScheduler } from '../../../shared/schedulers/registry'
import type { ParamIssue, ParamValues } from '../../../shared/util/params'
import { checkKernelTunables, isKernelSchedulerName } from './kernel-schedulers'

export type RealSpecValidation =
  { ok: true; spec: ResolvedSpec; kernelOnly: string[] } | { ok: false; issues: ParamIssue[] }

/**
 * Validate a spec for a real run. Same rules as `validateSpec`, except that a scheduler entry may
 * name a kernel scheduler the simulator does not model yet (e.g. `kyber`, `bfq`): its tunables are
 * then checked against the kernel's sysfs names, and its label is returned in `kernelOnly` (such
 * entries run for real but cannot be simulated).
 */
export function resolveRealSpec(
  doc: unknown,
  simulated: (name: string) => boolean = (n) => findScheduler(n) !== undefined,
): RealSpecValidation {
  const issues: ParamIssue[] = []
  const kernelOnly = new Map<number, { name: string; label: string; tunables: ParamValues }>()
  let patched = doc
  const entries = (doc as { schedulers?: unknown })?.schedulers
  if (Array.isArray(entries)) {
    const copy = entries.map((e: unknown, i: number) => {
      const name = typeof e === 'string' ? e : (e as { name?: unknown })?.name
      if (typeof name !== 'string' || simulated(name) || !isKernelSchedulerName(name)) return e
      const obj = typeof e === 'string' ? {} : (e as { label?: unknown; tunables?: unknown })
      const label = typeof obj.label === 'string' && obj.label ? obj.label : name
      const given = (obj.tunables ?? {}) as Record<string, unknown>
      for (const [k, m] of checkKernelTunables(name, given))
        issues.push({ path: `schedulers[${i}].tunables${k ? `.${k}` : ''}`, message: m })
      const tunables: ParamValues = {}
      for (const [k, v] of Object.entries(given)) tunables[k] = typeof v === 'boolean' ? v : (v as number)
      kernelOnly.set(i, { name, label, tunables })
      // a stand-in the simulator accepts, so the rest of the spec is validated as usual
      return { name: 'noop', label }
    })
    patched = { ...(doc as object), schedulers: copy }
  }
  const v = validateSpec(patched)
  if (!v.ok || issues.length > 0) return { ok: false, issues: [...(v.ok ? [] : v.issues), ...issues] }
  const schedulers = v.spec.schedulers.map((s, i) => {
    const k = kernelOnly.get(i)
    return k ? { name: k.name, label: k.label, tunables: k.tunables } : s
  })
  return {
    ok: true,
    spec: { ...v.spec, schedulers },
    kernelOnly: [...kernelOnly.values()].map((k) => k.label),
  }
}
