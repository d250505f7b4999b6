import { describe, expect, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const root = new URL('../..', import.meta.url).pathname

describe('user device presets', () => {
  const state = mkdtempSync(join(tmpdir(), 'iosched-state-'))
  mkdirSync(join(state, 'presets'))
  writeFileSync(
    join(state, 'presets', 'my-ssd.json'),
    JSON.stringify({
      schema: 'iosched-lab/device-preset@1',
      name: 'my-ssd',
      model: 'flash',
      basePreset: 'ssd-sata-mlc',
      description: 'my own SSD, fitted',
      values: { queueDepth: 4 },
      sources: { queueDepth: 'fingerprint' },
    }),
  )
  writeFileSync(join(state, 'presets', 'broken.json'), '{ "schema": "iosched-lab/device-preset@1" }')
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [join(root, 'bin/iosched-lab.mjs'), ...args], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, IOSCHED_LAB_STATE_DIR: state },
    })

  it('are listed and can be named in a spec like built-in presets; a broken one is reported', () => {
    const list = cli('list', '--json')
    expect(list.status).toBe(0)
    const presets = JSON.parse(list.stdout).devices.presets
    const mine = presets.find((p: { name: string }) => p.name === 'my-ssd')
    expect(mine).toMatchObject({ model: 'flash', values: { queueDepth: 4 } })
    expect(mine.values.channels).toBe(
      presets.find((p: { name: string }) => p.name === 'ssd-sata-mlc').values.channels,
    )
    expect(list.stderr).toMatch(/ignoring device preset .*broken\.json: needs "name" and "model"/)
    const spec = join(state, 'spec.json')
    writeFileSync(
      spec,
      JSON.stringify({
        device: { preset: 'my-ssd' },
        workload: {
          processes: [{ name: 'f', type: 'fio', params: { rw: 'randread', size: '16M', direct: true } }],
        },
        schedulers: ['noop'],
      }),
    )
    const run = cli('run', spec, '--json', '--jobs', '0')
    expect(run.status).toBe(0)
    expect(JSON.parse(run.stdout).device).toBe('my-ssd')
  })
})
