import type { PhaseResult } from '../host/program'

/**
 * A phase's figure as the tool that times phases prints it: bonnie++ gives K/sec (1024 bytes) for
 * its sequential output and input, and operations per second for random seeks and the file tests
 * (creates, stats, deletes). A phase that moved no bytes counts operations too.
 */
export interface PhaseRate {
  name: string
  /** What people call it (bonnie++'s column titles), or the phase's own name. */
  title: string
  value: number
  unit: 'K/s' | '/s'
}

/** bonnie++'s columns, as its table heads them. */
const TITLES: Readonly<Record<string, string>> = {
  putc: 'out per chr',
  put_block: 'out block',
  rewrite: 'rewrite',
  getc: 'in per chr',
  get_block: 'in block',
  seeks: 'seeks',
  seq_create: 'seq create',
  seq_stat: 'seq read',
  seq_del: 'seq delete',
  ran_create: 'rand create',
  ran_stat: 'rand read',
  ran_del: 'rand delete',
}

/** Phases counted in operations per second, whatever bytes they moved (bonnie++'s seeks). */
const OPS_PHASES = /^(seeks|seq_create|seq_stat|seq_del|ran_create|ran_stat|ran_del)$/

/** The unit a phase of this name is counted in (a phase without bytes counts operations). */
export const phaseUnit = (name: string, bytes = 1): PhaseRate['unit'] =>
  OPS_PHASES.test(name) || !(bytes > 0) ? '/s' : 'K/s'

export const phaseTitle = (name: string): string => TITLES[name] ?? name

/** The phase's rate; NaN when it took no time (nothing to divide by: not measured). */
export function phaseRate(p: PhaseResult): PhaseRate {
  const unit = phaseUnit(p.name, p.bytes)
  const per = p.seconds > 0 ? 1 / p.seconds : NaN
  return {
    name: p.name,
    title: phaseTitle(p.name),
    value: unit === 'K/s' ? (p.bytes / 1024) * per : p.ops * per,
    unit,
  }
}
