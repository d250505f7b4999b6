import type { RunKind } from '../experiment/result'
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

/** A row's tunables in words, and the tooltip that details them. */
export interface TunablesText {
  text: string
  /** The tooltip: each change with its default, or what the text means. */
  title: string
  /** Some tunable differs from its default. */
  changed: boolean
}

/**
 * A row's tunables as the results' table, the library's run sets and `sessions show` say them:
 * "defaults", the ones that differ from the scheduler's defaults `specs` (each with its default in
 * the title), or "not recorded" for imported runs, whose files do not say.
 */
export function tunablesText(
  scheduler: string,
  kind: RunKind,
  tunables: ParamValues,
  specs: readonly ParamSpec[],
): TunablesText {
  if (kind === 'imported' && Object.keys(tunables).length === 0)
    return {
      text: 'not recorded',
      title: 'the imported file does not say the scheduler’s tunables',
      changed: false,
    }
  const changes = tunableChanges(tunables, specs)
  if (changes.length === 0)
    return { text: 'defaults', title: `${scheduler}: every tunable at its default`, changed: false }
  return {
    text: changesText(changes),
    title: changes
      .map(
        (c) => `${c.name} = ${String(c.value)}${c.default === '' ? '' : ` (default ${String(c.default)})`}`,
      )
      .join('\n'),
    changed: true,
  }
}
