import { schedulers } from '../../shared/schedulers/registry'
import { workloads } from '../../shared/workloads/registry'
import { DEVICE_MODELS as deviceModels, devicePresets } from '../../shared/devices/registry'
import { hostParams } from '../../shared/host/params'
import { hostPresets } from '../../shared/host/presets'
import { fileSystems } from '../../shared/fs/registry'
import type { ParamSpec } from '../../shared/util/params'
import { parseArgs } from 'node:util'
import { catalogue } from '../../shared/catalogue'
import type { CliCommand } from '../command'
import { renderTable } from '../table'

const paramRows = (ps: readonly ParamSpec[]): string[][] =>
  ps.map((p) => [p.name, String(p.default), p.unit, range(p), p.meaning])

const range = (p: ParamSpec): string =>
  p.values
    ? p.values.join('|')
    : p.min !== undefined || p.max !== undefined
      ? `${p.min ?? ''}…${p.max ?? ''}`
      : ''

const section = (title: string, ps: readonly ParamSpec[], withSources = false): string =>
  ps.length === 0
    ? `  ${title}: none`
    : `  ${title}:\n` +
      [
        ...renderTable(['name', 'default', 'unit', 'range', 'meaning'], paramRows(ps), [
          'l',
          'r',
          'l',
          'l',
          'l',
        ]).split('\n'),
        ...(withSources ? ps.filter((p) => p.source).map((p) => `  source of ${p.name}: ${p.source}`) : []),
      ]
        .map((l) => '    ' + l)
        .join('\n')

const presetFs = (fs: { type: string; options?: Record<string, unknown> } | undefined): string =>
  fs === undefined
    ? 'none'
    : [fs.type, ...Object.entries(fs.options ?? {}).map(([k, v]) => `${k}=${String(v)}`)].join(' ')

export function listText(): string {
  const out: string[] = ['SCHEDULERS']
  for (const s of schedulers) {
    out.push(`\n${s.name}${s.aliases.length ? ` (alias: ${s.aliases.join(', ')})` : ''} — ${s.summary}`)
    out.push(`  era: ${s.era}; block layer: ${s.layer}`)
    out.push(`  ${s.explanation}`)
    out.push(section('tunables', s.tunables, true))
    if (s.constants) out.push(section('kernel constants (not tunable)', s.constants, true))
  }
  out.push('\nDEVICE PRESETS')
  out.push(
    renderTable(
      ['preset', 'model', 'description'],
      devicePresets().map((p) => [p.name, p.model, p.description]),
      ['l', 'l', 'l'],
    ),
  )
  for (const m of deviceModels) out.push(`\ndevice model ${m.name}\n${section('parameters', m.params)}`)
  out.push('\nHOST PRESETS')
  out.push(
    renderTable(
      ['preset', 'file system', 'description'],
      hostPresets.map((p) => [p.name, presetFs(p.filesystem), p.description]),
      ['l', 'l', 'l'],
    ),
  )
  out.push(section('host parameters', hostParams))
  out.push('\nFILE SYSTEMS (host.filesystem: { "type": NAME, OPTION: VALUE … })')
  for (const f of fileSystems) {
    out.push(`\n${f.name} — ${f.summary}`)
    out.push(`  era: ${f.era}`)
    out.push(section('mount options', f.params))
  }
  out.push('\nWORKLOADS')
  for (const w of workloads) out.push(`\n${w.name} — ${w.summary}\n${section('parameters', w.params)}`)
  return out.join('\n')
}

export const listCommand: CliCommand = {
  name: 'list',
  usage: [
    'list [--json]                       schedulers, devices, hosts, file systems and workloads with their parameters',
  ],
  async run(args, io) {
    const { values } = parseArgs({ args, options: { json: { type: 'boolean' } }, allowPositionals: false })
    io.out(values.json ? JSON.stringify(catalogue(), null, 2) : listText())
    return 0
  },
}
