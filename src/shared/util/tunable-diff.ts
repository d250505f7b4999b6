import type { ParamSpec, ParamValues } from './params'

/** A tunable whose value is not its scheduler's default. */
export interface TunableChange {
  name: string
  value: number | boolean | string
  default: number | boolean | string
}

/**
 * The tunables of `values` that differ from the defaults in `specs`, in the specs' order, then
 * any the specs do not know (default shown as the empty string: there is none to compare with).
 */
export function tunableChanges(values: ParamValues, specs: readonly ParamSpec[]): TunableChange[] {
  const out: TunableChange[] = []
  const known = new Set<string>()
  for (const s of specs) {
    known.add(s.name)
    if (!(s.name in values)) continue
    const v = values[s.name]
    if (v !== s.default) out.push({ name: s.name, value: v, default: s.default })
  }
  for (const [name, value] of Object.entries(values))
    if (!known.has(name)) out.push({ name, value, default: '' })
  return out
}

/** `fifo_batch=1, writes_starved=4`; the empty string when nothing differs. */
export const changesText = (changes: readonly TunableChange[]): string =>
  changes.map((c) => `${c.name}=${String(c.value)}`).join(', ')
